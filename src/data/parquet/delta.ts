/**
 * The encodings Parquet's v2 writers use (DuckDB's `PARQUET_VERSION V2`, parquet-mr's v2 writer):
 * DELTA_BINARY_PACKED integers, DELTA_LENGTH_BYTE_ARRAY strings, DELTA_BYTE_ARRAY strings and
 * fixed-length values, and BYTE_STREAM_SPLIT fixed-width values. Integers follow the format's
 * wrapping arithmetic (32 bits for INT32, 64 for INT64, the latter in BigInt).
 *
 * PURE: no Node imports.
 */

import { check } from './errors.js';
import { unpack } from './hybrid.js';
import { PHYSICAL } from './metadata.js';
import { decimalValue, POWERS_OF_TEN, text } from './plain.js';
import type { ParquetColumn } from './schema.js';
import type { Scratch } from './scratch.js';
import { bigVarint, varint } from './varint.js';

const bigZigzag = (v: bigint) => (v & 1n ? -(v >> 1n) - 1n : v >> 1n);

/**
 * `count` DELTA_BINARY_PACKED integers from `bytes[start…end)`, each passed to `put(k, value)`
 * (INT32: a number; INT64: a BigInt, wrapped to 64 bits); returns the position after them. The
 * stream may hold more values than are read, unless `whole` (then what follows starts at that
 * position, which is right only after the stream's last value).
 */
function deltaIntegers(
  bytes: Uint8Array,
  start: number,
  end: number,
  count: number,
  wide: boolean,
  scratch: Scratch,
  put: (k: number, value: number | bigint) => void,
  whole = false,
): number {
  let h = varint(bytes, start, end);
  const blockSize = h.value;
  h = varint(bytes, h.next, end);
  const miniblocks = h.value;
  h = varint(bytes, h.next, end);
  const total = h.value;
  check(miniblocks > 0 && blockSize % (miniblocks * 32) === 0 && blockSize > 0, 'bad delta block size');
  check(whole ? total === count : total >= count, 'delta stream and page disagree on the number of values');
  const perMiniblock = blockSize / miniblocks;
  const first = bigVarint(bytes, h.next, end);
  let pos = first.next;
  if (count === 0) return pos;
  let big = bigZigzag(first.value);
  let small = Number(BigInt.asIntN(32, big));
  put(0, wide ? BigInt.asIntN(64, big) : small);
  const deltas = scratch.rowValues(Math.min(perMiniblock, count));
  let k = 1;
  while (k < count) {
    const min = bigVarint(bytes, pos, end);
    pos = min.next;
    check(pos + miniblocks <= end, 'delta block cut short');
    const widths = pos;
    pos += miniblocks;
    const minDelta = bigZigzag(min.value);
    const minSmall = Number(BigInt.asIntN(32, minDelta));
    for (let m = 0; m < miniblocks && k < count; m++) {
      const width = bytes[widths + m];
      check(width <= 64, 'bad delta bit width');
      const n = Math.min(perMiniblock, count - k);
      check(pos + Math.ceil((n * width) / 8) <= end, 'delta values cut short');
      if (!wide && width <= 32) {
        // INT32 in numbers: every sum stays below 2^35, exact; `| 0` wraps to 32 bits.
        unpack(bytes, pos, width, n, deltas, 0);
        for (let i = 0; i < n; i++) {
          small = (small + minSmall + deltas[i]) | 0;
          put(k + i, small);
        }
        big = BigInt(small);
      } else {
        // INT64, or deltas wider than 32 bits (writers may compute INT32 deltas in 64 bits).
        if (width <= 32) unpack(bytes, pos, width, n, deltas, 0);
        for (let i = 0; i < n; i++) {
          const delta = width <= 32 ? BigInt(deltas[i]) : wideBits(bytes, pos, i * width, width);
          big = BigInt.asIntN(64, big + minDelta + delta);
          if (wide) put(k + i, big);
          else put(k + i, Number(BigInt.asIntN(32, big)));
        }
        small = Number(BigInt.asIntN(32, big));
      }
      pos += Math.min((perMiniblock * width) / 8, end - pos);
      k += n;
    }
  }
  return pos;
}

/** `width` bits at bit `first` of `bytes[at…]`, as a BigInt. */
function wideBits(bytes: Uint8Array, at: number, first: number, width: number): bigint {
  let v = 0n;
  for (let b = width - 1; b >= 0; b--) {
    const bit = first + b;
    v = (v << 1n) | BigInt((bytes[at + (bit >> 3)] >> (bit & 7)) & 1);
  }
  return v;
}

/**
 * `count` DELTA_BINARY_PACKED numbers of an INT32 or INT64 column (`unsigned`, or a DECIMAL) into
 * `out`, as DuckDB casts them to DOUBLE.
 */
export function deltaNumbers(
  bytes: Uint8Array,
  count: number,
  column: ParquetColumn,
  out: Float64Array,
  scratch: Scratch,
): void {
  const { unsigned, scale = 0 } = column;
  const wide = column.physical === PHYSICAL.INT64;
  deltaIntegers(bytes, 0, bytes.length, count, wide, scratch, (k, v) => {
    if (!wide) out[k] = (unsigned ? (v as number) >>> 0 : (v as number)) / POWERS_OF_TEN[scale];
    else {
      const big = unsigned ? BigInt.asUintN(64, v as bigint) : (v as bigint);
      out[k] = decimalValue(Number(big), () => big, scale);
    }
  });
}

/** `count` lengths (DELTA_BINARY_PACKED INT32), each checked ≥ 0; returns them and the position after. */
function lengths(
  bytes: Uint8Array,
  start: number,
  count: number,
  scratch: Scratch,
): { lengths: Int32Array; next: number } {
  const out = new Int32Array(count);
  const next = deltaIntegers(
    bytes,
    start,
    bytes.length,
    count,
    false,
    scratch,
    (k, v) => {
      check((v as number) >= 0, 'negative string length');
      out[k] = v as number;
    },
    true,
  );
  return { lengths: out, next };
}

/** `count` DELTA_LENGTH_BYTE_ARRAY byte strings, as UTF-8. */
export function deltaLengthTexts(bytes: Uint8Array, count: number, scratch: Scratch): string[] {
  const { lengths: ls, next } = lengths(bytes, 0, count, scratch);
  const out: string[] = new Array(count);
  let pos = next;
  for (let k = 0; k < count; k++) {
    check(ls[k] <= bytes.length - pos, 'strings cut short');
    out[k] = text(bytes.subarray(pos, pos + ls[k]));
    pos += ls[k];
  }
  return out;
}

/**
 * `count` DELTA_BYTE_ARRAY byte strings (a prefix of the previous one, then a suffix), each passed
 * to `put(k, value)` (the value's bytes are valid until the next call).
 */
function deltaByteArrays(
  bytes: Uint8Array,
  count: number,
  scratch: Scratch,
  put: (k: number, value: Uint8Array) => void,
): void {
  const prefixes = lengths(bytes, 0, count, scratch);
  const suffixes = lengths(bytes, prefixes.next, count, scratch);
  let previous = new Uint8Array(0);
  let pos = suffixes.next;
  for (let k = 0; k < count; k++) {
    const p = prefixes.lengths[k];
    const s = suffixes.lengths[k];
    check(p <= previous.length && s <= bytes.length - pos, 'strings cut short');
    const value = new Uint8Array(p + s);
    value.set(previous.subarray(0, p));
    value.set(bytes.subarray(pos, pos + s), p);
    pos += s;
    put(k, value);
    previous = value;
  }
}

/** `count` DELTA_BYTE_ARRAY byte strings, as UTF-8. */
export function deltaTexts(bytes: Uint8Array, count: number, scratch: Scratch): string[] {
  const out: string[] = new Array(count);
  deltaByteArrays(bytes, count, scratch, (k, value) => {
    out[k] = text(value);
  });
  return out;
}

/**
 * `count` DELTA_BYTE_ARRAY values of a FIXED_LEN_BYTE_ARRAY column, each `width` bytes, as PLAIN bytes in
 * scratch memory.
 */
export function deltaFixed(bytes: Uint8Array, count: number, width: number, scratch: Scratch): Uint8Array {
  const out = scratch.bytes('unsplit', count * width);
  deltaByteArrays(bytes, count, scratch, (k, value) => {
    check(value.length === width, 'fixed-length value of another length');
    out.set(value, k * width);
  });
  return out;
}

/**
 * `count` BYTE_STREAM_SPLIT values of `width` bytes (byte `b` of value `i` at `b · count + i`) put
 * back together, as PLAIN bytes in scratch memory.
 */
export function unsplit(bytes: Uint8Array, count: number, width: number, scratch: Scratch): Uint8Array {
  check(bytes.length >= count * width, 'values cut short');
  const out = scratch.bytes('unsplit', count * width);
  for (let b = 0; b < width; b++) {
    const stream = b * count;
    for (let i = 0; i < count; i++) out[i * width + b] = bytes[stream + i];
  }
  return out;
}
