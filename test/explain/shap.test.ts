/**
 * TreeSHAP against brute force (every subset of features, the same path-dependent value
 * function) on small trees of every kind of split and missing-value policy, and local accuracy
 * (contributions + expected value = predicted probability) on trees of every preset.
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fit } from '../../src/algorithms/fit.js';
import type { Dataset } from '../../src/data/dataset.js';
import { datasetFromRows } from '../../src/data/encode.js';
import { alignRows } from '../../src/explain/rows.js';
import { type ShapValues, shapValues } from '../../src/explain/shap.js';
import { DecisionTree } from '../../src/model/decision-tree.js';
import type { TreeNode } from '../../src/model/node.js';
import { PRESETS } from '../../src/options/presets.js';
import type { TreeOptions } from '../../src/options/types.js';
import { readDataset } from '../../src/sources/file-source.js';
import { repoRoot } from '../helpers/cli.js';
import { corpus, haveCorpus } from '../helpers/paths.js';
import { bruteShap } from './brute-shap.js';
import { synthetic } from './synthetic.js';

/** The largest |difference| between TreeSHAP and brute force over the first `rows` rows. */
function bruteGap(tree: DecisionTree, data: Dataset, rows: number): number {
  const shap = shapValues(tree, data);
  const { columns } = alignRows(tree, data, undefined, 'test');
  const f = tree.features.length;
  const k = tree.classes.length;
  let gap = 0;
  for (let i = 0; i < Math.min(rows, data.nRows); i++) {
    const brute = bruteShap(tree.compiled, columns, i, f);
    for (let j = 0; j < f * k; j++) gap = Math.max(gap, Math.abs(brute[j] - shap.values[i * f * k + j]));
  }
  return gap;
}

/** The largest |expected + Σ contributions − probability| over every row and class. */
function localAccuracyGap(tree: DecisionTree, data: Dataset, shap: ShapValues = shapValues(tree, data)): number {
  const proba = tree.predictProbaFlat(data, { unclassified: 'none' });
  const f = shap.features.length;
  const k = shap.classes.length;
  let gap = 0;
  for (let i = 0; i < shap.nRows; i++)
    for (let c = 0; c < k; c++) {
      let sum = shap.expected[c];
      for (let j = 0; j < f; j++) sum += shap.values[(i * f + j) * k + c];
      gap = Math.max(gap, Math.abs(sum - proba[i * k + c]));
    }
  return gap;
}

const nodes = (tree: DecisionTree) => tree.nodes.filter((n) => n.split);

describe('TreeSHAP equals brute-force Shapley values', () => {
  const clean = synthetic(300, 1);
  const holey = synthetic(300, 2, 0.15);
  const cases: Array<[string, Dataset, Partial<TreeOptions>, (t: DecisionTree) => boolean]> = [
    [
      'binary numeric and subset splits (CART)',
      clean,
      { algorithm: 'cart', prune: 'none', maxDepth: 6 },
      (t) => nodes(t).some((n) => n.split!.kind === 'subset'),
    ],
    [
      'multiway categorical splits (ID3)',
      clean,
      { algorithm: 'id3', maxDepth: 5 },
      (t) => nodes(t).some((n) => n.split!.kind === 'multiway'),
    ],
    [
      'C4.5 fractional missing values',
      holey,
      { algorithm: 'c45', prune: 'none', maxDepth: 5 },
      (t) => nodes(t).every((n) => n.missingBranch === undefined),
    ],
    [
      'majority missing branch',
      holey,
      { algorithm: 'cart', prune: 'none', missing: 'majority', maxDepth: 6 },
      (t) => nodes(t).some((n) => n.missingBranch !== undefined),
    ],
    [
      'learned missing branch',
      holey,
      { algorithm: 'zaki', missing: 'learned', maxDepth: 6 },
      (t) => nodes(t).some((n) => n.missingBranch !== undefined),
    ],
    [
      'C-MBSV multi-threshold nodes',
      clean,
      { algorithm: 'cmbsv', maxDepth: 4 },
      (t) => nodes(t).some((n) => n.split!.kind === 'numeric' && n.split!.thresholds.length > 1),
    ],
  ];
  for (const [name, data, options, shaped] of cases) {
    it(name, () => {
      const tree = fit(data, options);
      expect(shaped(tree)).toBe(true);
      expect(bruteGap(tree, data, 60)).toBeLessThan(1e-9);
      expect(localAccuracyGap(tree, data)).toBeLessThan(1e-9);
    });
  }
});

describe('TreeSHAP local accuracy on every preset', () => {
  // Shipped in data/, so the test runs without the corpus; two more sets when it is there.
  const shipped = ['iris', 'house-votes-84'].map((name) => [name, resolve(repoRoot, `data/${name}.csv`)]);
  if (!haveCorpus) console.warn('TreeSHAP on every preset: credit-g and soybean skipped (the UCI corpus is absent)');
  const sets = [...shipped, ...(haveCorpus ? ['credit-g', 'soybean'].map((name) => [name, corpus(name)]) : [])];
  for (const [name, path] of sets) {
    for (const algorithm of Object.keys(PRESETS)) {
      it(`${algorithm} on ${name}`, async () => {
        const data = await readDataset(path);
        // The optimal preset searches every midpoint: 16 bins keep its search short on the corpus sets.
        const tree = fit(data, algorithm === 'optimal' ? { algorithm, bins: 16 } : { algorithm });
        expect(localAccuracyGap(tree, data)).toBeLessThan(1e-9);
      });
    }
  }
});

/** A model of features x (numeric) and c (categorical a/b/z) with the given nodes. */
function modelWith(nodes: TreeNode[]): DecisionTree {
  const data = datasetFromRows([
    { x: 1, c: 'a', y: 'no' },
    { x: 2, c: 'b', y: 'yes' },
    { x: 3, c: 'z', y: 'yes' },
  ]);
  return new DecisionTree({ ...fit(data, { algorithm: 'c45' }).toJSON(), nodes });
}

describe('TreeSHAP by hand', () => {
  it('gives a stump its whole move from the expected value', () => {
    const tree = modelWith([
      { counts: [4, 4], n: 8, depth: 0, split: { kind: 'numeric', feature: 0, thresholds: [5] }, children: [1, 2] },
      { counts: [3, 1], n: 4, depth: 1 },
      { counts: [1, 3], n: 4, depth: 1 },
    ]);
    const shap = shapValues(tree, [{ x: 1, c: 'a' }]);
    expect(Array.from(shap.expected)).toEqual([0.5, 0.5]);
    expect(Array.from(shap.values)).toEqual([0.25, -0.25, 0, 0]);
  });

  it('values a C-MBSV unclassified region and an unseen category as predictProba does', () => {
    // x ≤ 1 | 1 < x ≤ 4 (no rows: unclassified) | x > 4, the last split on c into a, b and z (no rows).
    const tree = modelWith([
      {
        counts: [5, 5],
        n: 10,
        depth: 0,
        split: { kind: 'numeric', feature: 0, thresholds: [1, 4] },
        children: [1, 2, 3],
      },
      { counts: [4, 1], n: 5, depth: 1 },
      { counts: [0, 0], n: 0, depth: 1, unclassified: true },
      {
        counts: [1, 4],
        n: 5,
        depth: 1,
        split: { kind: 'multiway', feature: 1, values: [0, 1, 2] },
        children: [4, 5, 6],
      },
      { counts: [1, 1], n: 2, depth: 2 },
      { counts: [0, 3], n: 3, depth: 2 },
      { counts: [0, 0], n: 0, depth: 2 },
    ]);
    const rows = [
      { x: 2, c: 'a' },
      { x: 9, c: 'z' },
      { x: 9, c: 'b' },
      { x: 0, c: 'z' },
    ];
    const data = datasetFromRows(
      rows.map((r) => ({ ...r, y: 'no' })),
      { target: 'y' },
    );
    const shap = shapValues(tree, rows);
    // Row 0 (x = 2, c = a) is unclassified: v({x}) = v({x, c}) = 0 for class no. Without x, c = a
    // gives 0.5 · 0.8 + 0.5 · 0.5 = 0.65 against the expected 0.5 · 0.8 + 0.5 · (0.4 · 0.5) = 0.5.
    expect(shap.expected[0]).toBeCloseTo(0.5, 15);
    expect(shap.values[0]).toBeCloseTo(0.5 * (0 - 0.5) + 0.5 * (0 - 0.65), 15); // x, class no
    expect(shap.values[2]).toBeCloseTo(0.5 * (0.65 - 0.5) + 0.5 * (0 - 0), 15); // c, class no
    expect(localAccuracyGap(tree, data)).toBeLessThan(1e-12);
    expect(bruteGap(tree, data, 4)).toBeLessThan(1e-12);
  });

  it('walks a 100,000-deep chain without recursion', () => {
    const depth = 100_000;
    const chain: TreeNode[] = [];
    for (let d = 0; d < depth; d++) {
      const split: TreeNode['split'] =
        d % 2 === 0
          ? { kind: 'numeric', feature: 0, thresholds: [d] }
          : { kind: 'subset', feature: 1, left: [0], right: [1, 2] };
      chain.push({ counts: [depth - d, 1], n: depth - d + 1, depth: d, split, children: [2 * d + 1, 2 * d + 2] });
      chain.push({ counts: [1, 0], n: 1, depth: d + 1 });
    }
    chain.push({ counts: [0, 1], n: 1, depth });
    const tree = modelWith(chain);
    const rows = [
      { x: 1e9, c: 'b' },
      { x: 7, c: 'b' },
      { x: 1e9, c: null },
      { x: null, c: 'b' },
    ];
    const data = datasetFromRows(
      rows.map((r) => ({ ...r, y: 'no' })),
      { target: 'y' },
    );
    expect(localAccuracyGap(tree, data)).toBeLessThan(1e-9);
  });
});
