import type { NumericValues } from '../data/dataset.js';
import { HI, keyBits, keyWords, orderKeys, radixCounts, startPass } from './radix-keys.js';
import type { SortWork } from './sort-work.js';

/**
 * Row order of a numeric column, ascending, missing values (NaN) last, ties by row index.
 * An LSD radix sort of the values' order-preserving keys — 64-bit, or 32-bit for float32 columns —
 * in digits of 11/11/10 bits (8 bits below 16384 rows): linear time, stable (so ties stay in row
 * order), and it skips digits every value shares; 64-bit keys go by their high words first
 * (`byHighWord`) when that settles them. Small columns of non-integers go by rank instead.
 */
export function argsortNumeric(x: NumericValues, work?: SortWork): Int32Array {
  const n = x.length;
  if (n < RANK_BELOW && !allIntegers(x)) return argsortByRank(x, work);
  const u32 = (k: number) => (work ? work.u32(k, n) : new Uint32Array(n));
  const i32 = (k: number) => (work ? work.i32(k, n) : new Int32Array(n));
  const hi = u32(0);
  const lo = x instanceof Float32Array ? null : u32(1);
  orderKeys(x, hi, lo);
  if (lo && !highWordsShared(x)) {
    const byHigh = byHighWord(hi, lo, i32(0), i32(1), u32(2), u32(3));
    if (byHigh) return byHigh;
  }
  let order = i32(0);
  for (let i = 0; i < n; i++) order[i] = i;
  // Digits of each 32-bit word, low word first (radixCounts); keys travel with the row ids, so
  // every pass reads memory in order.
  const radix = radixCounts(hi, lo);
  const { counts } = radix;
  let next = i32(1);
  let loNext = lo ? u32(2) : null;
  let hiNext = u32(3);
  let keyLo = lo;
  let keyHi = hi;
  for (let p = lo ? 0 : radix.widths.length; p < radix.passes; p++) {
    const word = p < radix.widths.length ? 0 : 1;
    const pass = startPass(radix, p, word === 0 ? keyLo! : keyHi);
    if (!pass) continue;
    const { shift, mask, base } = pass;
    if (word === 0) {
      const kLo = keyLo!;
      const nLo = loNext!;
      for (let i = 0; i < n; i++) {
        const d = counts[base + ((kLo[i] >>> shift) & mask)]++;
        next[d] = order[i];
        nLo[d] = kLo[i];
        hiNext[d] = keyHi[i];
      }
      const t = keyLo;
      keyLo = loNext;
      loNext = t;
    } else scatter(n, counts, base, shift, mask, keyHi, order, hiNext, next);
    const t = keyHi;
    keyHi = hiNext;
    hiNext = t;
    const o = order;
    order = next;
    next = o;
  }
  return order;
}

/**
 * The float64 keys' order by the high words first: a radix sort of the high words only (half the
 * passes, each moving half the data), then each run of equal high words — in row order, the sort
 * being stable — ordered by low word with an insertion sort, which keeps equal keys in row order:
 * the order of the full 64-bit sort. Distinct measured values rarely share a high word (it holds the
 * sign, the exponent and 20 bits of the mantissa), so the runs are ties, short or already in
 * order. Null, after n / 2 moves, when they are not (the caller then sorts both words; it skips
 * this route when a sample shows values sharing high words);
 * `order` and `next` (row ids), `keys` and `keysNext` are scratch, `hi` and `lo` left as they are.
 */
function byHighWord(
  hi: Uint32Array,
  lo: Uint32Array,
  order: Int32Array,
  next: Int32Array,
  keys: Uint32Array,
  keysNext: Uint32Array,
): Int32Array | null {
  const n = hi.length;
  for (let i = 0; i < n; i++) order[i] = i;
  keys.set(hi);
  const radix = radixCounts(hi, null);
  const { counts } = radix;
  for (let p = radix.widths.length; p < radix.passes; p++) {
    const pass = startPass(radix, p, keys);
    if (!pass) continue;
    const { shift, mask, base } = pass;
    scatter(n, counts, base, shift, mask, keys, order, keysNext, next);
    const t = keys;
    keys = keysNext;
    keysNext = t;
    const o = order;
    order = next;
    next = o;
  }
  let budget = n >>> 1;
  for (let start = 0; start < n; ) {
    let end = start + 1;
    while (end < n && keys[end] === keys[start]) end++;
    for (let a = start + 1; a < end; a++) {
      const r = order[a];
      const l = lo[r];
      let b = a - 1;
      while (b >= start && lo[order[b]] > l) {
        order[b + 1] = order[b];
        b--;
        if (--budget < 0) return null;
      }
      order[b + 1] = r;
    }
    start = end;
  }
  return order;
}

/**
 * One radix pass over the first `n` 32-bit `keys` carried with their row ids (`order`): each to its digit's next
 * place (`counts`, advanced) in `keysNext` and `next`.
 */
function scatter(
  n: number,
  counts: Int32Array,
  base: number,
  shift: number,
  mask: number,
  keys: Uint32Array,
  order: Int32Array,
  keysNext: Uint32Array,
  next: Int32Array,
): void {
  for (let i = 0; i < n; i++) {
    const d = counts[base + ((keys[i] >>> shift) & mask)]++;
    next[d] = order[i];
    keysNext[d] = keys[i];
  }
}

/** `highWordsShared`'s sample of a column. */
const sample = new Float64Array(256);

/**
 * Whether distinct values of `x` share high words in a sorted sample of rows at even steps (large
 * integers close together, say, or values within a millionth of each other): `byHighWord` would
 * then give up after its passes, so the full sort goes first.
 */
function highWordsShared(x: NumericValues): boolean {
  const n = x.length;
  const s = Math.min(n, sample.length);
  for (let k = 0; k < s; k++) sample[k] = x[Math.floor((k * n) / s)];
  const sorted = sample.subarray(0, s).sort();
  for (let k = 1; k < s && !Number.isNaN(sorted[k]); k++) {
    if (sorted[k] === sorted[k - 1]) continue;
    keyBits[0] = sorted[k - 1];
    const h = keyWords[HI];
    keyBits[0] = sorted[k];
    if (keyWords[HI] === h) return true;
  }
  return false;
}

/**
 * Below this many rows a column of non-integers is ordered by `argsortByRank`: its radix sort would
 * run all eight 8-bit passes, which cost more there than the rank route (docs/performance.md,
 * "What was done for speed"); integer columns skip most radix passes and stay with the radix sort.
 */
const RANK_BELOW = 1 << 14;

function allIntegers(x: NumericValues): boolean {
  for (let i = 0; i < x.length; i++) if (x[i] !== Math.floor(x[i])) return false;
  return true;
}

/**
 * `argsortNumeric` through ranks: the engine's sort of a copy of the values (NaN last), the
 * distinct values, each row's rank by binary search (-0 and 0 share one), then a counting sort of
 * the rows by rank, stable, so ties keep row order as in the radix sort.
 */
function argsortByRank(x: NumericValues, work?: SortWork): Int32Array {
  const n = x.length;
  const sorted = work ? work.f64(0, n) : new Float64Array(n);
  sorted.set(x);
  sorted.sort();
  let known = n;
  while (known > 0 && Number.isNaN(sorted[known - 1])) known--;
  let m = 0;
  for (let i = 0; i < known; i++) if (m === 0 || sorted[i] !== sorted[m - 1]) sorted[m++] = sorted[i];
  const rank = work ? work.i32(1, n) : new Int32Array(n);
  const starts = new Int32Array(m + 2);
  for (let i = 0; i < n; i++) {
    const v = x[i];
    let lo = m;
    if (v === v) {
      lo = 0;
      let hi = m - 1;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (sorted[mid] < v) lo = mid + 1;
        else hi = mid;
      }
    }
    rank[i] = lo;
    starts[lo + 1]++;
  }
  for (let r = 0; r <= m; r++) starts[r + 1] += starts[r];
  const order = work ? work.i32(0, n) : new Int32Array(n);
  for (let i = 0; i < n; i++) order[starts[rank[i]]++] = i;
  return order;
}
