/**
 * A categorical feature with very many values (an ID column): no spread over its values (the
 * stack holds about 125,000 arguments), and the two-class subset search (Breiman's ordering) is a
 * linear sweep that picks the same subset as an exhaustive search, ties broken as before: the
 * first best prefix in (share of the first class, code) order. Histogram mode keeps codes past
 * 65,535 categories (its code matrix widens to 32 bits).
 */
import { describe, expect, it } from 'vitest';
import { fit } from '../../src/algorithms/fit.js';
import { giniOfRow } from '../../src/criteria/cart.js';
import { datasetFromRows } from '../../src/data/encode.js';
import { scoreAttributes } from '../../src/learn/score.js';

const MODES = [
  ['exact', {}],
  ['histogram', { bins: 255 }],
] as const;

/** m rows, row i of value `v<i>`; every `every`-th row is class b, the rest class a. */
function idColumn(m: number, every: number) {
  const rows = [];
  for (let i = 0; i < m; i++) rows.push({ id: `v${i}`, y: i % every === 0 ? 'b' : 'a' });
  return rows;
}

describe('an ID column of 200,000 distinct values', () => {
  // One side of the best split holds 190,000 values: spreading it as arguments overflows the stack.
  const rows = idColumn(200_000, 20);
  const data = datasetFromRows(rows);
  for (const [mode, extra] of MODES) {
    it(`fits, predicts and scores (${mode})`, () => {
      const tree = fit(data, { ...extra, prune: 'none' });
      const predicted = tree.predict(rows);
      for (let i = 0; i < rows.length; i += 997) expect(predicted[i]).toBe(rows[i].y);
      const report = scoreAttributes(data, extra);
      const split = report.attributes[0].split as { left: string[]; right: string[] };
      expect(split.left.length + split.right.length).toBe(200_000);
      expect(split.left).toHaveLength(10_000);
    }, 60_000);
  }
});

it('a 100,000-category, two-class fit completes', () => {
  let seed = 3;
  const rows = [];
  for (let i = 0; i < 100_000; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    rows.push({ id: `v${i % 100_000}`, y: seed >>> 31 ? 'a' : 'b' });
  }
  const tree = fit(datasetFromRows(rows), { maxDepth: 3, prune: 'none' });
  expect(tree.stats().leaves).toBeGreaterThan(1);
}, 60_000);

/** Weighted Gini impurity of the split `x ∈ V` of per-value counts [a, b]. */
function giniOf(counts: number[][], inV: (v: number) => boolean): number {
  const sides = [new Float64Array(2), new Float64Array(2)];
  counts.forEach(([a, b], v) => {
    const s = sides[inV(v) ? 0 : 1];
    s[0] += a;
    s[1] += b;
  });
  const n = sides[0][0] + sides[0][1] + sides[1][0] + sides[1][1];
  let g = 0;
  for (const s of sides) g += ((s[0] + s[1]) / n) * giniOfRow(s, 0, 2, s[0] + s[1]);
  return g;
}

describe('the two-class subset sweep', () => {
  it('finds the subset an exhaustive search finds, the first best prefix on ties', () => {
    let seed = 11;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    for (let trial = 0; trial < 300; trial++) {
      const m = 2 + next(8);
      // Small counts make equal shares and equal scores common.
      const counts = Array.from({ length: m }, () => [next(4), next(4)]);
      for (const c of counts) if (c[0] + c[1] === 0) c[next(2)] = 1;
      if (counts.every(([a]) => a === 0) || counts.every(([, b]) => b === 0)) continue;
      const rows: { x: string; y: string }[] = [];
      counts.forEach(([a, b], v) => {
        for (let i = 0; i < a; i++) rows.push({ x: `c${v}`, y: 'a' });
        for (let i = 0; i < b; i++) rows.push({ x: `c${v}`, y: 'b' });
      });
      const report = scoreAttributes(datasetFromRows(rows), { criterion: 'gini', minSamplesLeaf: 1 });
      const split = report.attributes[0].split as { left: string[]; right: string[] };
      const left = new Set(split.left.map((s) => Number(s.slice(1))));
      const chosen = giniOf(counts, (v) => left.has(v));

      let best = Infinity;
      for (let mask = 1; mask < (1 << m) - 1; mask++)
        best = Math.min(
          best,
          giniOf(counts, (v) => (mask >> v) & 1),
        );
      expect(chosen).toBeCloseTo(best, 12);

      // The first strictly best prefix of the values sorted by share of class a, then code.
      const share = (v: number) => counts[v][0] / (counts[v][0] + counts[v][1]);
      const order = counts.map((_, v) => v).sort((u, v) => share(u) - share(v) || u - v);
      let first = -1;
      let firstScore = Infinity;
      for (let i = 1; i < m; i++) {
        const inV = new Set(order.slice(0, i));
        const g = giniOf(counts, (v) => inV.has(v));
        if (g < firstScore - 1e-12) {
          firstScore = g;
          first = i;
        }
      }
      const prefix = new Set(order.slice(0, first));
      const sameSide = [...prefix].every((v) => left.has(v)) && prefix.size === left.size;
      const otherSide = [...prefix].every((v) => !left.has(v)) && prefix.size === m - left.size;
      expect(sameSide || otherSide).toBe(true);
    }
  });
});
