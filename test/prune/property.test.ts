import { describe, expect, it } from 'vitest';
import { fit } from '../../src/algorithms/fit.js';
import { mulberry32 } from '../../src/core/random.js';
import type { Dataset } from '../../src/data/dataset.js';
import { datasetFromRows } from '../../src/data/encode.js';
import { compactTree } from '../../src/model/compact.js';
import { DecisionTree } from '../../src/model/decision-tree.js';
import type { TreeNode } from '../../src/model/node.js';
import type { FitOptions, MissingPolicy } from '../../src/options/options.js';
import { recount } from '../../src/prune/recount.js';

/** Seeded noisy data: two numeric features and one categorical, ~15% missing each, three classes. */
function randomData(seed: number, n: number): { data: Dataset; weights: Float64Array } {
  const random = mulberry32(seed);
  const rows = Array.from({ length: n }, () => {
    const x = Math.round(random() * 100) / 10;
    const z = Math.round(random() * 50) / 10;
    const c = 'pqrs'[Math.floor(random() * 4)];
    let y = x + (c === 'p' ? 3 : 0) + random() * 4 < 7 ? 'u' : z < 2.5 ? 'v' : 'w';
    if (random() < 0.1) y = 'uvw'[Math.floor(random() * 3)];
    return { x: random() < 0.15 ? null : x, z: random() < 0.15 ? null : z, c: random() < 0.15 ? null : c, y };
  });
  const data = datasetFromRows(rows, { target: 'y' });
  const weights = Float64Array.from({ length: n }, () => 0.2 + random() * 2.8);
  return { data, weights };
}

const sum = (a: number[]) => a.reduce((s, x) => s + x, 0);

/** Structural checks that validateModel does not make: depths, and weight conservation. */
function checkTree(nodes: TreeNode[]): void {
  nodes.forEach((node) => node.children?.forEach((c) => expect(nodes[c].depth).toBe(node.depth + 1)));
  expect(nodes[0].depth).toBe(0);
  const leaves = nodes.filter((n) => !n.children);
  const root = nodes[0].counts;
  const scale = Math.max(1, sum(root));
  root.forEach((r, c) => expect(Math.abs(r - sum(leaves.map((l) => l.counts[c])))).toBeLessThan(1e-9 * scale));
}

describe('pruning keeps weight and gives valid models (seeded random data, missing values, random weights)', () => {
  const configs: Array<[string, FitOptions]> = [
    ['pessimistic', { prune: 'pessimistic' }],
    ['error-based', { prune: 'error-based' }],
    ['error-based + raising', { prune: 'error-based', subtreeRaising: true }],
    [
      'error-based CF 0.05 + raising, multiway',
      {
        prune: 'error-based',
        confidence: 0.05,
        subtreeRaising: true,
        categoricalSplit: 'multiway',
        criterion: 'gain-ratio',
      },
    ],
    ['reduced-error', { prune: 'reduced-error' }],
    ['cost-complexity α = 0.01', { prune: 'cost-complexity', ccpAlpha: 0.01 }],
    ['cost-complexity CV 1se', { prune: 'cost-complexity', ccpFolds: 4 }],
    [
      'cost-complexity CV min, multiway',
      { prune: 'cost-complexity', ccpFolds: 3, ccpRule: 'min', categoricalSplit: 'multiway' },
    ],
  ];
  for (const missing of ['majority', 'fractional'] as MissingPolicy[]) {
    for (const [label, options] of configs) {
      it(`${label}, missing ${missing}`, () => {
        for (const seed of [1, 2, 3]) {
          const { data, weights } = randomData(seed, 150);
          const base: FitOptions = { algorithm: 'cart', missing, sampleWeight: weights, ...options };
          const full = fit(data, { ...base, prune: 'none' });
          const tree = fit(data, base);
          checkTree(tree.nodes);
          const copy = DecisionTree.fromJSON(JSON.parse(JSON.stringify(tree.toJSON())));
          expect(copy.predict(data)).toEqual(tree.predict(data));
          expect(tree.pruning?.method).toBe(options.prune);
          expect(tree.pruning?.leavesAfter).toBe(tree.stats().leaves);
          if (options.prune !== 'reduced-error') {
            expect(tree.stats().leaves).toBeLessThanOrEqual(full.stats().leaves);
            expect(sum(tree.nodes[0].counts)).toBeCloseTo(sum(full.nodes[0].counts), 9);
          }
        }
      });
    }
  }

  it('compactTree and recount never modify their input', () => {
    const { data, weights } = randomData(9, 120);
    const full = fit(data, { prune: 'none', sampleWeight: weights });
    const before = JSON.stringify(full.nodes);
    const compacted = compactTree(full.nodes, (id) => id % 3 === 1);
    checkTree(compacted);
    expect(compactTree(full.nodes, () => false)).toEqual(full.nodes);
    // Routing the training rows again reproduces the grown counts (majority policy, as grown).
    const again = recount(full.nodes, data, weights, undefined, 'majority');
    again.forEach((node, i) => node.counts.forEach((c, k) => expect(c).toBeCloseTo(full.nodes[i].counts[k], 9)));
    expect(again.map((n) => n.n)).toEqual(full.nodes.map((n) => n.n));
    expect(JSON.stringify(full.nodes)).toBe(before);
  });

  /** Recount a tree grown with C4.5's fractional policy; its counts should come back unchanged. */
  const recountFractional = (categoricalSplit: 'binary' | 'multiway') => {
    for (const seed of [4, 5]) {
      const { data, weights } = randomData(seed, 150);
      const full = fit(data, { prune: 'none', missing: 'fractional', categoricalSplit, sampleWeight: weights });
      expect(full.nodes.some((n) => n.missingBranch !== undefined)).toBe(false);
      const again = recount(full.nodes, data, weights, undefined, 'fractional');
      again.forEach((node, i) => node.counts.forEach((c, k) => expect(c).toBeCloseTo(full.nodes[i].counts[k], 9)));
      expect(again.map((n) => n.n)).toEqual(full.nodes.map((n) => n.n));
    }
  };

  it("recount reproduces the grower's counts under C4.5's fractional policy (numeric and multiway splits)", () => {
    recountFractional('multiway');
  });

  // Regression: for a binary subset split whose V and complement toSplit() swaps, the fractional
  // weights of rows with a missing value must follow the split's branch order, not the scan's.
  it("recount reproduces the grower's counts under the fractional policy with binary subset splits", () => {
    recountFractional('binary');
  });
});
