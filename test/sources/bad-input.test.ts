/** Bad data sources get one line naming the file (and row/column where there is one) and exit 2. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, grove } from '../helpers/cli.js';

let dir: string;
const at = (name: string) => join(dir, name);

beforeAll(async () => {
  assertBuilt();
  dir = mkdtempSync(join(tmpdir(), 'grove-bad-sources-'));
  const instance = await DuckDBInstance.create(':memory:');
  const db = await instance.connect();
  const rows = `SELECT * FROM (VALUES (1.5, {'a': 1}, [1, 2], 'yes'), (2.5, {'a': 2}, [3], 'no'), (0.5, {'a': 3}, [], 'yes')) t(x, s, l, y)`;
  await db.run(`COPY (${rows}) TO '${at('nested.parquet')}' (FORMAT parquet)`);
  await db.run(
    `COPY (SELECT * FROM (VALUES (1.0, 'a'), (2.0, NULL), (3.0, 'b')) t(x, y)) TO '${at('null-class.parquet')}' (FORMAT parquet)`,
  );
  db.closeSync();
  instance.closeSync();
  const good = readFileSync(at('nested.parquet'));
  writeFileSync(at('truncated.parquet'), good.subarray(0, Math.floor(good.length / 2)));
  writeFileSync(at('garbage.parquet'), 'this is not a parquet file\n');
  writeFileSync(at('garbage.arrow'), 'this is not an arrow file\n');
  writeFileSync(at('garbage.csv.gz'), 'this is not gzip\n');
  writeFileSync(at('bad.jsonl'), '{"x": 1, "y": "a"}\n{"x": 2, "y": \n');
  for (const ext of ['parquet', 'arrow', 'jsonl', 'csv.gz', 'tsv']) writeFileSync(at(`empty.${ext}`), '');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Run grove, expect exit 2 and one `grove: ` line matching `pattern`. */
function refused(args: string[], pattern: RegExp): void {
  const r = grove(args);
  expect(r.status, r.stderr).toBe(2);
  expect(r.stderr).toMatch(/^grove: [^\n]*\n$/);
  expect(r.stderr).toMatch(pattern);
  expect(r.stderr).not.toMatch(/ at .*\.js/);
}

describe('bad sources', () => {
  it('a nested (struct, list) column is skipped with a warning naming it; as the target it is refused', () => {
    const r = grove(['info', at('nested.parquet')]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/column 's' of type STRUCT\("a" INTEGER\) is skipped/);
    expect(r.stderr).toMatch(/column 'l' of type INTEGER\[\] is skipped/);
    expect(r.stdout).toMatch(/1 feature \(1 numeric, 0 categorical\), target 'y'/);
    refused(
      ['fit', at('nested.parquet'), '--target', 's', '--out', at('m.json')],
      /column 's': the target column has type STRUCT/,
    );
  });

  it('an unknown target column names the columns there are', () => {
    refused(
      ['fit', at('nested.parquet'), '--target', 'nope', '--out', at('m.json')],
      /unknown target column 'nope' \(columns: x, s, l, y\)/,
    );
  });

  it('a missing class label names its row and column (fit --require-labels); info counts it', () => {
    refused(
      ['fit', at('null-class.parquet'), '--require-labels', '--out', at('m.json')],
      /null-class\.parquet, row 2, column 'y': the target \(class\) value is missing/,
    );
    const r = grove(['info', at('null-class.parquet'), '--json']);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).unlabelled).toBe(1);
  });

  it('corrupt, truncated and foreign files: one line naming the file', () => {
    refused(['info', at('garbage.parquet')], /garbage\.parquet: cannot read Parquet: /);
    refused(['info', at('truncated.parquet')], /truncated\.parquet: cannot read Parquet: /);
    refused(
      ['info', at('garbage.arrow')],
      /garbage\.arrow: damaged Arrow IPC file: the message at byte 0 declares \d+ bytes of metadata/,
    );
    refused(['info', at('garbage.csv.gz')], /garbage\.csv\.gz: cannot decompress/);
    refused(['info', at('bad.jsonl')], /bad\.jsonl, row 2: invalid JSON/);
  });

  it('an empty file of any format', () => {
    for (const ext of ['parquet', 'arrow', 'jsonl', 'csv.gz', 'tsv'])
      refused(['info', at(`empty.${ext}`)], /: empty file$/m);
  });

  it('a missing file and a gzip-compressed Parquet file', () => {
    refused(['info', at('nowhere.parquet')], /nowhere\.parquet: cannot read file: no such file/);
    writeFileSync(at('x.parquet.gz'), 'x');
    refused(['info', at('x.parquet.gz')], /a gzip-compressed Parquet file is not read/);
  });
});
