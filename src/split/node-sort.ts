/**
 * Sorting a node's values with their sample ids alongside, for the per-node sorting grower
 * (src/learn/grow-node-sort.ts), as scikit-learn's BestSplitter sorts each drawn feature at each
 * node: small typed-array kernels, no comparator calls, no allocation per call.
 */

/** Ranges this short are insertion-sorted. */
const SMALL = 16;
/** Pending ranges of `sortWithIds` (the smaller part is pushed, so 2 · log2(n) pairs suffice). */
const pending = new Int32Array(128);

/**
 * Sort `xs[lo, hi)` ascending (no NaN) and move `ids[lo, hi)` the same way: quicksort with a
 * median-of-3 pivot and a three-way partition (runs of equal values, common in data, end in one
 * pass), the smaller part first so the pending stack stays short, insertion sort under `SMALL`.
 * Equal values end in no particular order.
 */
export function sortWithIds(xs: Float64Array, ids: Int32Array, lo0: number, hi0: number): void {
  let sp = 0;
  pending[sp++] = lo0;
  pending[sp++] = hi0;
  while (sp > 0) {
    let hi = pending[--sp];
    let lo = pending[--sp];
    while (hi - lo > SMALL) {
      const pivot = median3(xs[lo], xs[(lo + hi) >>> 1], xs[hi - 1]);
      // [lo, l) < pivot, [l, i) = pivot, [r, hi) > pivot
      let i = lo;
      let l = lo;
      let r = hi;
      while (i < r) {
        const x = xs[i];
        if (x < pivot) {
          const id = ids[i];
          xs[i] = xs[l];
          ids[i] = ids[l];
          xs[l] = x;
          ids[l] = id;
          i++;
          l++;
        } else if (x > pivot) {
          r--;
          const id = ids[i];
          xs[i] = xs[r];
          ids[i] = ids[r];
          xs[r] = x;
          ids[r] = id;
        } else i++;
      }
      if (l - lo < hi - r) {
        pending[sp++] = r;
        pending[sp++] = hi;
        hi = l;
      } else {
        pending[sp++] = lo;
        pending[sp++] = l;
        lo = r;
      }
    }
    insertionWithIds(xs, ids, lo, hi);
  }
}

function median3(a: number, b: number, c: number): number {
  if (a < b) {
    if (b < c) return b;
    return a < c ? c : a;
  }
  if (a < c) return a;
  return b < c ? c : b;
}

function insertionWithIds(xs: Float64Array, ids: Int32Array, lo: number, hi: number): void {
  for (let i = lo + 1; i < hi; i++) {
    const x = xs[i];
    if (xs[i - 1] <= x) continue;
    const id = ids[i];
    let j = i - 1;
    while (j >= lo && xs[j] > x) {
      xs[j + 1] = xs[j];
      ids[j + 1] = ids[j];
      j--;
    }
    xs[j + 1] = x;
    ids[j + 1] = id;
  }
}

/**
 * Counting sort of `xs[lo, hi)`, integers in [min, min + span), with `ids` alongside; `count`
 * has at least span + 1 entries, `tmp` at least hi − lo. Linear where a node's values are a few
 * distinct integers (codes, counts, small scales).
 */
export function countSortWithIds(
  xs: Float64Array,
  ids: Int32Array,
  lo: number,
  hi: number,
  min: number,
  span: number,
  count: Int32Array,
  tmp: Int32Array,
): void {
  count.fill(0, 0, span + 1);
  for (let p = lo; p < hi; p++) count[xs[p] - min + 1]++;
  for (let v = 1; v <= span; v++) count[v] += count[v - 1];
  for (let p = lo; p < hi; p++) tmp[count[xs[p] - min]++] = ids[p];
  let p = lo;
  for (let v = 0; v < span; v++) {
    const to = lo + count[v];
    const x = min + v;
    for (; p < to; p++) xs[p] = x;
  }
  const n = hi - lo;
  for (let q = 0; q < n; q++) ids[lo + q] = tmp[q];
}

/**
 * Least-significant-digit radix sort of `xs[lo, hi)`, integers in [min, min + span), with `ids`
 * alongside, 8 bits a pass (two passes up to 65,536 values); the scratch arrays hold at least
 * hi − lo entries, `count` 256. Linear where comparison sorts pay log2(n) per row.
 */
export function radixSortWithIds(
  xs: Float64Array,
  ids: Int32Array,
  lo: number,
  hi: number,
  min: number,
  span: number,
  work: RadixWork,
): void {
  const n = hi - lo;
  let keys = work.keys;
  let keysTo = work.keysTo;
  let rows = work.rows;
  let rowsTo = work.rowsTo;
  const count = work.count;
  for (let q = 0; q < n; q++) {
    keys[q] = xs[lo + q] - min;
    rows[q] = ids[lo + q];
  }
  const bits = 32 - Math.clz32(span - 1);
  for (let shift = 0; shift < bits; shift += 8) {
    count.fill(0);
    for (let q = 0; q < n; q++) count[(keys[q] >>> shift) & 255]++;
    let sum = 0;
    for (let d = 0; d < 256; d++) {
      const c = count[d];
      count[d] = sum;
      sum += c;
    }
    for (let q = 0; q < n; q++) {
      const key = keys[q];
      const at = count[(key >>> shift) & 255]++;
      keysTo[at] = key;
      rowsTo[at] = rows[q];
    }
    const k = keys;
    keys = keysTo;
    keysTo = k;
    const r = rows;
    rows = rowsTo;
    rowsTo = r;
  }
  for (let q = 0; q < n; q++) {
    xs[lo + q] = keys[q] + min;
    ids[lo + q] = rows[q];
  }
}

/** Scratch of `radixSortWithIds` for ranges of up to `n` entries. */
export class RadixWork {
  readonly keys: Int32Array;
  readonly keysTo: Int32Array;
  readonly rows: Int32Array;
  readonly rowsTo: Int32Array;
  readonly count = new Int32Array(256);

  constructor(n: number) {
    this.keys = new Int32Array(n);
    this.keysTo = new Int32Array(n);
    this.rows = new Int32Array(n);
    this.rowsTo = new Int32Array(n);
  }
}
