/** Makes the big typed arrays of a fit: plain ones, or views of SharedArrayBuffers for worker threads. */
export interface ArrayMaker {
  int32(n: number): Int32Array;
  float64(n: number): Float64Array;
  float32(n: number): Float32Array;
}

export const plainArrays: ArrayMaker = {
  int32: (n) => new Int32Array(n),
  float64: (n) => new Float64Array(n),
  float32: (n) => new Float32Array(n),
};

/** Typed arrays over SharedArrayBuffers, visible to every worker thread they are posted to. */
export const sharedArrays: ArrayMaker = {
  int32: (n) => new Int32Array(new SharedArrayBuffer(4 * n)),
  float64: (n) => new Float64Array(new SharedArrayBuffer(8 * n)),
  float32: (n) => new Float32Array(new SharedArrayBuffer(4 * n)),
};
