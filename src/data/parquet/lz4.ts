/**
 * LZ4 block decompression (Parquet's LZ4_RAW codec; the older Hadoop-framed LZ4 is left to
 * DuckDB), its copies in copy.ts. Every length and offset is checked, as in snappy.ts.
 *
 * PURE: no Node imports.
 */

import { copyLiteral, copyMatch } from './copy.js';
import { check } from './errors.js';

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
    copyLiteral(input, pos, out, o, literals);
    at.pos += literals;
    o += literals;
    if (at.pos === input.length) break; // the last sequence has literals only
    check(at.pos + 2 <= input.length, 'lz4: cut short');
    const offset = input[at.pos] | (input[at.pos + 1] << 8);
    at.pos += 2;
    const n = extended(input, at, token & 15) + 4;
    check(offset > 0 && offset <= o && o + n <= out.length, 'lz4: bad match');
    copyMatch(out, o, offset, n);
    o += n;
  }
  check(o === out.length, 'lz4: output shorter than declared');
}
