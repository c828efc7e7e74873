/**
 * `grove info` describes any table it can read, and rows without a label (fit, info), through the
 * BUILT binary (run `npm run build` first; `npm test` does).
 */

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, type CliResult, fixture, grove, parseCsv, repoRoot } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'grove-info-'));
const tmp = (name: string): string => join(dir, name);
const IRIS = join(repoRoot, 'data/iris.csv');
/** Two rows without a label (an empty cell, `?`), the first on line 3. */
const UNLABELLED = tmp('unlabelled.csv');

function ok(r: CliResult): CliResult {
  expect(r.status, `stderr:\n${r.stderr}`).toBe(0);
  return r;
}

interface Info {
  rows: number;
  columns: Array<{ name: string; kind: string; missing: number; distinct: number; min?: number; max?: number }>;
  target?: string;
  classes?: Array<{ label: string; rows: number }>;
  unlabelled?: number;
  targetProblem?: string;
  continuousTarget?: string;
}
const info = (args: string[]): Info => JSON.parse(ok(grove(['info', ...args, '--json'])).stdout);

beforeAll(() => {
  assertBuilt();
  writeFileSync(UNLABELLED, 'x,z,y\n1,a,p\n2,b,\n3,a,q\n4,b,?\n5,a,p\n6,b,q\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('grove info', () => {
  it("every column's kind, missing, distinct and range, as counted from the file itself", () => {
    const rows = parseCsv(readFileSync(IRIS, 'utf8')).filter((r) => r.length > 1);
    const header = rows[0];
    const body = rows.slice(1);
    const got = info([IRIS]);
    expect(got.rows).toBe(body.length);
    header.slice(0, -1).forEach((name, j) => {
      const values = body.map((r) => Number(r[j]));
      const col = got.columns.find((c) => c.name === name)!;
      expect(col).toMatchObject({ kind: 'numeric', missing: 0, distinct: new Set(values).size });
      expect([col.min, col.max]).toEqual([Math.min(...values), Math.max(...values)]);
    });
    expect(got.columns.at(-1)).toMatchObject({ name: 'class', kind: 'target', missing: 0, distinct: 3 });
    expect(got.classes?.map((c) => c.rows)).toEqual([50, 50, 50]);
    const text = ok(grove(['info', IRIS])).stdout;
    expect(text).toMatch(/^column\s+kind\s+missing\s+distinct\s+range$/m);
    expect(text).toMatch(/^sepal-length\s+numeric\s+0\s+35\s+4\.3 … 7\.9$/m);
  });

  it('rows without a label are counted; the classes come from the others', () => {
    const got = info([UNLABELLED]);
    expect(got.unlabelled).toBe(2);
    expect(got.columns.find((c) => c.name === 'y')).toMatchObject({ kind: 'target', missing: 2, distinct: 2 });
    expect(got.classes).toEqual([
      { label: 'p', rows: 2 },
      { label: 'q', rows: 2 },
    ]);
    expect(ok(grove(['info', UNLABELLED])).stdout).toMatch(/rows without a class label: 2 \(grove fit leaves them out/);
  });

  it('a table whose target is unusable is still described, with one line saying why (exit 0)', async () => {
    const one = tmp('one.csv');
    writeFileSync(one, 'a\n1\n2\n2\n');
    const single = info([one]);
    expect(single.columns).toEqual([{ name: 'a', kind: 'numeric', missing: 0, distinct: 2, min: 1, max: 2 }]);
    expect(single.targetProblem).toMatch(/only one column 'a'/);
    expect(ok(grove(['info', one])).stdout).toMatch(/^no class distribution: .*only one column 'a'/m);

    const unknown = info([IRIS, '--target', 'nope']);
    expect(unknown.targetProblem).toMatch(/unknown target column 'nope'/);
    expect(unknown.columns.map((c) => c.kind)).toEqual(['numeric', 'numeric', 'numeric', 'numeric', 'categorical']);

    const parquet = tmp('timestamps.parquet');
    const instance = await DuckDBInstance.create(':memory:');
    const db = await instance.connect();
    await db.run(
      `COPY (SELECT i AS x, 'a' || (i % 3) AS z, TIMESTAMP '2020-01-01' + INTERVAL (i) HOUR AS t FROM range(10) r(i)) TO '${parquet}' (FORMAT parquet)`,
    );
    db.closeSync();
    instance.closeSync();
    const r = ok(grove(['info', parquet, '--json']));
    const ts = JSON.parse(r.stdout) as Info;
    expect(ts.targetProblem).toMatch(/TIMESTAMP/);
    // Not a class label, but a numeric feature in seconds when another column is the target.
    expect(ts.columns.map((c) => [c.name, c.distinct])).toEqual([
      ['x', 10],
      ['z', 3],
      ['t', 10],
    ]);
  });

  it('a file it cannot read as a table is still exit 2, one line', () => {
    const r = grove(['info', fixture('bad-empty.csv')]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('a numeric target with many values is flagged as continuous', () => {
    const file = tmp('continuous.csv');
    const lines = Array.from({ length: 60 }, (_, i) => `${i},${(i * 1.37).toFixed(2)}`);
    writeFileSync(file, `x,price\n${lines.join('\n')}\n`);
    expect(info([file]).continuousTarget).toMatch(/'price' has \d+ distinct numeric values, some with fractions/);
    const fit = ok(grove(['fit', file, '--out', tmp('continuous.json')]));
    expect(fit.stderr).toMatch(/warning: the target 'price' has \d+ distinct numeric values.*--target/);
    expect(info([IRIS]).continuousTarget).toBeUndefined();
  });
});

describe('rows without a label in fit', () => {
  it('are left out with a warning naming their count and the first row; --require-labels refuses them', () => {
    const r = ok(grove(['fit', UNLABELLED, '--prune', 'none', '--out', tmp('u.json')]));
    expect(r.stderr).toMatch(
      /warning: 2 rows without a class label in 'y' left out \(the first on row 3\); --require-labels makes this an error/,
    );
    expect(r.stderr).toMatch(/on 4 rows:/);
    const model = JSON.parse(readFileSync(tmp('u.json'), 'utf8'));
    expect(model.classes).toEqual(['p', 'q']);
    expect(model.nodes[0].n).toBe(4);
    const strict = grove(['fit', UNLABELLED, '--require-labels', '--out', tmp('strict.json')]);
    expect(strict.status).toBe(2);
    expect(strict.stderr).toMatch(/row 3, column 'y': .*every row needs a class label/);
  });
});
