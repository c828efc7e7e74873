/** Makes the big typed arrays of a fit: plain ones, or views of SharedArrayBuffers for worker threads. */
export interface ArrayMaker {
  int32(n: number): Int32Array;
  float64(n: number): Float64Array;
  float32(n: number): Float32Array;
  uint8(n: number): Uint8Array;
  uint16(n: number): Uint16Array;
}

export const plainArrays: ArrayMaker = {
  int32: (n) => new Int32Array(n),
  float64: (n) => new Float64Array(n),
  float32: (n) => new Float32Array(n),
  uint8: (n) => new Uint8Array(n),
  uint16: (n) => new Uint16Array(n),
};

/** Typed arrays over SharedArrayBuffers, visible to every worker thread they are posted to. */
export const sharedArrays: ArrayMaker = {
  int32: (n) => new Int32Array(new SharedArrayBuffer(4 * n)),
  float64: (n) => new Float64Array(new SharedArrayBuffer(8 * n)),
  float32: (n) => new Float32Array(new SharedArrayBuffer(4 * n)),
  uint8: (n) => new Uint8Array(new SharedArrayBuffer(n)),
  uint16: (n) => new Uint16Array(new SharedArrayBuffer(2 * n)),
};

/**
 * Shared arrays where SharedArrayBuffer exists (Node; cross-origin-isolated pages), else plain
 * ones: for the arrays a fit may hand to worker threads, which would otherwise copy them.
 */
export const shareableArrays: ArrayMaker = typeof SharedArrayBuffer === 'function' ? sharedArrays : plainArrays;

/** `a` when it holds `capacity` entries already, else a copy of it with room for `capacity`. */
export function grown<
  T extends Float64Array | Float32Array | Int32Array | Int16Array | Int8Array | Uint16Array | Uint8Array,
>(a: T, capacity: number): T {
  if (capacity <= a.length) return a;
  const b = new (a.constructor as new (n: number) => T)(capacity);
  b.set(a);
  return b;
}

/**
 * Whether typed arrays on this platform are little-endian (every platform grove runs on is; binary formats
 * check it).
 */
export const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
