/**
 * Snappy decompression (the raw block format Parquet uses), its copies in copy.ts. Every length and
 * offset is checked, so damaged input is a {@link ParquetCorrupt}.
 *
 * PURE: no Node imports.
 */

import { copyLiteral, copyMatch } from './copy.js';
import { check } from './errors.js';
import { uint32le, varint } from './varint.js';

/** The uncompressed length a Snappy block declares (its leading varint). */
export function snappyLength(input: Uint8Array): number {
  return varint(input, 0, Math.min(5, input.length)).value;
}

/** Decompress the Snappy block `input` into `out[0…]`, which must hold exactly the declared length. */
export function snappyDecompress(input: Uint8Array, out: Uint8Array): void {
  const inEnd = input.length;
  let { value: length, next: pos } = varint(input, 0, Math.min(5, inEnd));
  check(length <= out.length, 'snappy: output larger than declared');
  let o = 0;
  while (pos < inEnd) {
    const tag = input[pos++];
    const kind = tag & 3;
    if (kind === 0) {
      // Literal: length - 1 in the tag's top 6 bits, or in the 1–4 bytes after it.
      let n = tag >> 2;
      if (n >= 60) {
        const bytes = n - 59;
        check(pos + bytes <= inEnd, 'snappy: cut short');
        n = input[pos];
        if (bytes > 1) n |= input[pos + 1] << 8;
        if (bytes > 2) n |= input[pos + 2] << 16;
        if (bytes > 3) n += input[pos + 3] * 0x1000000;
        pos += bytes;
      }
      n += 1;
      check(pos + n <= inEnd && o + n <= length, 'snappy: literal past the end');
      copyLiteral(input, pos, out, o, n);
      pos += n;
      o += n;
      continue;
    }
    let n: number;
    let offset: number;
    if (kind === 1) {
      check(pos < inEnd, 'snappy: cut short');
      n = ((tag >> 2) & 7) + 4;
      offset = ((tag >> 5) << 8) | input[pos++];
    } else if (kind === 2) {
      check(pos + 2 <= inEnd, 'snappy: cut short');
      n = (tag >> 2) + 1;
      offset = input[pos] | (input[pos + 1] << 8);
      pos += 2;
    } else {
      check(pos + 4 <= inEnd, 'snappy: cut short');
      n = (tag >> 2) + 1;
      offset = uint32le(input, pos);
      pos += 4;
    }
    check(offset > 0 && offset <= o && o + n <= length, 'snappy: bad back-reference');
    copyMatch(out, o, offset, n);
    o += n;
  }
  check(o === length, 'snappy: output shorter than declared');
}
