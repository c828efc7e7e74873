/**
 * grove's own Parquet decoder against DuckDB, on files DuckDB writes: every supported case (nulls,
 * dictionary and plain strings, integers of every width, unsigned and beyond 2^53, floats, doubles,
 * booleans, decimals of up to 18 digits, several row groups, the four codecs DuckDB writes, data
 * pages v2, the v2 encodings) gives exactly the Dataset the DuckDB path gives, with every option
 * that changes a column; files it does not read (a LIST column, a DECIMAL(30, 5)) fall back to
 * DuckDB and give the same Dataset; damaged files give a GroveError naming the file.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GroveError } from '../../src/core/errors.js';
import type { Dataset } from '../../src/data/dataset.js';
import { ParquetUnsupported, readParquetSource } from '../../src/data/parquet/read.js';
import type { TypedReadOptions } from '../../src/data/typed-fields.js';
import { readSource } from '../../src/sources/index.js';
import { readParquet as readWithDuckDB } from '../../src/sources/parquet.js';
import { nodeCodecs } from '../../src/sources/parquet-file.js';
import { fixture } from '../helpers/paths.js';
import { asRequired, dictionaryThenPlain, nullPagesAsEmptyV2, rewriteAsPageV2 } from './parquet-page-v2.js';

let dir: string;
const at = (name: string) => join(dir, name);
const ROWS = 5000;

/** One row per i: a column of each supported type, nulls at different strides. */
const TABLE = `SELECT
  CASE WHEN i % 7 = 0 THEN NULL ELSE i / 7.0 - 300 END AS d,
  CASE WHEN i % 11 = 3 THEN NULL ELSE CAST(i % 50 AS INTEGER) - 20 END AS small,
  CASE WHEN i % 13 = 5 THEN NULL ELSE CAST(i AS FLOAT) / 3 END AS fl,
  CAST(i AS BIGINT) * 3 - 7000 AS big,
  CAST(9007199254740993 AS BIGINT) + i * 1234567 AS huge,
  CAST(18446744073709551615 AS UBIGINT) - CAST(i AS UBIGINT) * 999 AS ubig,
  CAST(i % 200 - 100 AS TINYINT) AS tiny,
  CAST(i * 5 - 9000 AS SMALLINT) AS short,
  CAST(i % 250 AS UTINYINT) AS utiny,
  CAST(i * 13 AS USMALLINT) AS ushort,
  CAST(4294967295 - i AS UINTEGER) AS uint,
  CAST(hash(i) % 9223372036854775807 AS BIGINT) * (1 - 2 * (i % 2)) AS scattered,
  CAST(CAST(hash(i + 1) % 4294967296 AS BIGINT) - 2147483648 AS INTEGER) AS scattered32,
  CASE WHEN i % 17 = 0 THEN NULL WHEN i % 17 = 1 THEN '?' WHEN i % 17 = 2 THEN '' WHEN i % 5 = 0 THEN ' pad ' ELSE 'c' || (i % 9) END AS s,
  CASE WHEN i % 19 = 0 THEN NULL ELSE 'id ' || i || ' ünï' END AS id,
  CASE WHEN i % 23 = 0 THEN NULL ELSE i % 3 = 0 END AS b,
  CASE WHEN i % 4 = 0 THEN chr(65279) || 'bom' ELSE '42' END AS numtext,
  CAST(NULL AS DOUBLE) AS empty,
  CAST(d AS DECIMAL(9, 2)) AS dec9,
  CAST((i % 9999) / 10.0 AS DECIMAL(4, 1)) AS dec4,
  CAST((i * 12345.678901 + 1000000.5) * (1 - 2 * (i % 2)) AS DECIMAL(18, 10)) AS dec18,
  CAST(i * -7 AS DECIMAL(18, 0)) AS dec0,
  CASE WHEN i % 4 = 0 THEN 'x' WHEN i % 4 = 1 THEN 'y' ELSE 'z' END AS class
  FROM range(${ROWS}) r(i)`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'grove-parquet-decoder-'));
  const instance = await DuckDBInstance.create(':memory:');
  const db = await instance.connect();
  try {
    await db.run(`CREATE TABLE t AS ${TABLE}`);
    const copy = (what: string, name: string, options = '') =>
      db.run(`COPY (${what}) TO '${at(name)}' (FORMAT parquet${options})`);
    await copy('SELECT * FROM t', 'snappy.parquet', ', ROW_GROUP_SIZE 2048');
    await copy('SELECT * FROM t', 'gzip.parquet', ", CODEC 'gzip'");
    await copy('SELECT * FROM t', 'plain.parquet', ", CODEC 'uncompressed', ROW_GROUP_SIZE 2048");
    await copy('SELECT * FROM t', 'zstd.parquet', ", CODEC 'zstd'");
    await copy('SELECT * FROM t', 'v2-encodings.parquet', ', PARQUET_VERSION V2, ROW_GROUP_SIZE 2048');
    await copy('SELECT * FROM t', 'v2-encodings-gzip.parquet', ", PARQUET_VERSION V2, CODEC 'gzip'");
    await copy('SELECT d, [small, tiny] AS l, class FROM t', 'list.parquet');
    await copy('SELECT d, CAST(big AS DECIMAL(30, 5)) AS dec, class FROM t', 'decimal.parquet');
    await copy("SELECT d, CAST('inf' AS DOUBLE) AS inf, class FROM t", 'infinity.parquet');
    await copy(
      "SELECT d, CASE WHEN id = 'id 4321 ünï' THEN 'MARKER' ELSE id END AS id, class FROM t",
      'utf8.parquet',
      ", CODEC 'uncompressed'",
    );
    await copy('SELECT d, CAST(1e39 AS DOUBLE) * small AS wide, class FROM t', 'wide.parquet');
    await copy("SELECT small, CASE WHEN d IS NULL THEN NULL ELSE 'yes' END AS class FROM t", 'null-class.parquet');
    await copy(
      'SELECT empty, CAST(NULL AS INTEGER) AS none, CAST(NULL AS VARCHAR) AS nothing, d, s, class FROM t',
      'nulls.parquet',
      ', ROW_GROUP_SIZE 2048',
    );
    await copy(
      "SELECT d, coalesce(s, 'none') AS s, numtext, class FROM t",
      'dictionary.parquet',
      ", CODEC 'uncompressed', ROW_GROUP_SIZE 2048",
    );
    // No nulls, for REQUIRED columns.
    await copy(
      'SELECT coalesce(d, 0) AS d, coalesce(fl, 1.5) AS fl, big, huge, ubig, tiny, utiny, uint, scattered32, coalesce(b, false) AS b, numtext, coalesce(dec9, 0) AS dec9, dec18, class FROM t',
      'no-nulls.parquet',
      ", CODEC 'uncompressed', ROW_GROUP_SIZE 2048",
    );
  } finally {
    db.closeSync();
    instance.closeSync();
  }
  // Invalid UTF-8 in the page's copy of one string (the footer's statistics keep theirs).
  const utf8 = readFileSync(at('utf8.parquet'));
  utf8.set([0xff, 0xfe], utf8.indexOf('MARKER') + 1);
  writeFileSync(at('not-utf8.parquet'), utf8);
  const { bytes, pages } = rewriteAsPageV2(new Uint8Array(readFileSync(at('plain.parquet'))));
  expect(pages).toBeGreaterThan(0);
  writeFileSync(at('v2.parquet'), bytes);
  const nulls = nullPagesAsEmptyV2(new Uint8Array(readFileSync(at('nulls.parquet'))));
  expect(nulls.pages).toBeGreaterThan(0);
  writeFileSync(at('nulls-v2-empty.parquet'), nulls.bytes);
  const required = asRequired(new Uint8Array(readFileSync(at('no-nulls.parquet'))));
  expect(required.pages).toBeGreaterThan(0);
  writeFileSync(at('required.parquet'), required.bytes);
  writeFileSync(at('required-v2.parquet'), rewriteAsPageV2(required.bytes, true).bytes);
  const split = dictionaryThenPlain(new Uint8Array(readFileSync(at('dictionary.parquet'))));
  expect(split.pages).toBeGreaterThan(0);
  writeFileSync(at('dictionary-then-plain.parquet'), split.bytes);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A file's bytes as a byte source, reads counted. */
function memorySource(bytes: Uint8Array) {
  return {
    size: bytes.length,
    reads: 0,
    async read(offset: number, into: Uint8Array) {
      this.reads++;
      into.set(bytes.subarray(offset, offset + into.length));
    },
  };
}

/** The decoder alone (no fallback): a Dataset, or its rejection. */
function decode(path: string, options: TypedReadOptions = {}): Promise<Dataset> {
  return readParquetSource(memorySource(readFileSync(path)), { ...options, source: path, codecs: nodeCodecs() });
}

/** What a read gives, rejection included, for comparing two readers. */
async function outcome(read: Promise<Dataset>): Promise<Dataset | string> {
  try {
    return await read;
  } catch (err) {
    return err instanceof GroveError ? `GroveError: ${err.message}` : `${(err as Error).name}: ${err}`;
  }
}

const OPTIONS: Array<[string, TypedReadOptions]> = [
  ['defaults', {}],
  ['float32', { float32: true }],
  ['forced kinds', { categorical: ['small', 'big', 'b'], numeric: ['numtext'] }],
  ['boolean target', { target: 'b' }],
  ['integer target', { target: 'tiny' }],
  ['text target with missing labels', { target: 's' }],
];

describe('Parquet decoder', () => {
  // v2: data pages v2 (rewritten from plain); v2-encodings: DuckDB's PARQUET_VERSION V2 (data pages
  // v1 with DELTA_BINARY_PACKED, BYTE_STREAM_SPLIT, DELTA_LENGTH_BYTE_ARRAY, RLE_DICTIONARY).
  for (const file of ['snappy', 'gzip', 'zstd', 'plain', 'v2', 'v2-encodings', 'v2-encodings-gzip']) {
    it(`${file}: the Dataset DuckDB's path gives, for every option`, async () => {
      const path = at(`${file}.parquet`);
      for (const [what, options] of OPTIONS) {
        const expected = await outcome(readWithDuckDB(path, options));
        expect(await outcome(decode(path, options)), what).toEqual(expected);
      }
      const got = await decode(path);
      expect(got.features.map((f) => f.kind).join(' ')).toBe(
        'numeric numeric numeric numeric numeric numeric numeric numeric numeric numeric numeric numeric numeric categorical categorical categorical categorical categorical numeric numeric numeric numeric',
      );
    }, 60_000);
  }

  // Written by pyarrow (test/fixtures/parquet/make-pyarrow.py): DELTA_BYTE_ARRAY, 64-bit deltas,
  // LZ4_RAW, data pages v2 with compressed values, RLE booleans, several pages per chunk.
  for (const name of ['pyarrow-delta', 'pyarrow-lz4-v2']) {
    it(`${name}: the Dataset DuckDB's path gives, for every option`, async () => {
      const path = fixture(`parquet/${name}.parquet`);
      for (const [what, options] of [...OPTIONS, ['target', { target: 'class' }] as const]) {
        const expected = await outcome(readWithDuckDB(path, options));
        expect(await outcome(decode(path, options)), what).toEqual(expected);
      }
      expect(await outcome(decode(path))).not.toBeTypeOf('string');
    }, 60_000);
  }

  it('data pages v2 of nulls only, with no value bytes though marked compressed: the Dataset DuckDB gives', async () => {
    const path = at('nulls-v2-empty.parquet');
    for (const [what, options] of [
      ['defaults', {}],
      ['target', { target: 'class' }],
    ] as const) {
      const expected = await outcome(readWithDuckDB(path, options));
      expect(expected, what).not.toBeTypeOf('string');
      expect(await outcome(decode(path, options)), what).toEqual(expected);
    }
  }, 60_000);

  it('a chunk whose dictionary gives way to PLAIN pages partway: the Dataset DuckDB gives', async () => {
    const path = at('dictionary-then-plain.parquet');
    for (const [what, options] of [
      ['defaults', {}],
      ['forced kinds', { categorical: ['d'] }],
    ] as const) {
      const expected = await outcome(readWithDuckDB(path, options));
      expect(expected, what).not.toBeTypeOf('string');
      expect(await outcome(decode(path, options)), what).toEqual(expected);
    }
    const content = (d: Dataset) => ({ ...d, source: undefined });
    expect(content(await decode(path))).toEqual(content(await decode(at('dictionary.parquet'))));
  }, 60_000);

  // DuckDB writes every column OPTIONAL; these files are rewritten with REQUIRED columns (no levels).
  for (const name of ['required', 'required-v2']) {
    it(`${name}: REQUIRED columns, pages without definition levels, give the Dataset DuckDB gives`, async () => {
      const path = at(`${name}.parquet`);
      const schema = await outcome(readWithDuckDB(path));
      expect(schema).not.toBeTypeOf('string');
      for (const [what, options] of [
        ['defaults', {}],
        ['float32', { float32: true }],
        ['boolean target', { target: 'b' }],
        ['forced kinds', { categorical: ['tiny'], numeric: ['numtext'] }],
      ] as const) {
        const expected = await outcome(readWithDuckDB(path, options));
        expect(await outcome(decode(path, options)), what).toEqual(expected);
      }
      // The same values as the OPTIONAL original.
      const content = (d: Dataset) => ({ ...d, source: undefined });
      expect(content(await decode(path))).toEqual(content(await decode(at('no-nulls.parquet'))));
    }, 60_000);
  }

  it('reads by column chunk, never the whole file at once', async () => {
    const bytes = readFileSync(at('snappy.parquet'));
    const source = memorySource(bytes);
    const progress: number[] = [];
    await readParquetSource(source, { onProgress: (p) => progress.push(p.rows) });
    expect(source.reads).toBeGreaterThan(3 * 23); // 3 row groups × 23 columns, and the footer
    expect(progress).toEqual([2048, 4096, ROWS]);
  });

  it('errors name the row and column as DuckDB’s path does: infinity, float32 overflow, a missing label', async () => {
    const cases: Array<[string, TypedReadOptions]> = [
      ['infinity.parquet', {}],
      ['wide.parquet', { float32: true }],
      ['null-class.parquet', {}],
    ];
    for (const [name, options] of cases) {
      const expected = await outcome(readWithDuckDB(at(name), options));
      expect(expected, name).toMatch(/^GroveError: .*row \d+, column '\w+'/);
      expect(await outcome(decode(at(name), options))).toBe(expected);
    }
  });

  it('a string that is not UTF-8, found mid-read, leaves the file to DuckDB, which refuses it as before', async () => {
    const path = at('not-utf8.parquet');
    await expect(decode(path)).rejects.toBeInstanceOf(ParquetUnsupported);
    const expected = await outcome(readWithDuckDB(path));
    expect(expected).toMatch(/^GroveError: .*not-utf8\.parquet: cannot read Parquet: .*UTF/);
    expect(await outcome(readSource(path))).toBe(expected);
  });

  it('a LIST column and a DECIMAL(30, 5) are left to DuckDB, which gives the same Dataset', async () => {
    for (const name of ['list', 'decimal']) {
      const path = at(`${name}.parquet`);
      await expect(decode(path), name).rejects.toBeInstanceOf(ParquetUnsupported);
      const warnings: string[] = [];
      const expected = await readWithDuckDB(path, { onWarning: (m) => warnings.push(m) });
      const got = await readSource(path, { onWarning: (m) => warnings.push(m) });
      expect(got, name).toEqual(expected);
      expect(warnings.slice(warnings.length / 2), name).toEqual(warnings.slice(0, warnings.length / 2));
    }
  }, 60_000);
});
