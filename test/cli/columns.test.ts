/**
 * `--drop`, `--features` and `--delimiter` on the commands that read training data, the warning for columns that
 * look like row identifiers, and `compare --target/--drop` with a folder holding an unreadable file,
 * through the BUILT binary (run `npm run build` first; `npm test` does).
 */

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, type CliResult, grove } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'grove-columns-'));
const tmp = (name: string): string => join(dir, name);
/** 40 rows: `id` counts up, `code` is a text with one value per row, `x` decides `label`. */
const IDS = tmp('ids.csv');

function ok(r: CliResult): CliResult {
  expect(r.status, `stderr:\n${r.stderr}`).toBe(0);
  return r;
}

beforeAll(() => {
  assertBuilt();
  const rows = Array.from({ length: 40 }, (_, i) => {
    const x = (i * 37) % 20;
    return `${i + 1},c${(i * 7) % 40},${x},${['r', 'g', 'b'][i % 3]},${x < 10 ? 'n' : 'p'}`;
  });
  writeFileSync(IDS, `id,code,x,colour,label\n${rows.join('\n')}\n`);
  mkdirSync(tmp('folder'));
  writeFileSync(tmp('folder/ids.csv'), `id,code,x,colour,label\n${rows.join('\n')}\n`);
  writeFileSync(tmp('folder/spaces.csv'), 'a b c\n1 2 x\n3 4 y\n');
  writeFileSync(
    tmp('folder/first.csv'),
    `label,x\n${Array.from({ length: 12 }, (_, i) => `${i < 6 ? 'n' : 'p'},${i}`).join('\n')}\n`,
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('--drop and --features', () => {
  it('fit warns about identifier-like columns, naming the flag; --drop leaves them out and the warning goes', () => {
    const plain = ok(grove(['fit', IDS, '--algorithm', 'id3']));
    expect(plain.stderr).toMatch(
      /column 'id' looks like a row identifier \(an integer that increases on every row\).*--drop id/,
    );
    expect(plain.stderr).toMatch(
      /column 'code' looks like a row identifier \(40 distinct values in 40 rows\).*--drop code/,
    );
    const dropped = ok(grove(['fit', IDS, '--algorithm', 'id3', '--drop', 'id,code']));
    expect(dropped.stderr).not.toMatch(/row identifier/);
    expect(dropped.stdout).toMatch(/x/);
    expect(dropped.stdout).not.toMatch(/\bcode\b|\bid\b/);
    const kept = ok(grove(['fit', IDS, '--algorithm', 'id3', '--features', 'colour']));
    expect(kept.stdout).toMatch(/colour/);
    expect(kept.stdout).not.toMatch(/\bx\b/);
  });

  it('an unknown column names the columns there are (exit 2, one line)', () => {
    for (const flag of ['--drop', '--features']) {
      const r = grove(['fit', IDS, flag, 'ID']);
      expect(r.status).toBe(2);
      expect(r.stderr.trim()).toMatch(/unknown column 'ID' .*\(columns: id, code, x, colour, label\)$/);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(grove(['fit', IDS, '--drop', 'label']).stderr).toMatch(/cannot drop the target column 'label'/);
  });

  it('cv, score, info and explore take them too', () => {
    const cv = JSON.parse(ok(grove(['cv', IDS, '--folds', '2', '--features', 'x', '--json'])).stdout);
    expect(cv.summary.testAccuracy.mean).toBe(1);
    expect(ok(grove(['score', IDS, '--drop', 'id,code,x'])).stdout).toMatch(/colour/);
    const info = JSON.parse(ok(grove(['info', IDS, '--drop', 'code', '--json'])).stdout);
    expect(info.columns.map((c: { name: string }) => c.name)).toEqual(['id', 'x', 'colour', 'label']);
    expect(info.idLike).toEqual([{ name: 'id', reason: 'an integer that increases on every row' }]);
    expect(ok(grove(['info', IDS])).stdout).toMatch(/^note: 'code' looks like a row identifier .*--drop code/m);
    const page = ok(grove(['explore', IDS, '--drop', 'id,code', '--out', tmp('page.html')]));
    expect(page.stderr).not.toMatch(/row identifier/);
  });

  it('training in a database refuses them, pointing to --query', () => {
    const r = grove(['fit', IDS, '--engine', 'duckdb', '--drop', 'id']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--drop and --features apply to in-memory training.*--query/);
  });
});

describe('compare', () => {
  const args = ['--algorithms', 'cart,id3', '--criteria', '', '--folds', '2', '--no-models', '--no-progress'];

  it('--data FOLDER skips a file it cannot read with a warning naming it; --target names the class column', () => {
    const r = ok(grove(['compare', '--data', tmp('folder'), ...args, '--datasets', 'ids,spaces']));
    expect(r.stderr).toMatch(/skipped a data file that cannot be read: .*spaces\.csv, row 1: only one column 'a b c'/);
    expect(r.stdout).toMatch(/^ids\s/m);
    const first = ok(grove(['compare', '--data', tmp('folder/first.csv'), '--target', 'label', ...args]));
    expect(first.stdout).toMatch(/^first\s+100\.0±0\.0 \(2\)\s+100\.0±0\.0 \(2\)/m);
    expect(first.stdout).toMatch(/^avg rank \(accuracy\)\s+1\.50\s+1\.50$/m);
  });

  it('a file named on its own still stops the run; --drop applies to every data set', () => {
    const r = grove(['compare', '--data', tmp('folder/spaces.csv'), ...args]);
    expect(r.status).toBe(2);
    const dropped = ok(grove(['compare', '--data', IDS, '--drop', 'id,code', ...args]));
    expect(dropped.stderr).not.toMatch(/row identifier/);
    expect(ok(grove(['compare', '--data', IDS, ...args])).stderr).toMatch(
      /ids: column 'id' looks like a row identifier/,
    );
  });
});

describe('--delimiter', () => {
  const semicolons = () => {
    const p = tmp('semicolons.csv');
    writeFileSync(
      p,
      `"x";"colour";"label"\n${Array.from({ length: 12 }, (_, i) => `${i};"r";${i < 6 ? 'n' : 'p'}`).join('\n')}\n`,
    );
    return p;
  };

  it("a header without a comma but with ';', tab or '|' is read with that delimiter, with a note", () => {
    const p = semicolons();
    const r = ok(grove(['fit', p, '--prune', 'none']));
    expect(r.stderr).toMatch(
      /semicolons\.csv: no comma in the header: read with ';' as the delimiter \(sniffed; --delimiter sets it\)/,
    );
    expect(r.stderr).toMatch(/on 12 rows: 3 nodes, 2 leaves/);
    const bars = tmp('bars.txt');
    writeFileSync(bars, 'a|b|y\n1|2|p\n3|4|q\n');
    expect(ok(grove(['info', bars, '--json'])).stdout).toMatch(/"target":"y"/);
  });

  it('--delimiter sets it; a delimiter that gives one column says so, naming it', () => {
    const p = semicolons();
    const r = ok(grove(['info', p, '--delimiter', ';']));
    expect(r.stderr).toBe('');
    const tabs = tmp('tabs.csv');
    writeFileSync(tabs, 'a\tb\ty\n1\t2\tp\n3\t4\tq\n');
    expect(ok(grove(['info', tabs, '--delimiter', 'tab'])).stdout).toMatch(/2 features/);
    const plain = tmp('plain-semicolons.csv');
    writeFileSync(plain, 'x;colour;label\n1;r;n\n2;g;p\n');
    const wrong = grove(['fit', plain, '--delimiter', '|']);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toMatch(
      /only one column .* \(split on '\|'; is that the file's delimiter\? --delimiter sets it\)/,
    );
    const none = grove(['fit', tmp('folder/spaces.csv')]);
    expect(none.stderr).toMatch(
      /only one column 'a b c' .*\(no comma, and none of ';', tab, '\|'; give the delimiter with --delimiter\)/,
    );
    expect(grove(['fit', p, '--delimiter', ';;']).stderr).toMatch(/option --delimiter expects one character/);
  });

  it('fit --engine duckdb sniffs the delimiter as memory does, and takes --delimiter', () => {
    const p = semicolons();
    const mem = ok(grove(['fit', p, '--prune', 'none', '--bins', '255']));
    const duck = ok(grove(['fit', p, '--prune', 'none', '--bins', '255', '--engine', 'duckdb']));
    expect(duck.stderr).toMatch(
      /semicolons\.csv: no comma in the header: read with ';' as the delimiter \(sniffed; --delimiter sets it\)/,
    );
    expect(duck.stdout).toBe(mem.stdout);
    const bars = tmp('bars-engine.csv');
    writeFileSync(
      bars,
      `x|colour|label\n${Array.from({ length: 12 }, (_, i) => `${i}|r|${i < 6 ? 'n' : 'p'}`).join('\n')}\n`,
    );
    const given = ok(grove(['fit', bars, '--prune', 'none', '--engine', 'duckdb', '--delimiter', '|']));
    expect(given.stderr).not.toMatch(/sniffed/);
    expect(given.stdout).toBe(mem.stdout);
  });

  it('compare takes --delimiter for every data set', () => {
    const p = semicolons();
    const args = ['--algorithms', 'id3', '--criteria', '', '--folds', '2', '--no-models', '--no-progress'];
    const r = ok(grove(['compare', '--data', p, '--delimiter', ';', ...args]));
    expect(r.stdout).toMatch(/^semicolons\s+100\.0±0\.0/m);
    expect(r.stderr).not.toMatch(/sniffed/);
  });
});
