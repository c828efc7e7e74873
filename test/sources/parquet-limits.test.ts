/**
 * Damaged sizes and counts in tiny hand-made column chunks (a dictionary of 2^29 values in 8
 * bytes, a page that claims to decompress to 1 GiB from a few bytes, gzip and brotli bombs, for
 * numbers and strings): the decoder refuses each as damaged before taking memory for what the
 * header claims.
 */
import * as zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeChunk } from '../../src/data/parquet/chunk.js';
import { ParquetCorrupt } from '../../src/data/parquet/errors.js';
import { CODEC, ENCODING, PAGE, PHYSICAL } from '../../src/data/parquet/metadata.js';
import type { ParquetColumn } from '../../src/data/parquet/schema.js';
import { Scratch } from '../../src/data/parquet/scratch.js';
import type { NumberSink, TextSink } from '../../src/data/typed-fields.js';
import { nodeCodecs } from '../../src/sources/parquet-file.js';

function varint(out: number[], v: number): void {
  while (v >= 0x80) {
    out.push((v % 128) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
}

/** A compact-protocol i32 field `delta` ids after the previous one. */
function i32(out: number[], delta: number, v: number): void {
  out.push((delta << 4) | 5);
  varint(out, 2 * v);
}

/** A page header (Thrift compact): its type, sizes, and a dictionary or data page header of `numValues`. */
function pageHeader(type: number, uncompressed: number, compressed: number, numValues: number): number[] {
  const out: number[] = [];
  i32(out, 1, type);
  i32(out, 1, uncompressed);
  i32(out, 1, compressed);
  const inner = type === PAGE.DICTIONARY ? 7 : 5; // dictionary_page_header, data_page_header
  out.push(((inner - 3) << 4) | 12);
  i32(out, 1, numValues);
  i32(out, 1, ENCODING.PLAIN);
  out.push(0, 0);
  return out;
}

const column = (physical: number, kind: 'number' | 'text'): ParquetColumn => ({
  field: { name: 'x', kind, type: kind === 'number' ? 'DOUBLE' : 'VARCHAR' },
  physical,
  optional: false,
  unsigned: false,
  typeLength: 0,
});
const numberSink = { kind: 'number', set() {}, setMany() {}, setFloat64Bytes() {} } as unknown as NumberSink;
const textSink = { kind: 'text', setIndexed() {} } as unknown as TextSink;

/** Decode one chunk of one row; the error it throws and how many MiB of array buffers it took meanwhile. */
function refusal(physical: number, codec: number, header: number[], body: ArrayLike<number>) {
  const bytes = new Uint8Array(header.length + body.length);
  bytes.set(header);
  bytes.set(body, header.length);
  const kind = physical === PHYSICAL.BYTE_ARRAY ? 'text' : 'number';
  const ctx = {
    column: column(physical, kind),
    sink: kind === 'text' ? textSink : numberSink,
    codec,
    codecs: nodeCodecs(),
    scratch: new Scratch(),
  };
  const before = process.memoryUsage().arrayBuffers;
  let error: unknown;
  try {
    decodeChunk(ctx, bytes, 0, 1);
  } catch (err) {
    error = err;
  }
  return { error, grownMiB: (process.memoryUsage().arrayBuffers - before) / 2 ** 20 };
}

describe('Parquet decoder: damaged sizes take no memory', () => {
  const huge = 2 ** 30;
  const cases: Array<[string, () => ReturnType<typeof refusal>]> = [
    [
      'a dictionary of 2^29 doubles in 8 bytes',
      () => refusal(PHYSICAL.DOUBLE, CODEC.UNCOMPRESSED, pageHeader(PAGE.DICTIONARY, 8, 8, 2 ** 29), new Uint8Array(8)),
    ],
    [
      'a dictionary of 2^29 strings in 8 bytes',
      () =>
        refusal(PHYSICAL.BYTE_ARRAY, CODEC.UNCOMPRESSED, pageHeader(PAGE.DICTIONARY, 8, 8, 2 ** 29), new Uint8Array(8)),
    ],
    [
      'an LZ4_RAW page of 1 GiB from 2 bytes',
      () => refusal(PHYSICAL.DOUBLE, CODEC.LZ4_RAW, pageHeader(PAGE.DATA, huge, 2, 1), [0x10, 0]),
    ],
    [
      'a SNAPPY page of 1 GiB from 6 bytes (the block says so too)',
      () => {
        const body: number[] = [];
        varint(body, huge);
        body.push(0, 0);
        return refusal(PHYSICAL.DOUBLE, CODEC.SNAPPY, pageHeader(PAGE.DATA, huge, body.length, 1), body);
      },
    ],
    [
      'a GZIP page declaring 8 bytes that inflates to 64 MiB',
      () => {
        const bomb = zlib.gzipSync(new Uint8Array(64 * 2 ** 20), { level: 9 });
        return refusal(PHYSICAL.DOUBLE, CODEC.GZIP, pageHeader(PAGE.DATA, 8, bomb.length, 1), bomb);
      },
    ],
    [
      'a GZIP page of one double declaring 64 MiB, which it truly inflates to',
      () => {
        const size = 64 * 2 ** 20;
        const bomb = zlib.gzipSync(new Uint8Array(size), { level: 9 });
        return refusal(PHYSICAL.DOUBLE, CODEC.GZIP, pageHeader(PAGE.DATA, size, bomb.length, 1), bomb);
      },
    ],
    [
      'a GZIP page of one string declaring 64 MiB, which it truly inflates to',
      () => {
        const size = 64 * 2 ** 20;
        const bomb = zlib.gzipSync(new Uint8Array(size), { level: 9 });
        return refusal(PHYSICAL.BYTE_ARRAY, CODEC.GZIP, pageHeader(PAGE.DATA, size, bomb.length, 1), bomb);
      },
    ],
    [
      'a BROTLI page of one string declaring 64 MiB, which it truly inflates to',
      () => {
        const size = 64 * 2 ** 20;
        const bomb = zlib.brotliCompressSync(new Uint8Array(size), {
          params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 },
        });
        return refusal(PHYSICAL.BYTE_ARRAY, CODEC.BROTLI, pageHeader(PAGE.DATA, size, bomb.length, 1), bomb);
      },
    ],
    [
      'a ZSTD page of 100 strings, 1 GiB from 10 bytes',
      () => {
        const frame = [0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x50, 0x0b, 0, 0, 0]; // one RLE block of one byte
        return refusal(PHYSICAL.BYTE_ARRAY, CODEC.ZSTD, pageHeader(PAGE.DATA, huge, frame.length, 100), frame);
      },
    ],
    [
      'a deprecated-LZ4 page of 100 strings, 1 GiB from 2 bytes',
      () => refusal(PHYSICAL.BYTE_ARRAY, CODEC.LZ4, pageHeader(PAGE.DATA, huge, 2, 100), [0x10, 0]),
    ],
  ];
  for (const [what, run] of cases)
    it(`${what}: refused as damaged, without taking the memory it claims`, () => {
      const { error, grownMiB } = run();
      expect(error, what).toBeInstanceOf(ParquetCorrupt);
      expect(grownMiB, what).toBeLessThan(32);
    });
});
