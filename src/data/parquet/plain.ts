/**
 * PLAIN-encoded values (a page's or a dictionary's): numbers into a Float64Array as DuckDB casts
 * them to DOUBLE (integers exactly up to 2^53, then rounded to nearest), UTF-8 strings into texts,
 * booleans into 0/1 indexes. Parquet is little-endian, as are the typed arrays of every platform
 * the decoder runs on (checked once by the reader).
 *
 * PURE: no Node imports.
 */

import { check, ParquetUnsupported } from './errors.js';
import { PHYSICAL } from './metadata.js';
import type { ParquetColumn } from './schema.js';
import type { Scratch } from './scratch.js';
import { uint32le } from './varint.js';

/** Bytes per value of a column read as numbers. */
export function numberWidth(column: ParquetColumn): number {
  const p = column.physical;
  return p === PHYSICAL.FIXED_LEN_BYTE_ARRAY ? column.typeLength : p === PHYSICAL.INT32 || p === PHYSICAL.FLOAT ? 4 : 8;
}

/** 10^0 … 10^18, exact doubles (DuckDB's table of powers of ten). */
export const POWERS_OF_TEN = [
  1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
];

/**
 * A DECIMAL's unscaled integer as DuckDB casts it to DOUBLE: divided by 10^scale when it converts
 * exactly (at most 2^53), else its integer and fractional parts converted on their own and added.
 * `approx` is the integer rounded to a double; `exact` gives it whole when `approx` is not exact.
 */
export function decimalValue(approx: number, exact: () => bigint, scale: number): number {
  if (scale === 0 || Math.abs(approx) < 2 ** 53) return approx / POWERS_OF_TEN[scale];
  const v = exact();
  const power = 10n ** BigInt(scale);
  return Number(v / power) + Number(v % power) / POWERS_OF_TEN[scale];
}

/** `bytes` at an offset a typed array of `width`-byte elements can view: itself, or a copy. */
function aligned(bytes: Uint8Array, width: number, scratch: Scratch): Uint8Array {
  if (bytes.byteOffset % width === 0) return bytes;
  const copy = scratch.bytes('aligned', bytes.length);
  copy.set(bytes);
  return copy;
}

/** `n` big-endian two's complement integers of `width` bytes (at most 8), decimals of `scale`, into `out`. */
function fixedDecimals(bytes: Uint8Array, n: number, width: number, scale: number, out: Float64Array): void {
  for (let i = 0; i < n; i++) {
    const at = i * width;
    let v = (bytes[at] << 24) >> 24; // the sign from the first byte
    for (let b = 1; b < width; b++) v = v * 256 + bytes[at + b];
    out[i] = decimalValue(
      v,
      () => {
        let big = 0n;
        for (let b = 0; b < width; b++) big = (big << 8n) | BigInt(bytes[at + b]);
        return BigInt.asIntN(width * 8, big);
      },
      scale,
    );
  }
}

/** `n` little-endian IEEE halves (FLOAT16) into `out`, exactly. */
function halves(bytes: Uint8Array, n: number, out: Float64Array): void {
  for (let i = 0; i < n; i++) {
    const h = bytes[2 * i] | (bytes[2 * i + 1] << 8);
    const sign = h & 0x8000 ? -1 : 1;
    const exponent = (h >> 10) & 0x1f;
    const fraction = h & 0x3ff;
    out[i] =
      exponent === 0
        ? sign * fraction * 2 ** -24 // zero and subnormals
        : exponent === 31
          ? fraction
            ? NaN
            : sign * Number.POSITIVE_INFINITY
          : sign * (1024 + fraction) * 2 ** (exponent - 25);
  }
}

/**
 * `n` PLAIN numbers of the column's type (INT32, INT64, FLOAT, DOUBLE, a DECIMAL's fixed-length
 * bytes, a FLOAT16's two; unsigned integers, decimals) from the start of `bytes` into `out[0…n)`.
 */
export function plainNumbers(
  bytes: Uint8Array,
  n: number,
  column: ParquetColumn,
  out: Float64Array,
  scratch: Scratch,
): void {
  const { physical, unsigned, scale } = column;
  const width = numberWidth(column);
  check(bytes.length >= n * width, 'values cut short');
  if (physical === PHYSICAL.FIXED_LEN_BYTE_ARRAY) {
    if (column.float16) halves(bytes, n, out);
    else fixedDecimals(bytes, n, width, scale ?? 0, out);
    return;
  }
  const b = aligned(bytes.subarray(0, n * width), width, scratch);
  const { buffer, byteOffset } = b;
  if (physical === PHYSICAL.DOUBLE) out.set(new Float64Array(buffer, byteOffset, n));
  else if (physical === PHYSICAL.FLOAT) out.set(new Float32Array(buffer, byteOffset, n));
  else if (physical === PHYSICAL.INT32) {
    out.set(unsigned ? new Uint32Array(buffer, byteOffset, n) : new Int32Array(buffer, byteOffset, n));
    if (scale) for (let i = 0; i < n; i++) out[i] /= POWERS_OF_TEN[scale];
  } else {
    // hi · 2^32 is exact and the one addition rounds to nearest, as Number(bigint) and C's cast do.
    const words = new Int32Array(buffer, byteOffset, 2 * n);
    if (unsigned) for (let i = 0; i < n; i++) out[i] = (words[2 * i + 1] >>> 0) * 4294967296 + (words[2 * i] >>> 0);
    else for (let i = 0; i < n; i++) out[i] = words[2 * i + 1] * 4294967296 + (words[2 * i] >>> 0);
    if (scale) {
      const exact = (i: number) => () => (BigInt(words[2 * i + 1]) << 32n) | BigInt(words[2 * i] >>> 0);
      for (let i = 0; i < n; i++) out[i] = decimalValue(out[i], exact(i), scale);
    }
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** `n` PLAIN byte arrays (4-byte length, then the bytes) from `bytes`, decoded as UTF-8. */
export function plainTexts(bytes: Uint8Array, n: number): string[] {
  check(n <= bytes.length / 4, 'strings cut short'); // each takes at least its 4-byte length
  const out: string[] = new Array(n);
  let pos = 0;
  for (let k = 0; k < n; k++) {
    check(pos + 4 <= bytes.length, 'strings cut short');
    const length = uint32le(bytes, pos);
    pos += 4;
    check(length <= bytes.length - pos, 'strings cut short');
    out[k] = text(bytes.subarray(pos, pos + length));
    pos += length;
  }
  return out;
}

/** Bytes as UTF-8; invalid UTF-8 is left to the other reader, which decides what it means. */
export function text(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new ParquetUnsupported('a string that is not valid UTF-8');
  }
}

/** `n` PLAIN booleans (bits, least significant first) from `bytes` into `out[0…n)` as 0/1. */
export function plainBooleans(bytes: Uint8Array, n: number, out: Int32Array): void {
  check(bytes.length >= Math.ceil(n / 8), 'booleans cut short');
  for (let i = 0; i < n; i++) out[i] = (bytes[i >> 3] >> (i & 7)) & 1;
}
