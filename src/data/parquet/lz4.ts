/**
 * LZ4 block decompression (Parquet's LZ4_RAW codec) and the deprecated LZ4 codec, which older
 * Hadoop and Arrow writers framed as Hadoop does and others (fastparquet) wrote as one raw block;
 * the copies in copy.ts. Every length and offset is checked, as in snappy.ts.
 *
 * PURE: no Node imports.
 */

import { copyLiteral, copyMatch } from './copy.js';
import { check, ParquetCorrupt } from './errors.js';

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

/** A 4-byte big-endian length (Hadoop's framing). */
const uint32be = (b: Uint8Array, at: number) =>
  ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;

/**
 * Hadoop's framing: blocks of a big-endian decompressed length, a big-endian compressed length and
 * an LZ4 block, filling `out` exactly. False (with `out` partly written) where the bytes are not so framed.
 */
function hadoopFramed(input: Uint8Array, out: Uint8Array): boolean {
  let pos = 0;
  let o = 0;
  while (pos + 8 <= input.length) {
    const size = uint32be(input, pos);
    const compressed = uint32be(input, pos + 4);
    pos += 8;
    if (compressed > input.length - pos || size > out.length - o) return false;
    try {
      lz4Decompress(input.subarray(pos, pos + compressed), out.subarray(o, o + size));
    } catch (err) {
      if (err instanceof ParquetCorrupt) return false;
      throw err;
    }
    pos += compressed;
    o += size;
  }
  return pos === input.length && o === out.length;
}

/**
 * The deprecated LZ4 codec into `out`: Hadoop's framing where the bytes parse as it, else one raw
 * LZ4 block, as the reference implementations read it.
 */
export function lz4LegacyDecompress(input: Uint8Array, out: Uint8Array): void {
  if (!hadoopFramed(input, out)) lz4Decompress(input, out);
}
