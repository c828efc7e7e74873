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
import type { Scratch } from './scratch.js';

/** Bytes per value of the fixed-width physical types read as numbers. */
export function numberWidth(physical: number): number {
  return physical === PHYSICAL.INT32 || physical === PHYSICAL.FLOAT ? 4 : 8;
}

/** `bytes` at an offset a typed array of `width`-byte elements can view: itself, or a copy. */
function aligned(bytes: Uint8Array, width: number, scratch: Scratch): Uint8Array {
  if (bytes.byteOffset % width === 0) return bytes;
  const copy = scratch.bytes('aligned', bytes.length);
  copy.set(bytes);
  return copy;
}

/**
 * `n` PLAIN numbers of type `physical` (INT32, INT64, FLOAT, DOUBLE; `unsigned` integers) from the
 * start of `bytes` into `out[0…n)`.
 */
export function plainNumbers(
  bytes: Uint8Array,
  n: number,
  physical: number,
  unsigned: boolean,
  out: Float64Array,
  scratch: Scratch,
): void {
  const width = numberWidth(physical);
  check(bytes.length >= n * width, 'values cut short');
  const b = aligned(bytes.subarray(0, n * width), width, scratch);
  const { buffer, byteOffset } = b;
  if (physical === PHYSICAL.DOUBLE) out.set(new Float64Array(buffer, byteOffset, n));
  else if (physical === PHYSICAL.FLOAT) out.set(new Float32Array(buffer, byteOffset, n));
  else if (physical === PHYSICAL.INT32)
    out.set(unsigned ? new Uint32Array(buffer, byteOffset, n) : new Int32Array(buffer, byteOffset, n));
  else {
    // hi · 2^32 is exact and the one addition rounds to nearest, as Number(bigint) and C's cast do.
    const words = new Int32Array(buffer, byteOffset, 2 * n);
    if (unsigned) for (let i = 0; i < n; i++) out[i] = (words[2 * i + 1] >>> 0) * 4294967296 + (words[2 * i] >>> 0);
    else for (let i = 0; i < n; i++) out[i] = words[2 * i + 1] * 4294967296 + (words[2 * i] >>> 0);
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** `n` PLAIN byte arrays (4-byte length, then the bytes) from `bytes`, decoded as UTF-8. */
export function plainTexts(bytes: Uint8Array, n: number): string[] {
  const out: string[] = new Array(n);
  let pos = 0;
  for (let k = 0; k < n; k++) {
    check(pos + 4 <= bytes.length, 'strings cut short');
    const length = (bytes[pos] | (bytes[pos + 1] << 8) | (bytes[pos + 2] << 16)) + bytes[pos + 3] * 0x1000000;
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
