import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/core/random.js';
import type { Dataset } from '../../src/data/dataset.js';
import { datasetFromRows } from '../../src/data/encode.js';
import { SUBSET_CAP } from '../../src/optimal/binarise.js';
import { fitOptimal } from '../../src/optimal/fit-optimal.js';

/**
 * An independent exhaustive search: every tree of depth ≤ d over the same binary tests, written
 * plainly from the raw values (no bins, bounds, cache or sweeps). A tree's error is the sum of its
 * subtrees' errors, so the best tree with exactly l leaves on rows S at depth d is the best, over
 * every test and every split l = l1 + l2, of the two sides' best trees — the minimum over all
 * trees, factored. Returns, for l = 1 .. 2^d, the least misclassified weight with exactly l leaves.
 */
function bestByLeaves(data: Dataset, weights: number[], rows: number[], d: number): number[] {
  const k = data.classes.length;
  const w = new Array(k).fill(0);
  for (const r of rows) w[data.labels[r]] += weights[r];
  const leaf = w.reduce((a, b) => a + b, 0) - Math.max(...w);
  const out = new Array(2 ** d + 1).fill(Infinity);
  out[1] = leaf;
  if (d === 0) return out;
  for (const side of allTests(data, rows)) {
    const left = rows.filter(side);
    const right = rows.filter((r) => !side(r));
    if (left.length === 0 || right.length === 0) continue;
    const L = bestByLeaves(data, weights, left, d - 1);
    const R = bestByLeaves(data, weights, right, d - 1);
    for (let a = 1; a < L.length; a++)
      for (let b = 1; b < R.length; b++) if (L[a] + R[b] < out[a + b]) out[a + b] = L[a] + R[b];
  }
  return out;
}

/**
 * Every binary test on `rows`: x ≤ t at each midpoint of distinct values; x ∈ S for every subset S
 * of the categories present (up to complement; with one category, it against the missing rows),
 * or x = c when more than SUBSET_CAP are present; missing rows either way.
 */
function allTests(data: Dataset, rows: number[]): ((r: number) => boolean)[] {
  const tests: ((r: number) => boolean)[] = [];
  data.features.forEach((col) => {
    if (col.kind === 'numeric') {
      const v = col.values;
      const distinct = [...new Set(rows.map((r) => v[r]).filter((x) => !Number.isNaN(x)))].sort((a, b) => a - b);
      for (let i = 0; i + 1 < distinct.length; i++) {
        const t = (distinct[i] + distinct[i + 1]) / 2;
        for (const missLeft of [false, true]) tests.push((r) => (Number.isNaN(v[r]) ? missLeft : v[r] <= t));
      }
      // Known values one way, missing ones the other.
      tests.push((r) => !Number.isNaN(v[r]));
    } else {
      const present = [...new Set(rows.map((r) => col.codes[r]).filter((c) => c >= 0))].sort((a, b) => a - b);
      const sets: Set<number>[] = [];
      if (present.length > SUBSET_CAP) for (const c of present) sets.push(new Set([c]));
      else if (present.length === 1) sets.push(new Set(present));
      else
        for (let mask = 1; mask < 2 ** (present.length - 1); mask++)
          sets.push(new Set(present.filter((_, i) => (mask >> i) & 1)));
      for (const set of sets)
        for (const missLeft of [false, true]) tests.push((r) => (col.codes[r] < 0 ? missLeft : set.has(col.codes[r])));
    }
  });
  return tests;
}

/**
 * Random rows: three numeric features of 4–5 values and one of three categories (about 12 tests),
 * some missing; three classes, or two.
 */
function randomData(seed: number, n: number, classes = 3): { data: Dataset; weights: number[] } {
  const random = mulberry32(seed);
  const pick = (m: number) => Math.floor(random() * m);
  const rows = Array.from({ length: n }, () => {
    const a = pick(5);
    const b = pick(4);
    const row = {
      a: random() < 0.1 ? null : a,
      b: random() < 0.1 ? null : b,
      c: pick(4) * 0.5,
      colour: random() < 0.1 ? null : ['red', 'green', 'blue'][pick(3)],
      y: random() < 0.75 ? ['p', 'q', 'r'][(a + b) % classes] : ['p', 'q', 'r'][pick(classes)],
    };
    return row;
  });
  return { data: datasetFromRows(rows, { target: 'y' }), weights: rows.map(() => 1 + pick(3)) };
}

/** Misclassified training weight of a model, from its predictions. */
function trainingError(tree: ReturnType<typeof fitOptimal>, data: Dataset, weights: number[]): number {
  const codes = tree.predictCodes(data);
  let err = 0;
  for (let r = 0; r < data.nRows; r++) if (codes[r] !== data.labels[r]) err += weights[r];
  return err;
}

const all = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('optimal trees equal an exhaustive search', () => {
  for (const seed of [1, 2, 3, 4]) {
    for (const depth of [1, 2, 3]) {
      it(`seed ${seed}, depth ${depth}: least weighted error, then fewest leaves`, () => {
        const { data, weights } = randomData(seed, 36);
        const byLeaves = bestByLeaves(data, weights, all(data.nRows), depth);
        const best = Math.min(...byLeaves);
        const leaves = byLeaves.indexOf(best);
        const tree = fitOptimal(data, { maxDepth: depth, sampleWeight: weights });
        expect(tree.optimality?.proven).toBe(true);
        expect(trainingError(tree, data, weights)).toBe(best);
        expect(tree.stats().leaves).toBe(leaves);
        expect(tree.stats().height).toBeLessThanOrEqual(depth);
      });
    }
  }

  for (const seed of [5, 6, 7]) {
    it(`seed ${seed}, two classes, depth 3: least weighted error, then fewest leaves`, () => {
      const { data, weights } = randomData(seed, 40, 2);
      const byLeaves = bestByLeaves(data, weights, all(data.nRows), 3);
      const best = Math.min(...byLeaves);
      const tree = fitOptimal(data, { maxDepth: 3, sampleWeight: weights });
      expect(trainingError(tree, data, weights)).toBe(best);
      expect(tree.stats().leaves).toBe(byLeaves.indexOf(best));
    });
  }

  it('sparse 0/1 features (a test whose left side is the total less its few ones): least error, fewest leaves', () => {
    for (const seed of [11, 12, 13]) {
      const random = mulberry32(seed);
      const bit = (p: number) => (random() < p ? 1 : 0);
      const rows = Array.from({ length: 40 }, () => {
        const [s, t, u, v] = [bit(0.15), bit(0.2), bit(0.25), bit(0.5)];
        const y = random() < 0.8 ? ['p', 'q', 'r'][(s + 2 * t + u) % 3] : ['p', 'q', 'r'][Math.floor(random() * 3)];
        return { s, t, u: random() < 0.1 ? null : u, v, y };
      });
      const data = datasetFromRows(rows, { target: 'y' });
      const weights = rows.map((_, i) => 1 + (i % 3));
      for (const depth of [2, 3]) {
        const byLeaves = bestByLeaves(data, weights, all(data.nRows), depth);
        const best = Math.min(...byLeaves);
        const tree = fitOptimal(data, { maxDepth: depth, sampleWeight: weights });
        expect(trainingError(tree, data, weights)).toBe(best);
        expect(tree.stats().leaves).toBe(byLeaves.indexOf(best));
      }
    }
  });

  it('fractional weights: the least weighted error', () => {
    for (const seed of [8, 9, 10]) {
      const { data, weights } = randomData(seed, 30);
      const fractional = weights.map((w, i) => w * (0.5 + ((i * 7) % 5) / 7));
      const best = Math.min(...bestByLeaves(data, fractional, all(data.nRows), 3));
      const tree = fitOptimal(data, { maxDepth: 3, sampleWeight: fractional });
      expect(trainingError(tree, data, fractional)).toBeCloseTo(best, 9);
    }
  });

  it('with a leaf limit: the least error among trees of at most maxLeaves leaves', () => {
    for (const seed of [5, 6]) {
      const { data, weights } = randomData(seed, 36);
      const byLeaves = bestByLeaves(data, weights, all(data.nRows), 3);
      for (const maxLeaves of [2, 3, 5]) {
        const best = Math.min(...byLeaves.slice(0, maxLeaves + 1));
        const tree = fitOptimal(data, { maxDepth: 3, maxLeaves, sampleWeight: weights });
        expect(trainingError(tree, data, weights)).toBe(best);
        expect(tree.stats().leaves).toBe(byLeaves.indexOf(best));
      }
    }
  });

  it('sparse objective: the least error rate + alpha × leaves', () => {
    const { data, weights } = randomData(7, 36);
    const W = weights.reduce((a, b) => a + b, 0);
    const byLeaves = bestByLeaves(data, weights, all(data.nRows), 3);
    for (const alpha of [0, 0.02, 0.05, 0.2]) {
      const objective = byLeaves.map((e, l) => e / W + alpha * l);
      const best = Math.min(...objective.slice(1));
      const tree = fitOptimal(data, { maxDepth: 3, objective: 'sparse', alpha, sampleWeight: weights });
      expect(tree.optimality?.value).toBeCloseTo(best, 12);
      const l = tree.stats().leaves;
      expect(trainingError(tree, data, weights) / W + alpha * l).toBeCloseTo(best, 12);
    }
  });

  it('categorical subsets (a test of several categories against the rest): least error, fewest leaves', () => {
    for (const seed of [21, 22, 23]) {
      const random = mulberry32(seed);
      const pick = (m: number) => Math.floor(random() * m);
      const colours = ['red', 'green', 'blue', 'grey', 'pink'];
      const rows = Array.from({ length: 40 }, () => {
        const c = pick(5);
        const x = pick(4);
        const y = random() < 0.85 ? (c === 0 || c === 2 ? (x < 2 ? 'p' : 'q') : 'r') : ['p', 'q', 'r'][pick(3)];
        return { colour: random() < 0.1 ? null : colours[c], x, y };
      });
      const data = datasetFromRows(rows, { target: 'y' });
      const integer = rows.map((_, i) => 1 + (i % 3));
      for (const depth of [1, 2, 3]) {
        const byLeaves = bestByLeaves(data, integer, all(data.nRows), depth);
        const best = Math.min(...byLeaves);
        const tree = fitOptimal(data, { maxDepth: depth, sampleWeight: integer });
        expect(trainingError(tree, data, integer)).toBe(best);
        expect(tree.stats().leaves).toBe(byLeaves.indexOf(best));
      }
      // The data are made so that the best first test sends two colours one way and three the other.
      const root = fitOptimal(data, { maxDepth: 1, sampleWeight: integer }).toJSON().nodes[0].split;
      expect(root?.kind === 'subset' && Math.min(root.left.length, root.right.length)).toBe(2);
      const fractional = integer.map((w, i) => w * (0.5 + ((i * 7) % 5) / 7));
      const best = Math.min(...bestByLeaves(data, fractional, all(data.nRows), 2));
      const tree = fitOptimal(data, { maxDepth: 2, sampleWeight: fractional });
      expect(trainingError(tree, data, fractional)).toBeCloseTo(best, 9);
    }
  });

  it(`more than ${SUBSET_CAP} categories at a node: each category against the rest`, () => {
    const random = mulberry32(31);
    const pick = (m: number) => Math.floor(random() * m);
    const rows = Array.from({ length: 60 }, () => {
      const c = pick(SUBSET_CAP + 2);
      return { code: `v${c}`, x: pick(3), y: random() < 0.8 ? ['p', 'q'][c % 2] : ['p', 'q'][pick(2)] };
    });
    const data = datasetFromRows(rows, { target: 'y' });
    const weights = rows.map(() => 1);
    for (const depth of [1, 2]) {
      const byLeaves = bestByLeaves(data, weights, all(data.nRows), depth);
      const best = Math.min(...byLeaves);
      const tree = fitOptimal(data, { maxDepth: depth });
      expect(trainingError(tree, data, weights)).toBe(best);
      expect(tree.stats().leaves).toBe(byLeaves.indexOf(best));
    }
  });
});
