import { type ArrayMaker, LITTLE_ENDIAN, plainArrays } from '../core/arrays.js';
import type { NumericValues } from '../data/dataset.js';

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
 * The radix passes over keys (`hi`, `lo`; `lo` null: one word): digits of 11/11/10 bits per
 * 32-bit word for large inputs, 8 bits for small ones, and every pass's digit histogram
 * (`counts[pass · size + digit]`), all from one read of the keys.
 */
function radixCounts(hi: Uint32Array, lo: Uint32Array | null) {
  const n = hi.length;
  const widths = n >= 1 << 14 ? [11, 11, 10] : [8, 8, 8, 8];
  const passes = 2 * widths.length;
  const size = 1 << widths[0];
  const counts = new Int32Array(passes * size);
  const shifts = widths.map((_, j) => widths.slice(0, j).reduce((a, b) => a + b, 0));
  for (let w = lo ? 0 : 1; w < 2; w++) {
    const key = w === 0 ? lo! : hi;
    for (let j = 0; j < widths.length; j++) {
      const base = (w * widths.length + j) * size;
      const shift = shifts[j];
      const mask = (1 << widths[j]) - 1;
      for (let i = 0; i < n; i++) counts[base + ((key[i] >>> shift) & mask)]++;
    }
  }
  return { widths, passes, size, shifts, counts };
}

/**
 * Radix pass `p` over `key` (the word it sorts by): its digit's shift and mask and where its counts
 * start, the counts turned into each digit's first slot; null when every key has the same digit
 * there (the pass would move nothing).
 */
function startPass(
  radix: ReturnType<typeof radixCounts>,
  p: number,
  key: Uint32Array,
): { shift: number; mask: number; base: number } | null {
  const { widths, size, shifts, counts } = radix;
  const j = p % widths.length;
  const shift = shifts[j];
  const mask = (1 << widths[j]) - 1;
  const base = p * size;
  if (key.length === 0 || counts[base + ((key[0] >>> shift) & mask)] === key.length) return null;
  let acc = 0;
  for (let d = 0; d <= mask; d++) {
    const c = counts[base + d];
    counts[base + d] = acc;
    acc += c;
  }
  return { shift, mask, base };
}

/**
 * Order-preserving keys of `x`: unsigned comparison of (`hi[i]`, `lo[i]`) orders the values as
 * numbers. Flip the sign bit of non-negative values, every bit of negative ones; -0 counts as 0,
 * NaN is the largest key (all ones). A float32 column needs only the high word (`lo` null).
 */
export function orderKeys(x: NumericValues, hi: Uint32Array, lo: Uint32Array | null): void {
  const n = x.length;
  if (lo) {
    const bits = new Float64Array(1);
    const words = new Uint32Array(bits.buffer);
    const [wHi, wLo] = [HI, LO];
    for (let i = 0; i < n; i++) {
      const v = x[i];
      if (Number.isNaN(v)) {
        hi[i] = 0xffffffff;
        lo[i] = 0xffffffff;
        continue;
      }
      bits[0] = v === 0 ? 0 : v;
      const h = words[wHi];
      const l = words[wLo];
      if (h >>> 31) {
        hi[i] = ~h >>> 0;
        lo[i] = ~l >>> 0;
      } else {
        hi[i] = (h | 0x80000000) >>> 0;
        lo[i] = l;
      }
    }
  } else {
    const bits = new Uint32Array(x.buffer, x.byteOffset, n);
    for (let i = 0; i < n; i++) {
      const v = x[i];
      const h = bits[i];
      hi[i] = v !== v ? 0xffffffff : v === 0 ? 0x80000000 : h >>> 31 ? ~h >>> 0 : (h | 0x80000000) >>> 0;
    }
  }
}

/** The high and low 32-bit word of a float64 in a Uint32Array view of it. */
const HI = LITTLE_ENDIAN ? 1 : 0;
const LO = LITTLE_ENDIAN ? 0 : 1;
const keyBits = new Float64Array(1);
const keyWords = new Uint32Array(keyBits.buffer);
const keyFloat = new Float32Array(1);
const keyWord = new Uint32Array(keyFloat.buffer);

/** The number whose `orderKeys` key is (`hi`, `lo`) (`lo` undefined: a float32 key); +0 for a zero. */
export function keyValue(hi: number, lo?: number): number {
  const negative = hi >>> 31 === 0;
  if (lo === undefined) {
    keyWord[0] = negative ? ~hi : hi ^ 0x80000000;
    return keyFloat[0];
  }
  keyWords[HI] = negative ? ~hi : hi ^ 0x80000000;
  keyWords[LO] = negative ? ~lo : lo;
  return keyBits[0];
}

/**
 * The `orderKeys` keys of `x` sorted ascending (NaN last), without the row order that
 * `argsortNumeric` carries along: half its scratch for a float32 column (the keys and one buffer
 * to radix-sort them through). The result lives in `work` (word arrays 0 and 1; 2 and 3 for the
 * low words of a float64 column) until the next sort.
 */
export function sortedKeys(x: NumericValues, work: SortWork): { hi: Uint32Array; lo: Uint32Array | null } {
  const n = x.length;
  let hi = work.u32(0, n);
  let hiNext = work.u32(1, n);
  let lo = x instanceof Float32Array ? null : work.u32(2, n);
  let loNext = lo ? work.u32(3, n) : null;
  orderKeys(x, hi, lo);
  const radix = radixCounts(hi, lo);
  const { counts } = radix;
  // Low word first (float64), then the high word.
  for (let p = lo ? 0 : radix.widths.length; p < radix.passes; p++) {
    const key = p < radix.widths.length ? lo! : hi;
    const pass = startPass(radix, p, key);
    if (!pass) continue;
    const { shift, mask, base } = pass;
    if (lo) {
      const kLo = lo;
      const nLo = loNext!;
      for (let i = 0; i < n; i++) {
        const d = counts[base + ((key[i] >>> shift) & mask)]++;
        hiNext[d] = hi[i];
        nLo[d] = kLo[i];
      }
      lo = nLo;
      loNext = kLo;
    } else {
      for (let i = 0; i < n; i++) hiNext[counts[base + ((hi[i] >>> shift) & mask)]++] = hi[i];
    }
    const t = hi;
    hi = hiNext;
    hiNext = t;
  }
  return { hi, lo };
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

/**
 * Scratch arrays reused by successive sorts (one feature after another), so that quantising a
 * large data set does not leave a column's worth of garbage per feature. The order returned by
 * `argsortNumeric(x, work)` lives in `work`: the next sort overwrites it. Its word arrays come from
 * `make`: shared ones when they are to become a threaded grower's row arrays (`takeInt32`).
 */
export class SortWork {
  private readonly ints: Int32Array[] = [];
  private readonly words: (Uint32Array | undefined)[] = [];
  private readonly doubles: Float64Array[] = [];

  constructor(private readonly make: ArrayMaker = plainArrays) {}

  f64(k: number, n: number): Float64Array {
    if (!(this.doubles[k]?.length >= n)) this.doubles[k] = new Float64Array(n);
    return this.doubles[k].subarray(0, n);
  }

  i32(k: number, n: number): Int32Array {
    if (!(this.ints[k]?.length >= n)) this.ints[k] = new Int32Array(n);
    return this.ints[k].subarray(0, n);
  }

  /**
   * Drop the arrays (later sorts allocate afresh), so that the garbage collector can take them
   * before a fit's growth allocates. (Detaching them at once, by transferring their buffers, would
   * free the memory sooner but makes V8 guard every typed-array access in the process from then
   * on, which slows every later fit and prediction; docs/performance.md, "Memory".)
   */
  release(): void {
    this.ints.length = 0;
    this.words.length = 0;
    this.doubles.length = 0;
  }

  /**
   * Word array `k` (n entries) as an Int32Array, which the work then drops, or a new array when it
   * has none: sort scratch handed on as a grower's row arrays, so that they take no new memory.
   */
  takeInt32(k: number, n: number): Int32Array {
    const w = this.words[k];
    if (!w || w.length < n) return this.make.int32(n);
    this.words[k] = undefined;
    return new Int32Array(w.buffer, w.byteOffset, n);
  }

  u32(k: number, n: number): Uint32Array {
    let w = this.words[k];
    if (!w || w.length < n) {
      const a = this.make.int32(n);
      w = this.words[k] = new Uint32Array(a.buffer, a.byteOffset, n);
    }
    return w.subarray(0, n);
  }
}
