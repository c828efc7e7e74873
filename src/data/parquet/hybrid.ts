/**
 * Parquet's RLE / bit-packed hybrid encoding (definition levels, dictionary indexes, RLE booleans):
 * runs of one repeated value, and groups of 8 values packed `width` bits each, least significant
 * bit first.
 *
 * PURE: no Node imports.
 */

import { check } from './errors.js';
import { varint } from './varint.js';

/** Decode `count` values of `width` bits (0–32) from `bytes[start…end)` into `out[0…count)`. */
export function decodeHybrid(
  bytes: Uint8Array,
  start: number,
  end: number,
  width: number,
  count: number,
  out: Int32Array | Uint8Array,
): void {
  check(width >= 0 && width <= 32, `bad bit width ${width}`);
  const valueBytes = (width + 7) >> 3;
  let pos = start;
  let k = 0;
  while (k < count) {
    const { value: header, next } = varint(bytes, pos, end);
    pos = next;
    if ((header & 1) === 0) {
      // A run of one value, stored in whole bytes.
      const n = Math.min(Math.floor(header / 2), count - k);
      check(pos + valueBytes <= end, 'levels or indexes cut short');
      let v = 0;
      for (let b = 0; b < valueBytes; b++) v += bytes[pos + b] * 2 ** (8 * b);
      pos += valueBytes;
      check(width === 32 || v < 2 ** width, 'levels or indexes: run value wider than its bit width');
      out.fill(v, k, k + n);
      k += n;
      continue;
    }
    const groups = Math.floor(header / 2);
    const n = Math.min(groups * 8, count - k);
    const used = Math.ceil((n * width) / 8);
    check(pos + used <= end, 'levels or indexes cut short');
    unpack(bytes, pos, width, n, out, k);
    pos += Math.min(groups * width, end - pos); // the last group may be stored short
    k += n;
  }
}

/** `n` values of `width` bits (0–32) from `bytes[at…]` into `out[k…]`, least significant bit first. */
export function unpack(
  bytes: Uint8Array,
  at: number,
  width: number,
  n: number,
  out: Int32Array | Uint8Array | Float64Array,
  k: number,
): void {
  if (width === 0) {
    out.fill(0, k, k + n);
    return;
  }
  if (width <= 24) {
    const mask = (1 << width) - 1;
    let buffer = 0;
    let bits = 0;
    let p = at;
    for (let i = 0; i < n; i++) {
      while (bits < width) {
        buffer |= bytes[p++] << bits;
        bits += 8;
      }
      out[k + i] = buffer & mask;
      buffer >>>= width;
      bits -= width;
    }
    return;
  }
  // Wide values: bit by bit (rare: dictionaries of more than 16M entries, wide deltas).
  for (let i = 0; i < n; i++) {
    let v = 0;
    const first = i * width;
    for (let b = 0; b < width; b++) {
      const bit = first + b;
      if ((bytes[at + (bit >> 3)] >> (bit & 7)) & 1) v += 2 ** b;
    }
    out[k + i] = v;
  }
}

/** Whether a hybrid stream starts with one run of `value` covering `count` values (all present, say). */
export function isSingleRun(bytes: Uint8Array, start: number, end: number, count: number, value: number): boolean {
  if (start >= end) return false;
  const { value: header, next } = varint(bytes, start, end);
  return (header & 1) === 0 && Math.floor(header / 2) >= count && next < end && bytes[next] === value;
}
