/**
 * DuckDB result vectors read in bulk: typed-array views of a chunk's column memory and its validity
 * mask (through `@duckdb/node-bindings`, the C API under `@duckdb/node-api`), so a column arrives
 * with one copy per chunk instead of one call (and one BigInt validity test) per value.
 */

import duckdb from '@duckdb/node-bindings';
import type { NumberSink, TextSink } from '../data/typed-fields.js';

/** Bytes per value of the integer column types {@link readIndexes} reads. */
export type IndexWidth = 1 | 2 | 4;

/** The raw vector of column `c` of a chunk. */
const vectorOf = (chunk: duckdb.DataChunk, c: number): duckdb.Vector => duckdb.data_chunk_get_vector(chunk, c);

/** The chunk's validity bits for a vector (bit `i & 7` of byte `i >> 3`), or null when every value is valid. */
function validityOf(vector: duckdb.Vector, n: number): Uint8Array | null {
  return duckdb.vector_get_validity(vector, Math.ceil(n / 64) * 8) ?? null;
}

/**
 * Column `c` (DOUBLE) of a chunk of `n` rows into rows `at…` of a sink: one copy, then the null
 * rows. The copy must happen before the next chunk is fetched: the view points into DuckDB's memory.
 */
export function readDoubles(
  chunk: duckdb.DataChunk,
  c: number,
  n: number,
  sink: Pick<NumberSink, 'set' | 'setMany'>,
  at: number,
): void {
  const vector = vectorOf(chunk, c);
  const bytes = duckdb.vector_get_data(vector, n * 8);
  // A DOUBLE vector's data is 8-byte aligned; copy the bytes out first should it ever not be.
  sink.setMany(
    at,
    bytes.byteOffset % 8 === 0
      ? new Float64Array(bytes.buffer, bytes.byteOffset, n)
      : new Float64Array(bytes.slice().buffer, 0, n),
  );
  const valid = validityOf(vector, n);
  if (valid) forEachNull(valid, n, (i) => sink.set(at + i, null));
}

/**
 * Column `c` of a chunk of `n` rows holding unsigned integers of `width` bytes (an ENUM's indexes, a
 * BOOLEAN's 0/1) into `out[0…n-1]`, -1 at the null rows.
 */
export function readIndexes(chunk: duckdb.DataChunk, c: number, n: number, width: IndexWidth, out: Int32Array): void {
  const vector = vectorOf(chunk, c);
  const bytes = duckdb.vector_get_data(vector, n * width);
  const aligned = bytes.byteOffset % width === 0;
  const source = aligned ? bytes : bytes.slice();
  const offset = aligned ? bytes.byteOffset : 0;
  const view =
    width === 1
      ? source
      : width === 2
        ? new Uint16Array(source.buffer, offset, n)
        : new Uint32Array(source.buffer, offset, n);
  for (let i = 0; i < n; i++) out[i] = view[i];
  const valid = validityOf(vector, n);
  if (valid) forEachNull(valid, n, (i) => (out[i] = -1));
}

const utf8 = new TextDecoder();

/**
 * Column `c` (VARCHAR) of a chunk of `n` rows into rows `at…` of a text sink, value by value. A
 * DuckDB string is 16 bytes: its length, then the bytes themselves when at most 12, else a prefix
 * and a pointer to them.
 */
export function readTexts(chunk: duckdb.DataChunk, c: number, n: number, sink: TextSink, at: number): void {
  const vector = vectorOf(chunk, c);
  const bytes = duckdb.vector_get_data(vector, n * 16);
  const view = new DataView(bytes.buffer, bytes.byteOffset, n * 16);
  const valid = validityOf(vector, n);
  for (let i = 0; i < n; i++) {
    if (valid && (valid[i >> 3] & (1 << (i & 7))) === 0) {
      sink.set(at + i, null);
      continue;
    }
    const length = view.getUint32(i * 16, true);
    const text =
      length <= 12
        ? new Uint8Array(bytes.buffer, bytes.byteOffset + i * 16 + 4, length)
        : duckdb.get_data_from_pointer(bytes.buffer as ArrayBuffer, bytes.byteOffset + i * 16 + 8, length);
    sink.set(at + i, utf8.decode(text));
  }
}

/** The first value of column `c` (BIGINT) of a chunk, e.g. a `count(*)`. */
export function readBigInt(chunk: duckdb.DataChunk, c: number): bigint {
  const bytes = duckdb.vector_get_data(vectorOf(chunk, c), 8);
  return new DataView(bytes.buffer, bytes.byteOffset, 8).getBigInt64(0, true);
}

/** Call `f(i)` for each row `i < n` whose validity bit is clear; whole bytes of valid rows are skipped. */
function forEachNull(valid: Uint8Array, n: number, f: (i: number) => void): void {
  const bytes = Math.ceil(n / 8);
  for (let b = 0; b < bytes; b++) {
    const bits = valid[b];
    if (bits === 0xff) continue;
    const end = Math.min(8, n - b * 8);
    for (let k = 0; k < end; k++) if ((bits & (1 << k)) === 0) f(b * 8 + k);
  }
}

/** DuckDB's BOOLEAN values in one byte each (the C API's `sizeof(bool)`); else booleans take the slow path. */
export const BOOLEAN_BYTES: number = duckdb.sizeof_bool;
