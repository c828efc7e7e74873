/** grove predict --out x.parquet writes the CSV output's columns and values as Parquet, atomically. */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, grove, parseCsv } from '../helpers/cli.js';
import { fixture } from '../helpers/paths.js';

let dir: string;
beforeAll(() => {
  assertBuilt();
  dir = mkdtempSync(join(tmpdir(), 'grove-predict-parquet-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function readParquetRows(path: string): Promise<{ names: string[]; types: string[]; rows: unknown[][] }> {
  const instance = await DuckDBInstance.create(':memory:');
  const db = await instance.connect();
  try {
    const r = await db.runAndReadAll(`SELECT * FROM read_parquet('${path}')`);
    return { names: r.columnNames(), types: r.columnTypes().map(String), rows: r.getRows() as unknown[][] };
  } finally {
    db.closeSync();
    instance.closeSync();
  }
}

describe('predict --out .parquet', () => {
  it('the same predictions and probabilities as the CSV output; no temporary file left', async () => {
    const model = join(dir, 'm.json');
    expect(grove(['fit', fixture('taxable-income.csv'), '--out', model, '--prune', 'none']).status).toBe(0);
    const csv = grove(['predict', fixture('taxable-income.csv'), '--model', model, '--proba']);
    expect(csv.status, csv.stderr).toBe(0);
    const expected = parseCsv(csv.stdout);
    const out = join(dir, 'preds.parquet');
    const r = grove(['predict', fixture('taxable-income.csv'), '--model', model, '--proba', '--out', out]);
    expect(r.status, r.stderr).toBe(0);
    const got = await readParquetRows(out);
    expect(got.names).toEqual(expected[0]);
    expect(got.types[0]).toBe('VARCHAR');
    expect(got.types.slice(1).every((t) => t === 'DOUBLE')).toBe(true);
    expect(got.rows.length).toBe(expected.length - 1);
    got.rows.forEach((row, i) => {
      expect(row[0]).toBe(expected[i + 1][0]);
      for (let c = 1; c < row.length; c++)
        expect(Number((row[c] as number).toPrecision(6))).toBe(Number(expected[i + 1][c]));
    });
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('numeric class labels are written as an integer column', async () => {
    const data = join(dir, 'graded.csv');
    writeFileSync(data, 'x,grade\n1,10\n2,10\n3,20\n4,20\n5,30\n6,30\n');
    const model = join(dir, 'n.json');
    expect(grove(['fit', data, '--out', model, '--prune', 'none']).status).toBe(0);
    const out = join(dir, 'n.parquet');
    expect(grove(['predict', data, '--model', model, '--out', out]).status).toBe(0);
    const got = await readParquetRows(out);
    expect(got.types).toEqual(['BIGINT']);
    expect(got.rows.map((r) => Number(r[0]))).toEqual([10, 10, 20, 20, 30, 30]);
  });
});
