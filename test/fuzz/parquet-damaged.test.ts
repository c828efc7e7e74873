/**
 * Damaged Parquet files of every codec and of the encodings other writers use (the fixtures of
 * test/fixtures/parquet: ZSTD, BROTLI, GZIP, SNAPPY, LZ4_RAW, the deprecated LZ4 raw and
 * Hadoop-framed; BYTE_STREAM_SPLIT, delta and dictionary encodings; data pages v1 and v2), bytes
 * flipped anywhere past the magic number. Property: grove's decoder gives a consistent Dataset, a
 * GroveError that is not an internal error, or leaves the file to DuckDB — never another error.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { GroveError } from '../../src/core/errors.js';
import { ParquetUnsupported, readParquetSource } from '../../src/data/parquet/read.js';
import { nodeCodecs } from '../../src/sources/parquet-file.js';
import { fixture } from '../helpers/paths.js';
import { FUZZ_TIMEOUT, fuzzParams } from './config.js';

const NAMES = [
  'pyarrow-split-zstd',
  'pyarrow-split-brotli-v2',
  'pyarrow-gzip-dictionary',
  'fastparquet-lz4',
  'fastparquet-lz4-hadoop',
  'pyarrow-delta',
  'pyarrow-lz4-v2',
];
let files: Uint8Array[];
beforeAll(() => {
  files = NAMES.map((name) => new Uint8Array(readFileSync(fixture(`parquet/${name}.parquet`))));
});

/** 'read', 'grove' or 'unsupported'; anything else throws. */
async function outcome(bytes: Uint8Array): Promise<string> {
  const source = {
    size: bytes.length,
    async read(offset: number, into: Uint8Array) {
      into.set(bytes.subarray(offset, offset + into.length));
    },
  };
  try {
    const d = await readParquetSource(source, { source: 'damaged.parquet', codecs: nodeCodecs() });
    for (const f of d.features) expect(f.kind === 'numeric' ? f.values.length : f.codes.length).toBe(d.nRows);
    expect(d.labels.length).toBe(d.nRows);
    return 'read';
  } catch (err) {
    if (err instanceof ParquetUnsupported) return 'unsupported';
    if (err instanceof GroveError && !/internal error/.test(err.message)) return 'grove';
    throw err;
  }
}

describe('Parquet fuzz', () => {
  it(
    'bytes flipped in files of every codec: a Dataset, a GroveError or left to DuckDB',
    async () => {
      const flip = fc.record({ at: fc.double({ min: 0, max: 1, noNaN: true }), xor: fc.integer({ min: 1, max: 255 }) });
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 0, max: NAMES.length - 1 }),
          fc.array(flip, { minLength: 1, maxLength: 4 }),
          async (k, flips) => {
            const bad = files[k].slice();
            for (const { at, xor } of flips) bad[4 + Math.floor(at * (bad.length - 5))] ^= xor;
            await outcome(bad);
          },
        ),
        fuzzParams(300),
      );
    },
    FUZZ_TIMEOUT,
  );
});
