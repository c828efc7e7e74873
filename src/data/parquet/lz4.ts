/**
 * LZ4 block decompression (Parquet's LZ4_RAW codec; the older Hadoop-framed LZ4 is left to
 * DuckDB). As in snappy.ts, long literal runs and non-overlapping matches use the typed-array
 * built-ins, and every length and offset is checked.
 *
 * PURE: no Node imports.
 */

import { check } from './errors.js';

/** Below this many bytes a byte loop beats the built-in copies' call cost. */
const SHORT = 16;

/** A length continued in bytes of 255 after a nibble of 15. */
function extended(input: Uint8Array, at: { pos: number }, length: number): number {
  if (length !== 15) return length;
  for (;;) {
    check(at.pos < input.length, 'lz4: cut short');
    const b = input[at.pos++];
    length += b;
    if (b !== 255) return length;
  }
}

/** Decompress the LZ4 block `input` into `out`, which must come out exactly full. */
export function lz4Decompress(input: Uint8Array, out: Uint8Array): void {
  const at = { pos: 0 };
  let o = 0;
  while (at.pos < input.length) {
    const token = input[at.pos++];
    const literals = extended(input, at, token >> 4);
    const { pos } = at;
    check(pos + literals <= input.length && o + literals <= out.length, 'lz4: literal past the end');
    if (literals < SHORT) for (let k = 0; k < literals; k++) out[o + k] = input[pos + k];
    else out.set(input.subarray(pos, pos + literals), o);
    at.pos += literals;
    o += literals;
    if (at.pos === input.length) break; // the last sequence has literals only
    check(at.pos + 2 <= input.length, 'lz4: cut short');
    const offset = input[at.pos] | (input[at.pos + 1] << 8);
    at.pos += 2;
    const n = extended(input, at, token & 15) + 4;
    check(offset > 0 && offset <= o && o + n <= out.length, 'lz4: bad match');
    const from = o - offset;
    if (offset >= n && n >= SHORT) out.copyWithin(o, from, from + n);
    else for (let k = 0; k < n; k++) out[o + k] = out[from + k];
    o += n;
  }
  check(o === out.length, 'lz4: output shorter than declared');
}
