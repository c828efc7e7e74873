/**
 * Damaged Parquet files: cut short, a wrong magic number, bytes flipped in the footer or in the
 * pages. grove's decoder gives a Dataset (a flip it cannot see, inside a value), a GroveError naming
 * the file, or leaves the file to DuckDB — never another error, never a hang.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GroveError } from '../../src/core/errors.js';
import { ParquetUnsupported, readParquetSource } from '../../src/data/parquet/read.js';
import { readSource } from '../../src/sources/index.js';
import { nodeCodecs } from '../../src/sources/parquet-file.js';
import { fixture } from '../helpers/paths.js';

let dir: string;
let good: Uint8Array;
/** The same rows with DuckDB's v2 encodings (delta, byte stream split). */
let goodV2: Uint8Array;
const at = (name: string) => join(dir, name);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'grove-parquet-damaged-'));
  const instance = await DuckDBInstance.create(':memory:');
  const db = await instance.connect();
  try {
    await db.run(`COPY (SELECT
      CASE WHEN i % 7 = 0 THEN NULL ELSE i / 7.0 END AS d,
      CAST(i % 40 AS INTEGER) AS n,
      CASE WHEN i % 5 = 0 THEN NULL ELSE 'c' || (i % 9) END AS s,
      'id' || i AS id,
      i % 3 = 0 AS b,
      CASE WHEN i % 2 = 0 THEN 'x' ELSE 'y' END AS class
      FROM range(3000) r(i)) TO '${at('good.parquet')}' (FORMAT parquet, ROW_GROUP_SIZE 2048)`);
    await db.run(
      `COPY (SELECT *, CAST(n AS BIGINT) * 1000003 AS big FROM '${at('good.parquet')}') TO '${at('good-v2.parquet')}' (FORMAT parquet, PARQUET_VERSION V2)`,
    );
  } finally {
    db.closeSync();
    instance.closeSync();
  }
  good = new Uint8Array(readFileSync(at('good.parquet')));
  goodV2 = new Uint8Array(readFileSync(at('good-v2.parquet')));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A deterministic pseudo-random sequence (LCG), for the flips. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * The decoder alone on these bytes: 'ok', 'grove' (a GroveError naming the file) or 'unsupported';
 * an internal error (a decoder bug, not damage) fails the test.
 */
async function decoded(bytes: Uint8Array): Promise<string> {
  const source = {
    size: bytes.length,
    async read(offset: number, into: Uint8Array) {
      into.set(bytes.subarray(offset, offset + into.length));
    },
  };
  try {
    await readParquetSource(source, { source: 'x.parquet', codecs: nodeCodecs(), onWarning: () => {} });
    return 'ok';
  } catch (err) {
    if (err instanceof ParquetUnsupported) return 'unsupported';
    // A GroveError naming the file, but not one for a bug of the decoder's (which has a cause).
    if (err instanceof GroveError && err.file === 'x.parquet' && err.cause === undefined) return 'grove';
    throw err;
  }
}

describe('damaged Parquet files', () => {
  it('cut short or with a wrong magic number: a GroveError naming the file', async () => {
    const footer = new DataView(good.buffer).getUint32(good.length - 8, true);
    const cuts = [3, 11, 12, 100, good.length >> 1, good.length - footer - 9, good.length - 9, good.length - 1];
    const files: string[] = [];
    for (const n of cuts) {
      files.push(at(`cut-${n}.parquet`));
      writeFileSync(files.at(-1)!, good.subarray(0, n));
    }
    for (const [name, where] of [
      ['head', 0],
      ['tail', good.length - 4],
    ] as const) {
      const bad = good.slice();
      bad[where + 1] ^= 0xff;
      files.push(at(`magic-${name}.parquet`));
      writeFileSync(files.at(-1)!, bad);
    }
    for (const file of files) {
      const err = await readSource(file).catch((e: unknown) => e);
      expect(err, file).toBeInstanceOf(GroveError);
      expect((err as GroveError).message, file).toMatch(
        new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: cannot read Parquet: `),
      );
    }
  });

  it('a byte flipped anywhere in the footer: a Dataset, a GroveError or left to DuckDB', async () => {
    const footer = new DataView(good.buffer).getUint32(good.length - 8, true);
    const seen = new Set<string>();
    for (let k = good.length - 8 - footer; k < good.length - 8; k++) {
      const bad = good.slice();
      bad[k] ^= 0x5a;
      seen.add(await decoded(bad));
    }
    expect(seen.has('grove')).toBe(true);
  });

  it('bytes flipped in the pages, 300 seeded files of each of eight encodings and codecs: a Dataset, a GroveError or left to DuckDB', async () => {
    const others = [
      'pyarrow-lz4-v2',
      'pyarrow-split-zstd',
      'pyarrow-split-brotli-v2',
      'pyarrow-gzip-dictionary',
      'fastparquet-lz4',
      'fastparquet-lz4-hadoop',
    ].map((name) => new Uint8Array(readFileSync(fixture(`parquet/${name}.parquet`))));
    for (const file of [good, goodV2, ...others]) {
      expect(await decoded(file)).toBe('ok');
      const footer = new DataView(file.buffer).getUint32(file.length - 8, true);
      const dataEnd = file.length - 8 - footer;
      const random = lcg(16);
      const seen = new Map<string, number>();
      for (let trial = 0; trial < 300; trial++) {
        const bad = file.slice();
        const flips = 1 + Math.floor(random() * 3);
        for (let f = 0; f < flips; f++) bad[4 + Math.floor(random() * (dataEnd - 4))] ^= 1 + Math.floor(random() * 255);
        const got = await decoded(bad);
        seen.set(got, (seen.get(got) ?? 0) + 1);
      }
      expect(seen.get('grove') ?? 0).toBeGreaterThan(0);
    }
  });

  it('an error that is no fault of the file (a decoder bug) is an internal error with its cause, not damage', async () => {
    const bug = new TypeError('x is not a function');
    const source = {
      size: good.length,
      async read(): Promise<void> {
        throw bug;
      },
    };
    const err = await readParquetSource(source, { source: 'x.parquet' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GroveError);
    expect((err as GroveError).message).toMatch(
      /^x\.parquet: cannot read Parquet: internal error .*not a fault of the file/,
    );
    expect((err as GroveError).cause).toBe(bug);
  });

  it('a damaged file read through the CLI’s path (with DuckDB behind) is still one GroveError', async () => {
    const bad = good.slice();
    const footer = new DataView(good.buffer).getUint32(good.length - 8, true);
    for (let k = good.length - 8 - footer; k < good.length - 8; k += 7) bad[k] ^= 0xff;
    writeFileSync(at('footer.parquet'), bad);
    const err = await readSource(at('footer.parquet')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GroveError);
    expect((err as GroveError).file).toBe(at('footer.parquet'));
  });
});
