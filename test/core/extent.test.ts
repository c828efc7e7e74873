import { describe, expect, it } from 'vitest';
import { argMax, maxOf, minOf } from '../../src/core/extent.js';
import { accuracyDomain } from '../../src/report/panels.js';

describe('argMax', () => {
  it('the first largest (ties to the lowest index), within `length`, 0 when empty', () => {
    expect(argMax([1, 5, 5, 2])).toBe(1);
    expect(argMax(new Int32Array([3, 1, 9]), 2)).toBe(0);
    expect(argMax([])).toBe(0);
    expect(argMax([0, Number.NaN, 4])).toBe(2);
  });
});

describe('maxOf / minOf', () => {
  it('agree with Math.max / Math.min, including the empty case and NaN', () => {
    for (const xs of [[], [3], [1, -2, 7.5, 7.5], [0, Number.NaN, 4]]) {
      expect(maxOf(xs)).toBe(Math.max(...xs));
      expect(minOf(xs)).toBe(Math.min(...xs));
    }
    expect(maxOf([2, 3], 9)).toBe(9);
    expect(minOf([2, 3], -1)).toBe(-1);
  });

  it('take a million values (a spread into Math.max overflows the stack there)', () => {
    const xs = Float64Array.from({ length: 1_000_000 }, (_, i) => (i * 7919) % 1_000_003);
    expect(() => Math.max(...xs)).toThrow(RangeError);
    expect(maxOf(xs)).toBe(1_000_002);
    expect(minOf(xs)).toBe(0);
  });
});

describe('accuracyDomain (the scatter chart y-axis)', () => {
  it('is never of zero width, inside [0, 100]', () => {
    for (const [lo, hi] of [
      [100, 100],
      [0, 0],
      [50, 50],
      [62.5, 97.1],
      [99.9, 100],
      [-5, 105],
      [Number.NaN, Number.NaN],
      [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY],
    ]) {
      const [y0, y1] = accuracyDomain(lo, hi);
      expect(y1).toBeGreaterThan(y0);
      expect(y0).toBeGreaterThanOrEqual(0);
      expect(y1).toBeLessThanOrEqual(100);
      if (Number.isFinite(lo) && lo >= 0 && hi <= 100) {
        expect(y0).toBeLessThanOrEqual(lo);
        expect(y1).toBeGreaterThanOrEqual(hi);
      }
    }
    expect(accuracyDomain(100, 100)).toEqual([99, 100]);
  });
});
