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
 * alongside (stable: the same order as any stable sort). The digit width is chosen per call
 * (`radixPasses`): a 200,000-row node whose ranks need 18 bits takes two passes of 9 bits, a
 * small node with a wide span more passes of fewer buckets. One pass counts every digit; the first
 * scatter reads `xs` and `ids`, the last writes them back, so nothing is copied in or out. Linear
 * where comparison sorts pay log2(n) per row.
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
  const bits = Math.max(1, 32 - Math.clz32(span - 1));
  const passes = radixPasses(n, bits);
  const width = Math.ceil(bits / passes);
  const size = 1 << width;
  const mask = size - 1;
  const count = work.count;
  count.fill(0, 0, passes * size);
  if (passes === 2) {
    for (let p = lo; p < hi; p++) {
      const key = xs[p] - min;
      count[key & mask]++;
      count[size + (key >>> width)]++;
    }
  } else {
    for (let p = lo; p < hi; p++) {
      const key = xs[p] - min;
      for (let d = 0, shift = 0; d < passes; d++, shift += width) count[d * size + ((key >>> shift) & mask)]++;
    }
  }
  for (let d = 0; d < passes; d++) {
    let sum = 0;
    const base = d * size;
    for (let v = base; v < base + size; v++) {
      const c = count[v];
      count[v] = sum;
      sum += c;
    }
  }
  let keys = work.keys;
  let rows = work.rows;
  let keysTo = work.keysTo;
  let rowsTo = work.rowsTo;
  // First pass: from xs and ids (keys less min) into the scratch.
  for (let p = lo; p < hi; p++) {
    const key = xs[p] - min;
    const at = count[key & mask]++;
    keys[at] = key;
    rows[at] = ids[p];
  }
  for (let d = 1, shift = width; d < passes - 1; d++, shift += width) {
    const base = d * size;
    for (let q = 0; q < n; q++) {
      const key = keys[q];
      const at = count[base + ((key >>> shift) & mask)]++;
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
  if (passes === 1) {
    for (let q = 0; q < n; q++) {
      xs[lo + q] = keys[q] + min;
      ids[lo + q] = rows[q];
    }
    return;
  }
  // Last pass: from the scratch back into xs and ids.
  const base = (passes - 1) * size;
  const shift = (passes - 1) * width;
  for (let q = 0; q < n; q++) {
    const key = keys[q];
    const at = lo + count[base + ((key >>> shift) & mask)]++;
    xs[at] = key + min;
    ids[at] = rows[q];
  }
}

/** Largest digit of `radixSortWithIds` (2,048 buckets: 22 bits in two passes). */
const MAX_DIGIT_BITS = 11;

/**
 * Passes for `n` keys of `bits` bits: each pass costs about two moves per key and a visit per
 * bucket (counted and summed), so wide digits pay where n is large, narrow ones where it is small.
 */
function radixPasses(n: number, bits: number): number {
  let best = Math.ceil(bits / MAX_DIGIT_BITS);
  let bestCost = Number.POSITIVE_INFINITY;
  for (let p = best; p <= bits; p++) {
    const cost = p * (2 * n + 2 ** Math.ceil(bits / p));
    if (cost < bestCost) {
      bestCost = cost;
      best = p;
    }
    if (2 ** Math.ceil(bits / p) <= 16) break;
  }
  return best;
}

/** Scratch of `radixSortWithIds` for ranges of up to `n` entries. */
export class RadixWork {
  readonly keys: Int32Array;
  readonly keysTo: Int32Array;
  readonly rows: Int32Array;
  readonly rowsTo: Int32Array;
  /** Every pass's digit counts (31 bits take at most three passes of 11). */
  readonly count = new Int32Array(3 << MAX_DIGIT_BITS);

  constructor(n: number) {
    this.keys = new Int32Array(n);
    this.keysTo = new Int32Array(n);
    this.rows = new Int32Array(n);
    this.rowsTo = new Int32Array(n);
  }
}
