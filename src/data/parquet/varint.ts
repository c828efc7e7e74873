/**
 * Unsigned LEB128 varints, as Thrift's compact protocol, the hybrid and delta encodings and Snappy
 * write lengths and integers; and the fixed 4-byte little-endian lengths of pages, strings and the
 * footer.
 *
 * PURE: no Node imports.
 */

import { check } from './errors.js';

/** The varint at `bytes[at]` (before `end`; exact up to 2^53) and the position after it. */
export function varint(bytes: Uint8Array, at: number, end: number): { value: number; next: number } {
  let value = 0;
  let scale = 1;
  for (let k = 0; k < 10; k++) {
    check(at < end, 'cut short inside a varint');
    const b = bytes[at++];
    value += (b & 0x7f) * scale;
    if (b < 0x80) return { value, next: at };
    scale *= 128;
  }
  check(false, 'varint longer than 10 bytes');
}

/** The varint at `bytes[at]` as a BigInt (all 64 bits) and the position after it. */
export function bigVarint(bytes: Uint8Array, at: number, end: number): { value: bigint; next: number } {
  let value = 0n;
  let shift = 0n;
  for (let k = 0; k < 10; k++) {
    check(at < end, 'cut short inside a varint');
    const b = bytes[at++];
    value |= BigInt(b & 0x7f) << shift;
    if (b < 0x80) return { value, next: at };
    shift += 7n;
  }
  check(false, 'varint longer than 10 bytes');
}

/** The unsigned 32-bit little-endian integer at `bytes[at…at + 3]` (the caller checks the bounds). */
export function uint32le(bytes: Uint8Array, at: number): number {
  return (bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16)) + bytes[at + 3] * 0x1000000;
}
