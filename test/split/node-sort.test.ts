import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/core/random.js';
import { RadixWork, radixSortWithIds } from '../../src/split/node-sort.js';

/** `xs[lo, hi)` and `ids` sorted by a stable reference sort (Array.prototype.sort is stable). */
function reference(xs: Float64Array, ids: Int32Array, lo: number, hi: number) {
  const pairs = Array.from({ length: hi - lo }, (_, q) => [xs[lo + q], ids[lo + q]] as const);
  pairs.sort((a, b) => a[0] - b[0]);
  return { xs: pairs.map((p) => p[0]), ids: pairs.map((p) => p[1]) };
}

describe('radixSortWithIds', () => {
  it('sorts stably, whatever the span and the range (one, two or more passes)', () => {
    const random = mulberry32(5);
    const work = new RadixWork(5000);
    for (const [n, span] of [
      [70, 3],
      [100, 200_000],
      [300, 1 << 11],
      [5000, 200_000],
      [4000, 2 ** 30],
      [2000, 4097],
    ]) {
      const lo = 7;
      const min = 11;
      const xs = new Float64Array(n + 20);
      const ids = new Int32Array(n + 20);
      for (let p = 0; p < xs.length; p++) {
        xs[p] = min + Math.floor(random() * span);
        ids[p] = p;
      }
      const want = reference(xs, ids, lo, lo + n);
      const before = [xs.slice(0, lo), xs.slice(lo + n)];
      radixSortWithIds(xs, ids, lo, lo + n, min, span, work);
      expect(Array.from(xs.subarray(lo, lo + n))).toEqual(want.xs);
      expect(Array.from(ids.subarray(lo, lo + n))).toEqual(want.ids);
      expect([xs.slice(0, lo), xs.slice(lo + n)]).toEqual(before);
    }
  });
});
