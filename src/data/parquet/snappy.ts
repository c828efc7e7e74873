/**
 * Snappy decompression (the raw block format Parquet uses). Long literal runs and non-overlapping
 * back-references are copied with the typed-array built-ins; only short or overlapping copies go
 * byte by byte. Every length and offset is checked, so damaged input is a {@link ParquetCorrupt}.
 *
 * PURE: no Node imports.
 */

import { check, ParquetCorrupt } from './errors.js';

/** Below this many bytes a byte loop beats the built-in copies' call cost. */
const SHORT = 16;

/** The uncompressed length a Snappy block declares (its leading varint). */
export function snappyLength(input: Uint8Array): number {
  let result = 0;
  for (let k = 0, scale = 1; k < 5 && k < input.length; k++, scale *= 128) {
    const b = input[k];
    result += (b & 0x7f) * scale;
    if (b < 0x80) return result;
  }
  throw new ParquetCorrupt('snappy: bad length');
}

/**
 * Decompress the Snappy block `input` into `out[0…]`, which must hold exactly the declared length;
 * returns that length.
 */
export function snappyDecompress(input: Uint8Array, out: Uint8Array): number {
  const inEnd = input.length;
  let pos = 0;
  let length = 0;
  for (let scale = 1; ; scale *= 128) {
    check(pos < inEnd && pos < 5, 'snappy: bad length');
    const b = input[pos++];
    length += (b & 0x7f) * scale;
    if (b < 0x80) break;
  }
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
      if (n < SHORT) for (let k = 0; k < n; k++) out[o + k] = input[pos + k];
      else out.set(input.subarray(pos, pos + n), o);
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
      offset = (input[pos] | (input[pos + 1] << 8) | (input[pos + 2] << 16)) + input[pos + 3] * 0x1000000;
      pos += 4;
    }
    check(offset > 0 && offset <= o && o + n <= length, 'snappy: bad back-reference');
    const from = o - offset;
    if (offset >= n && n >= SHORT) out.copyWithin(o, from, from + n);
    else for (let k = 0; k < n; k++) out[o + k] = out[from + k];
    o += n;
  }
  check(o === length, 'snappy: output shorter than declared');
  return length;
}
