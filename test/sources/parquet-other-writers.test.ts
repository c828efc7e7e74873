/**
 * Parquet files from writers other than DuckDB (pyarrow 25 and fastparquet 2026.9, made once by
 * test/fixtures/parquet/make-other-writers.py) in encodings and codecs DuckDB cannot read or does
 * not write: BYTE_STREAM_SPLIT on INT32, INT64, FLOAT, DOUBLE and fixed-length decimals; the
 * deprecated LZ4 codec, as one raw block and in Hadoop's framing; ZSTD; BROTLI; GZIP with
 * dictionaries and DELTA_BINARY_PACKED; FLOAT16 columns, plain and split. grove's decoder reads each itself, and each gives the
 * values of the CSV file written from the same data. Also BIT_PACKED definition levels, which no
 * writer at hand makes, rewritten by the test from a DuckDB file (DuckDB itself marks its
 * dictionary pages with the deprecated PLAIN_DICTIONARY, pyarrow with RLE_DICTIONARY).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dataset } from '../../src/data/dataset.js';
import { CODEC, ENCODING, fileMetaData } from '../../src/data/parquet/metadata.js';
import { readParquetSource } from '../../src/data/parquet/read.js';
import { readSource } from '../../src/sources/index.js';
import { readParquet as readWithDuckDB } from '../../src/sources/parquet.js';
import { nodeCodecs } from '../../src/sources/parquet-file.js';
import { fixture } from '../helpers/paths.js';
import { levelsBitPacked } from './parquet-legacy-pages.js';

/** grove's decoder alone, no fallback to DuckDB. */
function decode(bytes: Uint8Array, source: string): Promise<Dataset> {
  const file = {
    size: bytes.length,
    async read(offset: number, into: Uint8Array) {
      into.set(bytes.subarray(offset, offset + into.length));
    },
  };
  return readParquetSource(file, { source, codecs: nodeCodecs() });
}

/** The footer of a file: each column chunk's codec and encodings, in row group 0. */
function chunks(bytes: Uint8Array): Array<{ codec: number; encodings: number[] }> {
  const length = new DataView(bytes.buffer, bytes.byteOffset).getUint32(bytes.length - 8, true);
  const meta = fileMetaData(bytes.subarray(bytes.length - 8 - length, bytes.length - 8));
  return meta.rowGroups[0].columns.map((c) => ({ codec: c.meta!.codec, encodings: c.meta!.encodings }));
}

const SPLIT = ENCODING.BYTE_STREAM_SPLIT;
/** Each fixture: its codec, and the value encodings its columns must show (in column order). */
const FIXTURES: Array<[string, number, number[]]> = [
  ['pyarrow-split-zstd', CODEC.ZSTD, [SPLIT, SPLIT, SPLIT, SPLIT, SPLIT, ENCODING.DELTA_LENGTH_BYTE_ARRAY, SPLIT]],
  ['pyarrow-split-brotli-v2', CODEC.BROTLI, [SPLIT, SPLIT, SPLIT, SPLIT, SPLIT, ENCODING.DELTA_BYTE_ARRAY, SPLIT]],
  [
    'pyarrow-gzip-dictionary',
    CODEC.GZIP,
    [ENCODING.RLE_DICTIONARY, ENCODING.DELTA_BINARY_PACKED, ENCODING.PLAIN, ENCODING.PLAIN, ENCODING.PLAIN],
  ],
  ['fastparquet-lz4', CODEC.LZ4, [ENCODING.PLAIN, ENCODING.PLAIN, ENCODING.PLAIN, ENCODING.PLAIN, ENCODING.PLAIN]],
  ['fastparquet-lz4-hadoop', CODEC.LZ4, [ENCODING.PLAIN, ENCODING.PLAIN, ENCODING.PLAIN, ENCODING.PLAIN]],
];

describe('Parquet files of other writers', () => {
  let expected: Dataset;
  beforeAll(async () => {
    expected = await readSource(fixture('parquet/other-writers.csv'));
  });

  for (const [name, codec, encodings] of FIXTURES)
    it(`${name}: grove's decoder reads it, with the CSV file's values`, async () => {
      const path = fixture(`parquet/${name}.parquet`);
      const bytes = new Uint8Array(readFileSync(path));
      const meta = chunks(bytes);
      expect(new Set(meta.map((c) => c.codec)), 'codec').toEqual(new Set([codec]));
      encodings.forEach((e, j) => expect(meta[j].encodings, `column ${j}`).toContain(e));

      const got = await decode(bytes, path);
      expect(got.nRows).toBe(expected.nRows);
      expect(got.features.length).toBeGreaterThanOrEqual(5);
      for (const column of got.features)
        expect(column, column.name).toEqual(expected.features.find((c) => c.name === column.name));
      expect(got.labels).toEqual(expected.labels);
      expect(got.classes).toEqual(expected.classes);
      // The file path reads it the same way.
      expect(await readSource(path)).toEqual(got);
    });

  it('pyarrow-gzip-dictionary, the one DuckDB reads (FLOAT16 too): the Dataset DuckDB gives', async () => {
    const path = fixture('parquet/pyarrow-gzip-dictionary.parquet');
    const got = await decode(new Uint8Array(readFileSync(path)), path);
    expect(got.features.map((c) => c.name)).toContain('f16');
    expect(got).toEqual(await readWithDuckDB(path));
  });
});

describe('BIT_PACKED definition levels, rewritten from a DuckDB file', () => {
  let dir: string;
  let original: Uint8Array;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'grove-parquet-legacy-'));
    const instance = await DuckDBInstance.create(':memory:');
    const db = await instance.connect();
    try {
      await db.run(
        `COPY (SELECT CASE WHEN i % 7 = 0 THEN NULL ELSE i / 3.0 END AS d, ` +
          `CASE WHEN i % 5 = 0 THEN NULL ELSE 'c' || (i % 4) END AS s, CAST(i % 9 AS INTEGER) AS n, ` +
          `CASE WHEN i % 3 = 0 THEN 'x' ELSE 'y' END AS class FROM range(3000) r(i)) ` +
          `TO '${join(dir, 'plain.parquet')}' (FORMAT parquet, CODEC 'uncompressed', ROW_GROUP_SIZE 1024)`,
      );
    } finally {
      db.closeSync();
      instance.closeSync();
    }
    original = new Uint8Array(readFileSync(join(dir, 'plain.parquet')));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('BIT_PACKED definition levels: the values of the file they were rewritten from', async () => {
    const { bytes, pages } = levelsBitPacked(original);
    expect(pages).toBeGreaterThan(0);
    const path = join(dir, 'rewritten.parquet');
    writeFileSync(path, bytes);
    const strip = (d: Dataset) => ({ ...d, source: undefined });
    const want = strip(await readWithDuckDB(join(dir, 'plain.parquet')));
    expect(strip(await decode(bytes, path))).toEqual(want);
    expect(strip(await readSource(path))).toEqual(want);
  }, 30_000);
});
