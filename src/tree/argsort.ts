import type { NumericValues } from '../data/dataset.js';

/**
 * Row order of a numeric column, ascending, missing values (NaN) last, ties by row index.
 * An LSD radix sort (16-bit digits, 8-bit below 65536 rows) of the values' order-preserving 64-bit keys: linear time,
 * stable (so ties stay in row order), and it skips digits every value shares.
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
  let next = new Int32Array(n);
  // 16-bit digits for large inputs; 8-bit ones for small inputs, which should not pay for 65536 buckets.
  const width = n >= 65536 ? 16 : 8;
  const mask = (1 << width) - 1;
  const count = new Int32Array(1 << width);
  for (let bit = 0; bit < 64; bit += width) {
    const key = bit < 32 ? lo : hi;
    const shift = bit & 31;
    count.fill(0);
    for (let i = 0; i < n; i++) count[(key[i] >>> shift) & mask]++;
    if (n > 0 && count[(key[0] >>> shift) & mask] === n) continue; // every value shares this digit
    let acc = 0;
    for (let d = 0; d <= mask; d++) {
      const c = count[d];
      count[d] = acc;
      acc += c;
    }
    for (let i = 0; i < n; i++) {
      const r = order[i];
      next[count[(key[r] >>> shift) & mask]++] = r;
    }
    const t = order;
    order = next;
    next = t;
  }
  return order;
}
