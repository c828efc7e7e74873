import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/core/random.js';
import { datasetFromRows } from '../../src/data/encode.js';
import { binarise } from '../../src/optimal/binarise.js';
import { OptimalSearch, type SearchSettings } from '../../src/optimal/search.js';

/** Random rows: four numeric features of 3–6 values, one of four categories, some missing; three classes. */
function rows(seed: number, n: number) {
  const random = mulberry32(seed);
  const pick = (m: number) => Math.floor(random() * m);
  return Array.from({ length: n }, () => {
    const [a, b, c, e] = [pick(6), pick(5), pick(4), pick(3)];
    return {
      a: random() < 0.08 ? null : a,
      b,
      c: c * 0.5,
      e,
      colour: random() < 0.08 ? null : ['red', 'green', 'blue', 'grey'][pick(4)],
      y: random() < 0.7 ? ['p', 'q', 'r'][(a + b + c) % 3] : ['p', 'q', 'r'][pick(3)],
    };
  });
}

/** The optimal tree's cost and leaves with the given bounds switched on or off. */
function solve(seed: number, n: number, weights: (i: number) => number, settings: Partial<SearchSettings>) {
  const d = datasetFromRows(rows(seed, n), { target: 'y' });
  const b = binarise(
    d,
    Float64Array.from({ length: d.nRows }, (_, i) => weights(i)),
  );
  const search = new OptimalSearch(b, {
    maxDepth: 4,
    maxLeaves: Infinity,
    penalty: 2 ** -6,
    maxSlots: 1e6,
    ...settings,
  });
  const tree = search.solveRoot(Infinity);
  return { cost: tree?.cost, leaves: tree?.leaves, search };
}

describe('similarity lower bounds and tests’ children bounds leave the optimum unchanged', () => {
  const off = { similarity: false, testBounds: false };
  it.each([1, 2, 3, 4, 5])('seed %i, depth 4, integer weights', (seed) => {
    const w = (i: number) => 1 + (i % 3);
    const plain = solve(seed, 70, w, off);
    for (const on of [{ similarity: true, testBounds: false }, { similarity: false, testBounds: true }, {}]) {
      const bounded = solve(seed, 70, w, on);
      expect(bounded.cost).toBe(plain.cost);
      expect(bounded.leaves).toBe(plain.leaves);
    }
  });

  it('the bounds are used: sub-problems ruled out and children bounded through a reference', () => {
    let prunes = 0;
    let references = 0;
    for (const seed of [1, 2, 3, 4, 5]) {
      const { search } = solve(seed, 70, () => 1, {});
      prunes += search.similarityPrunes;
      references += search.referenceBounds;
    }
    expect(prunes).toBeGreaterThan(0);
    expect(references).toBeGreaterThan(0);
  });

  it.each([6, 7])('seed %i: fractional weights, a leaf limit, depth 5, the sparse objective', (seed) => {
    const frac = (i: number) => 0.5 + ((i * 7) % 5) / 7;
    expect(solve(seed, 60, frac, {}).cost).toBeCloseTo(solve(seed, 60, frac, off).cost ?? Infinity, 9);
    for (const maxLeaves of [5, 7]) {
      const on = solve(seed, 60, () => 1, { maxLeaves });
      const plain = solve(seed, 60, () => 1, { maxLeaves, ...off });
      expect(on.cost).toBe(plain.cost);
      expect(on.leaves).toBe(plain.leaves);
    }
    const five = { maxDepth: 5 };
    expect(solve(seed, 40, () => 1, five).cost).toBe(solve(seed, 40, () => 1, { ...five, ...off }).cost);
    // The sparse objective: α = 0.03 of the total weight per leaf, not a power of two.
    const sparse = { penalty: 0.03 * 60 };
    expect(solve(seed, 60, () => 1, sparse).cost).toBeCloseTo(
      solve(seed, 60, () => 1, { ...sparse, ...off }).cost ?? 0,
      9,
    );
  });
});
