/**
 * Class histograms of one layout (HistGrower's: per feature and code, `k` class weights then the
 * row count, `stride` = k + 1 numbers), kept for reuse: a big tree makes one per internal node, and
 * left to the garbage collector they would pile up before a collection. Shared by the in-memory
 * histogram grower and the in-database one.
 */
export class HistogramPool {
  private readonly free: Float64Array[] = [];

  /** `size`: the numbers of one histogram. */
  constructor(readonly size: number) {}

  /** A zeroed histogram, reused when one is free. */
  take(): Float64Array {
    const h = this.free.pop();
    if (!h) return new Float64Array(this.size);
    h.fill(0);
    return h;
  }

  /** Give back a histogram no node holds any more (null: none). */
  give(h: Float64Array | null | undefined): void {
    if (h) this.free.push(h);
  }
}

/**
 * Sibling subtraction: `parent` becomes the histogram of its remaining child, the parent's minus
 * each of `siblings` (nulls skipped), in place — that child's rows are never read.
 */
export function subtractSiblings(parent: Float64Array, siblings: readonly (Float64Array | null)[]): void {
  const size = parent.length;
  for (const other of siblings) {
    if (!other) continue;
    for (let i = 0; i < size; i++) parent[i] -= other[i];
  }
}

/**
 * A histogram made by subtraction, with weighted rows: the class weights of a subtraction are off
 * by rounding (sums of the same rows in another order), so a class with no rows may hold ±1e-16.
 * `classRows` holds each cell's rows per class in the class slots (whole numbers, subtracted
 * exactly): a class weight is set to 0 where its class has no rows, and a weight below zero
 * (rows of weight 0) to 0, as the rows' own sum would be.
 */
export function exactZeros(hist: Float64Array, classRows: Float64Array, k: number): void {
  const stride = k + 1;
  for (let o = 0; o < hist.length; o += stride)
    for (let c = o; c < o + k; c++) if (classRows[c] === 0 || hist[c] < 0) hist[c] = 0;
}
