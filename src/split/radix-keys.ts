/**
 * Order-preserving 32-bit keys of numbers and the radix passes that sort them: what `argsortNumeric`
 * sorts rows by, and what histogram binning sorts alone (`sortedKeys`).
 */
import { LITTLE_ENDIAN } from '../core/arrays.js';
import type { NumericValues } from '../data/dataset.js';
import type { SortWork } from './sort-work.js';

/**
 * The radix passes over keys (`hi`, `lo`; `lo` null: one word): digits of 11/11/10 bits per
 * 32-bit word for large inputs, 8 bits for small ones, and every pass's digit histogram
 * (`counts[pass · size + digit]`), all from one read of the keys.
 */
export function radixCounts(hi: Uint32Array, lo: Uint32Array | null) {
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
export function startPass(
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
export const HI = LITTLE_ENDIAN ? 1 : 0;
const LO = LITTLE_ENDIAN ? 0 : 1;
export const keyBits = new Float64Array(1);
export const keyWords = new Uint32Array(keyBits.buffer);
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
