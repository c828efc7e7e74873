import type { NumericValues } from '../data/dataset.js';

/**
 * Row order of a numeric column, ascending, missing values (NaN) last, ties by row index.
 * An LSD radix sort of the values' order-preserving 64-bit keys (6 passes of 11/11/10-bit digits, 8
 * of 8-bit digits below 16384 rows): linear time, stable (so ties stay in row order), and it skips
 * digits every value shares (e.g. the low bits of float32 values).
 */
export function argsortNumeric(x: NumericValues): Int32Array {
  const n = x.length;
  const bits = new Float64Array(1);
  const words = new Uint32Array(bits.buffer);
  const little = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
  const HI = little ? 1 : 0;
  const LO = little ? 0 : 1;
  // Order-preserving keys: flip the sign bit of non-negative values, every bit of negative ones;
  // -0 counts as 0, NaN goes last.
  const hi = new Uint32Array(n);
  const lo = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const v = x[i];
    if (Number.isNaN(v)) {
      hi[i] = 0xffffffff;
      lo[i] = 0xffffffff;
      continue;
    }
    bits[0] = v === 0 ? 0 : v;
    const h = words[HI];
    const l = words[LO];
    if (h >>> 31) {
      hi[i] = ~h >>> 0;
      lo[i] = ~l >>> 0;
    } else {
      hi[i] = (h | 0x80000000) >>> 0;
      lo[i] = l;
    }
  }
  let order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  // Digits of each 32-bit word, low word first: 11/11/10 bits for large inputs, 8 bits for small
  // ones. All digit histograms come from one read of the keys; keys then travel with the row ids,
  // so every pass reads memory in order.
  const widths = n >= 1 << 14 ? [11, 11, 10] : [8, 8, 8, 8];
  const passes = 2 * widths.length;
  const size = 1 << widths[0];
  const counts = new Int32Array(passes * size);
  const shifts = widths.map((_, j) => widths.slice(0, j).reduce((a, b) => a + b, 0));
  for (let w = 0; w < 2; w++) {
    const key = w === 0 ? lo : hi;
    for (let j = 0; j < widths.length; j++) {
      const base = (w * widths.length + j) * size;
      const shift = shifts[j];
      const mask = (1 << widths[j]) - 1;
      for (let i = 0; i < n; i++) counts[base + ((key[i] >>> shift) & mask)]++;
    }
  }
  let next = new Int32Array(n);
  let loNext = new Uint32Array(n);
  let hiNext = new Uint32Array(n);
  let keyLo = lo;
  let keyHi = hi;
  for (let p = 0; p < passes; p++) {
    const word = p < widths.length ? 0 : 1;
    const j = p % widths.length;
    const shift = shifts[j];
    const mask = (1 << widths[j]) - 1;
    const base = p * size;
    const first = word === 0 ? keyLo : keyHi;
    if (n === 0 || counts[base + ((first[0] >>> shift) & mask)] === n) continue; // every value shares this digit
    let acc = 0;
    for (let d = 0; d <= mask; d++) {
      const c = counts[base + d];
      counts[base + d] = acc;
      acc += c;
    }
    if (word === 0) {
      for (let i = 0; i < n; i++) {
        const d = counts[base + ((keyLo[i] >>> shift) & mask)]++;
        next[d] = order[i];
        loNext[d] = keyLo[i];
        hiNext[d] = keyHi[i];
      }
      const t = keyLo;
      keyLo = loNext;
      loNext = t;
    } else {
      for (let i = 0; i < n; i++) {
        const d = counts[base + ((keyHi[i] >>> shift) & mask)]++;
        next[d] = order[i];
        hiNext[d] = keyHi[i];
      }
    }
    const t = keyHi;
    keyHi = hiNext;
    hiNext = t;
    const o = order;
    order = next;
    next = o;
  }
  return order;
}
