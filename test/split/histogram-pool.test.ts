import { describe, expect, it } from 'vitest';
import { exactZeros, HistogramPool, subtractSiblings } from '../../src/split/histogram-pool.js';

describe('HistogramPool', () => {
  it('hands out zeroed histograms of its size, reusing those given back', () => {
    const pool = new HistogramPool(6);
    const a = pool.take();
    expect(a).toHaveLength(6);
    a.fill(3);
    pool.give(a);
    pool.give(null);
    const b = pool.take();
    expect(b).toBe(a);
    expect(Array.from(b)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(pool.take()).not.toBe(a);
  });
});

describe('subtractSiblings', () => {
  it("leaves the parent's minus every sibling's, nulls skipped", () => {
    const parent = Float64Array.from([5, 7, 9]);
    subtractSiblings(parent, [Float64Array.from([1, 2, 3]), null, Float64Array.from([1, 1, 1])]);
    expect(Array.from(parent)).toEqual([3, 4, 5]);
  });
});

describe('exactZeros', () => {
  it('sets to zero the weights of classes without rows, and weights below zero', () => {
    // Two classes: per cell, weight of class 0, of class 1, then the row count.
    const parent = Float64Array.from([0.1 + 0.2, 0.7, 3, 0.3, 0, 1]);
    const sibling = Float64Array.from([0.3, 0.7 + 2e-16, 2, 0.1, 0, 1]);
    subtractSiblings(parent, [sibling]);
    expect(parent[0]).not.toBe(0);
    expect(parent[1]).toBeLessThan(0);
    const rows = Float64Array.from([2, 1, 3, 1, 1, 2]);
    subtractSiblings(rows, [Float64Array.from([2, 0, 2, 0, 0, 1])]);
    exactZeros(parent, rows, 2);
    expect(Array.from(parent)).toEqual([0, 0, 1, 0.3 - 0.1, 0, 0]);
  });
});
