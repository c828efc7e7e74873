/**
 * DuckDB result vectors read in bulk: typed-array views of a chunk's column memory and its validity
 * mask (through `@duckdb/node-bindings`, the C API under `@duckdb/node-api`), so a column arrives
 * with one copy per chunk instead of one call (and one BigInt validity test) per value.
 */

import type { DuckDBDataChunk } from '@duckdb/node-api';
import duckdb from '@duckdb/node-bindings';
import type { NumberSink } from '../data/typed-columns.js';

/** Bytes per value of the integer column types {@link readIndexes} reads. */
export type IndexWidth = 1 | 2 | 4;

/** The raw vector of column `c` of a chunk. */
const vectorOf = (chunk: DuckDBDataChunk, c: number): duckdb.Vector => duckdb.data_chunk_get_vector(chunk.chunk, c);

/** The chunk's validity bits for a vector (bit `i & 7` of byte `i >> 3`), or null when every value is valid. */
function validityOf(vector: duckdb.Vector, n: number): Uint8Array | null {
  return duckdb.vector_get_validity(vector, Math.ceil(n / 64) * 8) ?? null;
}

/**
 * Column `c` (DOUBLE) of a chunk of `n` rows into rows `at…` of a sink: one copy, then the null
 * rows. The copy must happen before the next chunk is fetched: the view points into DuckDB's memory.
 */
export function readDoubles(chunk: DuckDBDataChunk, c: number, n: number, sink: NumberSink, at: number): void {
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
export function readIndexes(chunk: DuckDBDataChunk, c: number, n: number, width: IndexWidth, out: Int32Array): void {
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
