/**
 * The two copies of the LZ77-style codecs (Snappy, LZ4): a literal run from the input, and a
 * back-reference into the output already written. Long non-overlapping copies use the typed-array
 * built-ins; short or overlapping ones (a back-reference closer than its length repeats bytes) go
 * byte by byte. The callers check the bounds.
 *
 * PURE: no Node imports.
 */

/** Below this many bytes a byte loop beats the built-in copies' call cost. */
const SHORT = 16;

/** `input[pos…pos + n)` into `out[o…]`. */
export function copyLiteral(input: Uint8Array, pos: number, out: Uint8Array, o: number, n: number): void {
  if (n < SHORT) for (let k = 0; k < n; k++) out[o + k] = input[pos + k];
  else out.set(input.subarray(pos, pos + n), o);
}

/** `n` bytes from `offset` bytes back in `out` into `out[o…]`. */
export function copyMatch(out: Uint8Array, o: number, offset: number, n: number): void {
  const from = o - offset;
  if (offset >= n && n >= SHORT) out.copyWithin(o, from, from + n);
  else for (let k = 0; k < n; k++) out[o + k] = out[from + k];
}
