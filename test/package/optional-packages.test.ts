/**
 * The heavy engines are optional: the built package, laid out as `npm i grove` lays it out (its
 * `dependencies` only, no DuckDB, pg or apache-arrow anywhere Node looks), reads CSV and flat
 * Parquet, fits, predicts and exports; a feature that needs a missing package fails with one line
 * naming it and the command that installs it (CLI exit 2; a GroveError from the API).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { tableFromArrays, tableToIPC } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPTIONAL_PACKAGES } from '../../src/core/optional.js';
import { assertBuilt, repoRoot } from '../helpers/cli.js';

interface PackageJson {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
}
const pkg = JSON.parse(readFileSync(resolve(repoRoot, 'package.json'), 'utf8')) as PackageJson;
const OPTIONAL_MODULES = OPTIONAL_PACKAGES.flatMap((p) => p.modules);

let dir = '';
const iris = resolve(repoRoot, 'data/iris.csv');

/** `node -e` or the CLI in the core layout. */
function run(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, args, { cwd: dir, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
const grove = (...args: string[]) => run([join(dir, 'dist/cli/main.js'), ...args]);

/** The one-line refusal a missing package gives: exit 2, its install command, no stack. */
function expectMissing(r: ReturnType<typeof grove>, install: string): void {
  expect(r.status, r.stderr).toBe(2);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).toContain(`npm i ${install}`);
}

beforeAll(async () => {
  assertBuilt();
  dir = mkdtempSync(join(tmpdir(), 'grove-core-'));
  cpSync(resolve(repoRoot, 'dist'), join(dir, 'dist'), { recursive: true });
  cpSync(resolve(repoRoot, 'package.json'), join(dir, 'package.json'));
  for (const name of Object.keys(pkg.dependencies)) {
    const target = join(dir, 'node_modules', name);
    mkdirSync(dirname(target), { recursive: true });
    symlinkSync(resolve(repoRoot, 'node_modules', name), target, 'dir');
  }
  // The inputs only the optional packages read, made here with the devDependencies.
  const table = tableFromArrays({ x: Float64Array.from([1, 2, 3, 4]), y: ['a', 'b', 'a', 'b'] });
  writeFileSync(join(dir, 'small.arrow'), tableToIPC(table, 'file'));
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const db = await DuckDBInstance.create(join(dir, 'small.duckdb'));
  const c = await db.connect();
  await c.run('CREATE TABLE t AS SELECT range::DOUBLE AS x, (range % 2)::VARCHAR AS y FROM range(20)');
  await c.run(`COPY (SELECT [range] AS l, range::DOUBLE AS x, (range % 2)::VARCHAR AS y FROM range(20))
    TO '${join(dir, 'nested.parquet')}' (FORMAT parquet)`);
  await c.run(`COPY t TO '${join(dir, 'flat.parquet')}' (FORMAT parquet)`);
  c.closeSync();
  db.closeSync();
}, 120_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('package.json', () => {
  it('declares each optional package as an optional peer dependency, in devDependencies, not in dependencies', () => {
    for (const p of OPTIONAL_PACKAGES) {
      for (const m of p.modules) {
        expect(pkg.dependencies[m], m).toBeUndefined();
        expect(pkg.peerDependenciesMeta[m]?.optional, m).toBe(true);
        expect(pkg.devDependencies[m], m).toBe(pkg.peerDependencies[m]);
      }
      const [first] = p.modules;
      expect(p.install).toBe(`${first}@${first === undefined ? '' : pkg.peerDependencies[first]}`);
    }
  });
});

describe('the package without its optional packages', () => {
  it('has none of them where Node looks', () => {
    for (const m of OPTIONAL_MODULES) {
      const r = run(['--input-type=module', '-e', `await import(${JSON.stringify(m)})`]);
      expect(r.stderr, m).toMatch(/ERR_MODULE_NOT_FOUND/);
    }
  });

  it('imports every entry point', () => {
    for (const entry of ['index', 'node', 'browser', 'extend']) {
      const r = run(['--input-type=module', '-e', `await import(${JSON.stringify(join(dir, `dist/${entry}.js`))})`]);
      expect(r.status, `${entry}: ${r.stderr}`).toBe(0);
    }
  });

  it('fits CSV and flat Parquet, predicts, and exports ONNX', () => {
    expect(grove('fit', iris, '--out', 'm.json').status).toBe(0);
    expect(grove('fit', 'flat.parquet', '--out', 'p.json').status).toBe(0);
    const predicted = grove('predict', '--model', 'm.json', iris);
    expect(predicted.status).toBe(0);
    expect(predicted.stdout.split('\n')[1]).toBe('Iris-setosa');
    expect(grove('export', 'm.json', '--format', 'onnx', '--out', 'm.onnx').status).toBe(0);
    expect(existsSync(join(dir, 'm.onnx'))).toBe(true);
  });

  it('names the package a feature needs, in one line, exit 2', () => {
    const [duckdb, pg, arrow] = OPTIONAL_PACKAGES.map((p) => p.install);
    expectMissing(grove('fit', 'small.arrow', '--out', 'a.json'), arrow ?? '');
    expectMissing(grove('fit', iris, '--engine', 'duckdb', '--out', 'd.json'), duckdb ?? '');
    expectMissing(grove('fit', 'duckdb:small.duckdb', '--table', 't', '--out', 'd.json'), duckdb ?? '');
    expectMissing(grove('fit', 'nested.parquet', '--out', 'n.json'), duckdb ?? '');
    expectMissing(grove('fit', 'postgres://127.0.0.1:1/db', '--table', 't', '--out', 'g.json'), pg ?? '');
    expect(grove('fit', iris, '--out', 'm.json').status).toBe(0);
    expectMissing(grove('predict', '--model', 'm.json', iris, '--out', 'p.parquet'), duckdb ?? '');
    expect(existsSync(join(dir, 'p.parquet'))).toBe(false);
  });

  it('rejects with a GroveError from the API', () => {
    const node = JSON.stringify(join(dir, 'dist/node.js'));
    const r = run([
      '--input-type=module',
      '-e',
      `const g = await import(${node});
       try { await g.readSource('small.arrow'); } catch (e) { console.log(e instanceof g.GroveError, e.message); }`,
    ]);
    expect(r.stdout).toContain('true reading an Arrow IPC file needs the optional package apache-arrow');
  });
});
