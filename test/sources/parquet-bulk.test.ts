/**
 * The Parquet reader through DuckDB copies DuckDB vectors in bulk (numbers with their validity
 * masks, text as ENUM indexes, booleans as bytes): over many chunks, with nulls at chunk edges, text
 * columns too varied for an ENUM (read value by value: strings stored inline and strings behind a
 * pointer) and a native ENUM column, it gives the CSV reader's Dataset; so does grove's own decoder
 * (what `readSource` uses for this file).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dataset } from '../../src/data/dataset.js';
import { readDataset } from '../../src/sources/file-source.js';
import { readDuckDBRelation, readSource } from '../../src/sources/index.js';
import { readParquet as readWithDuckDB } from '../../src/sources/parquet.js';

let dir: string;
let csv: string;
let parquet: string;
const ROWS = 70_000; // 35 chunks of 2048; more distinct ids than an ENUM is made for (65,536)

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'grove-parquet-bulk-'));
  csv = join(dir, 'bulk.csv');
  parquet = join(dir, 'bulk.parquet');
  const instance = await DuckDBInstance.create(':memory:');
  const db = await instance.connect();
  try {
    // Deterministic values from the row number; nulls at different strides so they hit chunk edges.
    await db.run(`CREATE TABLE t AS SELECT
      CASE WHEN i % 7 = 0 OR i = 2047 OR i = 2048 THEN NULL ELSE (i % 1000) / 8.0 - 60 END AS d,
      CASE WHEN i % 11 = 3 THEN NULL ELSE CAST(i % 97 AS INTEGER) - 40 END AS n,
      CAST(i AS BIGINT) * 3 AS big,
      CASE WHEN i % 13 = 0 THEN NULL WHEN i % 13 = 1 THEN '?' WHEN i % 5 = 0 THEN ' pad ' ELSE 'c' || (i % 9) END AS s,
      CASE WHEN i % 17 = 0 THEN NULL ELSE 'id' || i END AS id,
      CASE WHEN i % 19 = 0 THEN NULL ELSE i % 3 = 0 END AS b,
      CASE WHEN i % 23 = 0 THEN NULL WHEN i % 23 = 1 THEN 'short ' || i ELSE 'row ' || i || ' — ünïcödé, longer than 12 bytes' END AS long,
      CASE WHEN i % 4 = 0 THEN 'x' WHEN i % 4 = 1 THEN 'y' ELSE 'z' END AS class
      FROM range(${ROWS}) r(i)`);
    await db.run(`COPY t TO '${csv}' (FORMAT csv, HEADER true)`);
    await db.run(`COPY t TO '${parquet}' (FORMAT parquet)`);
  } finally {
    db.closeSync();
    instance.closeSync();
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const content = (d: Dataset) => ({ ...d, source: undefined });

describe('Parquet read in bulk', () => {
  it('gives the CSV reader’s Dataset over many chunks with nulls, ENUM-coded and value-by-value text', async () => {
    const expected = await readDataset(csv);
    expect(expected.features.map((f) => f.kind)).toEqual([
      'numeric',
      'numeric',
      'numeric',
      'categorical',
      'categorical',
      'categorical',
      'categorical',
    ]);
    expect(content(await readWithDuckDB(parquet))).toEqual(content(expected));
    expect(content(await readSource(parquet))).toEqual(content(expected));
  }, 60_000);

  it('reads a native ENUM column by index, in first-appearance order', async () => {
    const from = `(SELECT d, CAST(s AS ENUM('c0', 'c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7', 'c8', ' pad ', '?', 'never')) AS s, class FROM read_parquet('${parquet}'))`;
    const got = await readDuckDBRelation(from, parquet, {});
    const expected = await readDataset(csv, { target: 'class' });
    const s = expected.features.find((f) => f.name === 's');
    expect(got.features[1]).toEqual(s);
    // Rows 0, 1 are missing (null, '?'); 'never' is a member of the ENUM but in no row.
    expect(got.features[1]).toMatchObject({
      categories: ['c2', 'c3', 'c4', 'pad', 'c6', 'c7', 'c8', 'c0', 'c1', 'c5'],
    });
    expect(got.labels).toEqual(expected.labels);
  }, 60_000);

  it('with float32 and a forced categorical number column', async () => {
    const options = { float32: true, categorical: ['n'] };
    const expected = content(await readDataset(csv, options));
    expect(content(await readWithDuckDB(parquet, options))).toEqual(expected);
    expect(content(await readSource(parquet, options))).toEqual(expected);
  }, 60_000);
});
