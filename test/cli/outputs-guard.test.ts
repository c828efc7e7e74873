/**
 * Outputs grove must not replace, on the built CLI: a read-only `--out` (mode 444, even for
 * root, as `cp` and editors refuse it) on every command that writes one, refused before any work;
 * and a DuckDB database read as the input (`duckdb:FILE`, also through a symbolic or hard link).
 */
import {
  chmodSync,
  copyFileSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GroveError } from '../../src/core/errors.js';
import { loadModel, saveModel } from '../../src/io/model-file.js';
import { assertBuilt, type CliResult, fixture, grove, lines, tmpLeftovers } from '../helpers/cli.js';

let root: string;
let n = 0;
const fresh = () => {
  const d = join(root, `t${n++}`);
  mkdirSync(d);
  return d;
};
beforeAll(() => {
  assertBuilt();
  root = mkdtempSync(join(tmpdir(), 'grove-outguard-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function expectRefused(r: CliResult, pattern: RegExp): void {
  expect(r.status, r.stderr).toBe(2);
  expect(lines(r.stderr)).toHaveLength(1);
  expect(r.stderr).toMatch(pattern);
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

/** A file holding `keep`, mode 444. */
function readOnly(path: string): string {
  writeFileSync(path, 'keep');
  chmodSync(path, 0o444);
  return path;
}

describe('a read-only --out is refused before any work', () => {
  it('fit, predict, show, export, explore, report and compare refuse it; the file is unchanged', () => {
    const dir = fresh();
    const data = join(dir, 'play.csv');
    copyFileSync(fixture('play-tennis.csv'), data);
    const model = join(dir, 'model.json');
    expect(grove(['fit', data, '--out', model]).status).toBe(0);
    const ro = readOnly(join(dir, 'ro.out'));
    const results = join(dir, 'run');
    const compare = ['compare', '--data', data, '--algorithms', 'id3', '--criteria', '', '--folds', '2'];
    expect(grove([...compare, '--no-models', '--no-progress', '--out', results]).status).toBe(0);
    const cases: string[][] = [
      ['fit', data, '--out', ro],
      // Before any work: the data would be refused too, but the output is checked first.
      ['fit', fixture('bad-ragged.csv'), '--out', ro],
      ['predict', data, '--model', model, '--out', ro],
      ['show', model, '--out', ro],
      ['show', model, '--format', 'rules', '--out', ro],
      ['export', model, '--format', 'onnx', '--out', ro],
      ['export', model, '--format', 'sql', '--dialect', 'duckdb', '--table', 't', '--out', ro],
      ['explore', data, '--out', ro],
      ['report', join(results, 'results.json'), '--out', ro],
      [...compare, '--no-progress', '--json', ro],
    ];
    for (const args of cases) {
      expectRefused(grove(args), /^grove: --(out|json) .*ro\.out is read-only; refusing to replace it/);
      expect(readFileSync(ro, 'utf8')).toBe('keep');
      expect(statSync(ro).mode & 0o777).toBe(0o444);
    }
    // compare --out DIR whose results.json is read-only.
    const again = join(dir, 'again');
    mkdirSync(again);
    readOnly(join(again, 'results.json'));
    expectRefused(grove([...compare, '--no-progress', '--out', again]), /results\.json is read-only/);
    expect(tmpLeftovers(dir)).toEqual([]);
  });

  it('saveModel refuses a read-only file (E_IO) and leaves it as it was', () => {
    const dir = fresh();
    const model = join(dir, 'model.json');
    expect(grove(['fit', fixture('play-tennis.csv'), '--out', model]).status).toBe(0);
    const ro = readOnly(join(dir, 'ro.json'));
    const err = (() => {
      try {
        saveModel(loadModel(model), ro);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(GroveError);
    expect((err as GroveError).code).toBe('E_IO');
    expect((err as GroveError).message).toMatch(/ro\.json is read-only/);
    expect(readFileSync(ro, 'utf8')).toBe('keep');
    expect(tmpLeftovers(dir)).toEqual([]);
  });
});

describe('--out onto an input DuckDB database is refused', () => {
  let dir: string;
  let db: string;
  beforeAll(async () => {
    dir = fresh();
    db = join(dir, 'w.duckdb');
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const inst = await DuckDBInstance.create(db);
    const conn = await inst.connect();
    const play = fixture('play-tennis.csv');
    await conn.run(`CREATE TABLE play AS SELECT * FROM read_csv('${play}', all_varchar = true)`);
    conn.closeSync();
    inst.closeSync();
  });

  it('fit (in the database and in memory), predict and explore; also through symbolic and hard links', () => {
    const model = join(dir, 'model.json');
    expect(grove(['fit', fixture('play-tennis.csv'), '--out', model]).status).toBe(0);
    const before = readFileSync(db);
    symlinkSync(db, join(dir, 'sym.duckdb'));
    linkSync(db, join(dir, 'hard.duckdb'));
    for (const out of [db, join(dir, 'sym.duckdb'), join(dir, 'hard.duckdb')]) {
      const src = `duckdb:${db}`;
      for (const args of [
        ['fit', src, '--table', 'play', '--prune', 'none', '--out', out],
        ['fit', src, '--table', 'play', '--engine', 'memory', '--out', out],
        ['predict', src, '--table', 'play', '--model', model, '--out', out],
        ['explore', src, '--table', 'play', '--out', out],
        // The input named through the link, the output by the real path.
        ['fit', `duckdb:${join(dir, 'sym.duckdb')}`, '--table', 'play', '--out', db],
      ])
        expectRefused(grove(args), /--out .* is also an input/);
    }
    expect(readFileSync(db).equals(before)).toBe(true);
  });
});
