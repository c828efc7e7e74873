/**
 * scikit-learn's DecisionTreeClassifier behaviours that apply to grove, ported from its test suite
 * (sklearn/tree/tests/test_tree.py, 1.2): each test names the scikit-learn test it mirrors. What
 * scikit-learn's own trees give on the same data is compared in bench/parity-sklearn.mjs (it needs
 * Python; these tests do not). Runs against dist/ (worker threads load compiled modules).
 */
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../dist/core/random.js';
import { parseConfigs } from '../../dist/eval/configs.js';
import { limitLeaves } from '../../dist/learn/best-first.js';
import { featureCount } from '../../dist/learn/feature-draw.js';
import { growTree } from '../../dist/learn/grow.js';
import {
  type Dataset,
  DecisionTree,
  datasetFromRows,
  type FitOptions,
  fit,
  GroveError,
  readDataset,
  resolveOptions,
} from '../../dist/node.js';
import { assertBuilt, grove, repoRoot } from '../helpers/cli.js';
import { probed } from '../helpers/parallel-probe.js';

const iris = await readDataset(resolve(repoRoot, 'data/iris.csv'));
const pima = await readDataset(resolve(repoRoot, 'data/pima-indians-diabetes.csv'));
const votes = await readDataset(resolve(repoRoot, 'data/house-votes-84.csv'));

/** scikit-learn's toy problem (test_tree.py's X, y, T, true_result). */
const X = [
  [-2, -1],
  [-1, -1],
  [-1, -2],
  [1, 1],
  [1, 2],
  [2, 1],
];
const y = [-1, -1, -1, 1, 1, 1];
const T = [
  [-1, -1],
  [2, 2],
  [3, 2],
];
const toy = (labels: Array<string | number> = y, rows: number[][] = X): Dataset =>
  datasetFromRows(
    rows.map((r, i) => ({ a: r[0], b: r[1], y: labels[i] })),
    { target: 'y', categorical: ['y'] },
  );

/** n rows, `informative` numeric features that carry the class and `noise` that do not; 2 classes. */
function synthetic(n: number, informative: number, noise: number, seed: number): Dataset {
  const random = mulberry32(seed);
  const rows = Array.from({ length: n }, () => {
    const row: Record<string, unknown> = {};
    let s = 0;
    for (let f = 0; f < informative; f++) {
      const v = random() * 2 - 1;
      row[`i${f}`] = v;
      s += v * (f + 1);
    }
    for (let f = 0; f < noise; f++) row[`n${f}`] = random();
    row.y = s + (random() - 0.5) * 0.5 > 0 ? 'pos' : 'neg';
    return row;
  });
  return datasetFromRows(rows, { target: 'y' });
}

const leaves = (t: DecisionTree) => t.nodes.filter((n) => !n.split);
const weightOf = (counts: number[]) => counts.reduce((a, b) => a + b, 0);
const modelText = (t: DecisionTree) => JSON.stringify(t.toJSON());

describe('ported from scikit-learn test_tree.py', () => {
  it('test_classification_toy: the toy problem, with and without feature draws', () => {
    for (const options of [{}, { maxFeatures: 1, seed: 1 }] as FitOptions[]) {
      const tree = fit(toy(), { prune: 'none', ...options });
      expect(tree.predict(T)).toEqual([-1, 1, 1]);
    }
  });

  it('test_weighted_classification_toy: weights of one, or of one half, give the same predictions', () => {
    for (const w of [1, 0.5]) {
      const tree = fit(toy(), { prune: 'none', sampleWeight: new Array(6).fill(w) });
      expect(tree.predict(T)).toEqual([-1, 1, 1]);
    }
  });

  it('test_xor: a fully grown tree learns XOR exactly', () => {
    const rows: number[][] = [];
    const labels: string[] = [];
    for (let i = 0; i < 10; i++)
      for (let j = 0; j < 10; j++) {
        rows.push([i, j]);
        labels.push(String(i < 5 !== j < 5 ? 1 : 0));
      }
    for (const options of [{}, { maxFeatures: 1 }, { bins: 16 }] as FitOptions[]) {
      const data = toy(labels, rows);
      expect(fit(data, { prune: 'none', ...options }).score(data)).toBe(1);
    }
  });

  it('test_iris: every criterion spelling fits iris (training accuracy > 0.9; with max_features=2 > 0.5)', () => {
    for (const criterion of ['gini', 'entropy', 'log_loss', 'info-gain']) {
      expect(fit(iris, { prune: 'none', criterion }).score(iris)).toBeGreaterThan(0.9);
      expect(fit(iris, { prune: 'none', criterion, maxFeatures: 2 }).score(iris)).toBeGreaterThan(0.5);
    }
  });

  it("criterion 'entropy' and 'log_loss' are information gain (the model records 'info-gain')", () => {
    const reference = modelText(fit(pima, { prune: 'none', criterion: 'info-gain', maxDepth: 6 }));
    for (const criterion of ['entropy', 'log_loss']) {
      const tree = fit(pima, { prune: 'none', criterion, maxDepth: 6 });
      expect(tree.options.criterion).toBe('info-gain');
      expect(modelText(tree)).toBe(reference);
    }
  });

  it('test_probability: probability rows sum to 1, their argmax is the prediction, log-probabilities are their log', () => {
    const tree = fit(iris, { prune: 'none', maxDepth: 3 });
    const proba = tree.predictProba(iris);
    const log = tree.predictLogProba(iris);
    const predicted = tree.predictCodes(iris);
    proba.forEach((row, i) => {
      expect(row.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
      expect(row.indexOf(Math.max(...row))).toBe(predicted[i]);
      row.forEach((p, c) => expect(log[i][c]).toBe(Math.log(p)));
    });
    expect(log.flat().some((v) => v === -Infinity)).toBe(true); // a class a leaf never saw
  });

  it('test_pure_set: one class everywhere gives one leaf that predicts it', () => {
    const tree = fit(toy([1, 1, 1, 1, 1, 1]), { prune: 'none' });
    expect(tree.nodes).toHaveLength(1);
    expect(tree.predict(X)).toEqual([1, 1, 1, 1, 1, 1]);
  });

  it('test_importances: importances sum to 1 and the informative features lead', () => {
    const data = synthetic(2000, 3, 7, 11);
    const { importances } = fit(data, { prune: 'none', maxDepth: 6 }).stats();
    const values = Object.values(importances);
    expect(values.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    const top3 = Object.entries(importances)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([name]) => name)
      .sort();
    expect(top3).toEqual(['i0', 'i1', 'i2']);
  });

  it('test_max_features: sqrt, log2, counts and fractions resolve as scikit-learn resolves them', () => {
    // scikit-learn: max(1, int(sqrt(d))), max(1, int(log2(d))), the count, max(1, int(fraction · d)).
    expect(featureCount('sqrt', 4)).toBe(2);
    expect(featureCount('log2', 4)).toBe(2);
    expect(featureCount('sqrt', 60)).toBe(7);
    expect(featureCount('log2', 60)).toBe(5);
    expect(featureCount(1, 4)).toBe(1);
    expect(featureCount(3, 4)).toBe(3);
    expect(featureCount(0.5, 4)).toBe(2);
    expect(() => featureCount(5, 4)).toThrow(/maxFeatures \(--max-features\) is 5, more than the data's 4 features/);
    expect(featureCount(4, 4)).toBe(4);
    expect(featureCount(0.01, 4)).toBe(1);
    expect(featureCount(undefined, 4)).toBe(4);
    expect(featureCount('log2', 1)).toBe(1);
  });

  it('test_error: invalid growth limits are refused with GroveError', () => {
    for (const bad of [
      { maxFeatures: 0 },
      { maxFeatures: -1 },
      { maxFeatures: 1.5 },
      { maxFeatures: 'half' },
      { maxLeafNodes: 1 },
      { maxLeafNodes: 2.5 },
      { minWeightFractionLeaf: 0.51 },
      { minWeightFractionLeaf: -0.1 },
      { minImpurityDecrease: -1 },
      { criterion: 'entropyy' },
      { randomState: 3, seed: 4 },
    ] as unknown as FitOptions[]) {
      expect(() => fit(iris, bad), JSON.stringify(bad)).toThrow(GroveError);
    }
    expect(() => fit(iris, { algorithm: 'cmbsv', maxFeatures: 2 })).toThrow(/cmbsv.*maxFeatures/);
  });

  it('test_min_samples_split: every split node holds at least min_samples_split rows', () => {
    for (const bins of [undefined, 32]) {
      const tree = fit(pima, { prune: 'none', minSamplesSplit: 10, bins, maxLeafNodes: 40 });
      for (const node of tree.nodes) if (node.split) expect(node.n).toBeGreaterThanOrEqual(10);
    }
  });

  it('test_min_samples_leaf: every leaf holds at least min_samples_leaf rows', () => {
    for (const options of [{}, { bins: 32 }, { maxFeatures: 'sqrt' }, { maxLeafNodes: 20 }] as FitOptions[]) {
      const tree = fit(pima, { prune: 'none', minSamplesLeaf: 5, ...options });
      for (const leaf of leaves(tree)) expect(leaf.n).toBeGreaterThanOrEqual(5);
    }
  });

  /** scikit-learn's check_min_weight_fraction_leaf: leaf weights from `apply`, against the fraction of the total. */
  const checkMinWeightFractionLeaf = (data: Dataset, options: FitOptions) => {
    const random = mulberry32(3);
    const weights = Array.from({ length: data.nRows }, () => random());
    const total = weights.reduce((a, b) => a + b, 0);
    for (const fraction of [0, 0.1, 0.2, 0.3, 0.4, 0.5]) {
      const tree = fit(data, { prune: 'none', ...options, minWeightFractionLeaf: fraction, sampleWeight: weights });
      const leafWeight = new Map<number, number>();
      tree.apply(data).forEach((leaf, i) => leafWeight.set(leaf, (leafWeight.get(leaf) ?? 0) + weights[i]));
      for (const w of leafWeight.values()) expect(w).toBeGreaterThanOrEqual(fraction * total - 1e-9);
      if (fraction > 0 && fraction < 0.4) expect(tree.nodes.length).toBeGreaterThan(1);
    }
  };

  it('test_min_weight_fraction_leaf: every leaf holds that share of the total weight (exact, histogram, categorical)', () => {
    checkMinWeightFractionLeaf(pima, {});
    checkMinWeightFractionLeaf(pima, { bins: 32 });
    checkMinWeightFractionLeaf(pima, { maxFeatures: 'sqrt' });
    checkMinWeightFractionLeaf(votes, { missing: 'learned' });
    checkMinWeightFractionLeaf(votes, { categoricalSplit: 'multiway', criterion: 'gain-ratio' });
  });

  it('test_min_weight_fraction_leaf_with_min_samples_leaf: both limits hold together', () => {
    const tree = fit(pima, { prune: 'none', minWeightFractionLeaf: 0.05, minSamplesLeaf: 60 });
    for (const leaf of leaves(tree)) {
      expect(leaf.n).toBeGreaterThanOrEqual(60);
      expect(weightOf(leaf.counts)).toBeGreaterThanOrEqual(0.05 * pima.nRows);
    }
  });

  it('test_min_impurity_decrease: every split decreases the weighted impurity by at least the limit', () => {
    const gini = (counts: number[]) => {
      const w = weightOf(counts);
      return 1 - counts.reduce((s, c) => s + (c / w) ** 2, 0);
    };
    for (const limit of [0.001, 0.01]) {
      const tree = fit(pima, { prune: 'none', minImpurityDecrease: limit });
      const full = fit(pima, { prune: 'none' });
      expect(tree.nodes.length).toBeLessThan(full.nodes.length);
      for (const node of tree.nodes) {
        if (!node.children) continue;
        const w = weightOf(node.counts);
        let children = 0;
        for (const c of node.children) children += (weightOf(tree.nodes[c].counts) / w) * gini(tree.nodes[c].counts);
        expect((w / pima.nRows) * (gini(node.counts) - children) + 1e-12).toBeGreaterThanOrEqual(limit);
      }
    }
  });

  it('test_max_leaf_nodes: best-first growth stops at max_leaf_nodes leaves (every grower and measure)', () => {
    const data = synthetic(600, 4, 2, 5);
    for (const options of [
      { criterion: 'gini' },
      { criterion: 'entropy' },
      { bins: 16 },
      { criterion: 'gain-ratio' },
      { criterion: 'dcsm' },
      { maxFeatures: 'sqrt' },
    ] as FitOptions[]) {
      for (const k of [2, 5, 12]) {
        const tree = fit(data, { prune: 'none', ...options, maxLeafNodes: k });
        expect(leaves(tree), JSON.stringify(options)).toHaveLength(k);
      }
    }
    // C-MBSV's splits may have many branches: a split that would pass the limit is not made.
    for (const k of [2, 5, 8])
      expect(leaves(fit(iris, { algorithm: 'cmbsv', maxLeafNodes: k })).length).toBeLessThanOrEqual(k);
    expect(leaves(fit(iris, { algorithm: 'cmbsv', maxLeafNodes: 8 }))).toHaveLength(8);
  });

  it('max_leaf_nodes keeps the best-first prefix: the k-leaf tree is the (k−1)-leaf tree plus one split', () => {
    const isPrefix = (small: DecisionTree, big: DecisionTree) => {
      // Walk both trees together from the root: every split of the smaller one is in the bigger one.
      const stack: Array<[number, number]> = [[0, 0]];
      while (stack.length > 0) {
        const [a, b] = stack.pop()!;
        const s = small.nodes[a];
        const g = big.nodes[b];
        expect(g.counts).toEqual(s.counts);
        if (!s.children) continue;
        expect(g.split).toEqual(s.split);
        s.children.forEach((c, i) => stack.push([c, g.children![i]]));
      }
    };
    let previous = fit(pima, { prune: 'none', maxLeafNodes: 2 });
    for (let k = 3; k <= 12; k++) {
      const tree = fit(pima, { prune: 'none', maxLeafNodes: k });
      isPrefix(previous, tree);
      previous = tree;
    }
  });

  it('best-first growth gives the best-first part of the tree grown without the limit (exact, histogram, C4.5)', () => {
    for (const [data, options] of [
      [pima, { prune: 'none' }],
      [pima, { prune: 'none', bins: 16, criterion: 'entropy' }],
      [pima, { prune: 'none', maxFeatures: 'sqrt', criterion: 'chi-square' }],
      [votes, { algorithm: 'c45', prune: 'none' }],
      [votes, { prune: 'none', missing: 'learned', categoricalSplit: 'multiway', criterion: 'gain-ratio' }],
    ] as Array<[Dataset, FitOptions]>) {
      const opts = resolveOptions(options);
      const weights = new Float64Array(data.nRows).fill(1);
      const full = growTree(data, opts, weights);
      for (const k of [2, 3, 8, 30]) {
        const grown = growTree(data, resolveOptions({ ...options, maxLeafNodes: k }), weights);
        expect(JSON.stringify(grown.toNodes()), `${JSON.stringify(options)} ${k}`).toBe(
          JSON.stringify(limitLeaves(full, k, opts.criterionImpl).toNodes()),
        );
      }
    }
  });

  it('test_max_leaf_nodes_max_depth: max_depth still bounds a best-first tree', () => {
    const tree = fit(synthetic(300, 3, 2, 2), { prune: 'none', maxLeafNodes: 10, maxDepth: 1 });
    expect(tree.stats().height).toBe(1);
    expect(leaves(tree)).toHaveLength(2);
  });

  it('test_sample_weight: duplicated rows grow the tree that integer weights grow', () => {
    const random = mulberry32(0);
    const picks = Array.from({ length: 100 }, () => Math.floor(random() * iris.nRows));
    const count = new Array(iris.nRows).fill(0);
    for (const i of picks) count[i]++;
    const rows = picks.map((i) => ({
      ...Object.fromEntries(iris.features.map((col) => [col.name, (col as { values: Float64Array }).values[i]])),
      class: iris.classes[iris.labels[i]],
    }));
    const duplicated = datasetFromRows(rows, { target: 'class' });
    const a = fit(duplicated, { prune: 'none' });
    const b = fit(iris, { prune: 'none', sampleWeight: count });
    expect(a.nodes.map((n) => n.split)).toEqual(b.nodes.map((n) => n.split));
    expect(a.nodes.map((n) => n.counts)).toEqual(
      b.nodes.map((n) => n.counts.map((_, c) => n.counts[b.classes.indexOf(a.classes[c])])),
    );
  });

  it('test_sample_weight: rows of weight 0 are not taken into account', () => {
    const rows = Array.from({ length: 100 }, (_, i) => ({ x: i, y: i < 50 ? 'zero' : 'one' }));
    const data = datasetFromRows(rows, { target: 'y' });
    const weights = rows.map((r) => (r.y === 'zero' ? 0 : 1));
    expect(new Set(fit(data, { prune: 'none', sampleWeight: weights }).predict(data))).toEqual(new Set(['one']));
  });

  it('test_class_weights: class weights grow the tree that the same per-row sample weights grow', () => {
    const classWeight = { 'Iris-setosa': 1, 'Iris-versicolor': 3, 'Iris-virginica': 0.5 };
    const perRow = Array.from(iris.labels, (c) => classWeight[iris.classes[c] as keyof typeof classWeight]);
    const a = fit(iris, { prune: 'none', classWeight });
    const b = fit(iris, { prune: 'none', sampleWeight: perRow });
    expect(JSON.stringify(a.nodes)).toBe(JSON.stringify(b.nodes));
  });

  it('test_only_constant_features: constant features give a single leaf, with or without feature draws', () => {
    const rows = Array.from({ length: 10 }, (_, i) => ({ a: 0, b: 0, c: 0, y: i % 2 ? 'p' : 'q' }));
    const data = datasetFromRows(rows, { target: 'y' });
    for (const maxFeatures of [undefined, 1, 2, 'sqrt'] as FitOptions['maxFeatures'][])
      expect(fit(data, { prune: 'none', maxFeatures }).nodes).toHaveLength(1);
  });

  it('test_behaviour_constant_feature_after_splits: draws go on past constant features (max_features=1)', () => {
    const values = [0, 0, 0, 0, 0, 1, 2, 4, 5, 6, 7];
    const labels = [0, 0, 0, 1, 1, 2, 2, 2, 3, 3, 3];
    const rows = values.map((v, i) => ({ c1: 0, c2: 0, x: v, c3: 0, c4: 0, y: String(labels[i]) }));
    const data = datasetFromRows(rows, { target: 'y', categorical: ['y'] });
    for (let seed = 0; seed < 5; seed++) {
      const tree = fit(data, { prune: 'none', maxFeatures: 1, seed });
      expect(tree.stats().height).toBe(2);
      expect(tree.nodes).toHaveLength(5);
    }
  });

  it('test_decision_path / apply: each path runs root to leaf and ends at the leaf apply gives', () => {
    for (const [data, options] of [
      [pima, { prune: 'none', maxDepth: 8 }],
      [votes, { algorithm: 'cart', missing: 'learned', prune: 'none' }],
      [iris, { bins: 8, prune: 'none' }],
    ] as Array<[Dataset, FitOptions]>) {
      const tree = fit(data, options);
      const leafOf = tree.apply(data);
      const { offsets, nodes } = tree.decisionPath(data);
      expect(offsets).toHaveLength(data.nRows + 1);
      expect(offsets[data.nRows]).toBe(nodes.length);
      for (let i = 0; i < data.nRows; i++) {
        const path = Array.from(nodes.subarray(offsets[i], offsets[i + 1]));
        expect(path[0]).toBe(0);
        expect(path.at(-1)).toBe(leafOf[i]);
        expect(path).toHaveLength(tree.nodes[leafOf[i]].depth + 1);
        for (let j = 1; j < path.length; j++) expect(tree.nodes[path[j - 1]].children).toContain(path[j]);
        expect(tree.nodes[leafOf[i]].split).toBeUndefined();
      }
      // The leaf's class distribution is what predictProba gives the row.
      const proba = tree.predictProba(data);
      for (let i = 0; i < data.nRows; i += 17) {
        const counts = tree.nodes[leafOf[i]].counts;
        expect(proba[i][0]).toBeCloseTo(counts[0] / weightOf(counts), 12);
      }
    }
  });

  it("apply / decision_path under C4.5's fractional policy: a spread row visits every branch, apply gives its heaviest leaf", () => {
    const tree = fit(votes, { algorithm: 'c45', prune: 'none' });
    const leafOf = tree.apply(votes);
    const { offsets, nodes } = tree.decisionPath(votes);
    let spread = 0;
    for (let i = 0; i < votes.nRows; i++) {
      const path = Array.from(nodes.subarray(offsets[i], offsets[i + 1]));
      expect(path).toContain(leafOf[i]);
      expect([...path].sort((a, b) => a - b)).toEqual(path);
      if (path.filter((v) => !tree.nodes[v].split).length > 1) spread++;
    }
    expect(spread).toBeGreaterThan(0); // house-votes has missing votes
  });

  it('test_pickle: a save/load round trip keeps predictions, probabilities, leaves and the score', () => {
    const tree = fit(pima, { prune: 'none', maxLeafNodes: 30, maxFeatures: 'sqrt', seed: 4 });
    const copy = DecisionTree.fromJSON(JSON.parse(JSON.stringify(tree.toJSON())));
    expect(copy.predict(pima)).toEqual(tree.predict(pima));
    expect(copy.predictProba(pima)).toEqual(tree.predictProba(pima));
    expect(copy.apply(pima)).toEqual(tree.apply(pima));
    expect(copy.score(pima)).toBe(tree.score(pima));
    expect(copy.options.maxLeafNodes).toBe(30);
    expect(copy.options.maxFeatures).toBe('sqrt');
  });

  it('score is the accuracy: of a Dataset against its target, or of rows against given labels', () => {
    const tree = fit(iris, { prune: 'none', maxDepth: 2 });
    const predicted = tree.predict(iris);
    const truth = Array.from(iris.labels, (c) => iris.classes[c]);
    const right = predicted.filter((p, i) => p === truth[i]).length;
    expect(tree.score(iris)).toBe(right / iris.nRows);
    expect(tree.score(iris, truth)).toBe(right / iris.nRows);
    expect(() => tree.score(iris, truth.slice(1))).toThrow(/149 labels for 150 rows/);
    expect(() => tree.score([[1, 2, 3, 4]])).toThrow(GroveError);
  });
});

describe('random_state determinism (max_features)', () => {
  it('the same seed grows the same model bit for bit; another seed another one; randomState is seed', () => {
    for (const options of [
      { maxFeatures: 'sqrt' },
      { maxFeatures: 0.5, bins: 32 },
      { maxFeatures: 2 },
    ] as FitOptions[]) {
      const a = modelText(fit(pima, { prune: 'none', ...options, seed: 7 }));
      expect(modelText(fit(pima, { prune: 'none', ...options, seed: 7 }))).toBe(a);
      expect(modelText(fit(pima, { prune: 'none', ...options, randomState: 7 }))).toBe(a);
      expect(modelText(fit(pima, { prune: 'none', ...options, seed: 8 }))).not.toBe(a);
    }
  });

  it('worker threads grow the one-thread model (exact and histogram)', () => {
    const data = synthetic(12000, 5, 7, 9); // 144000 row·features: enough for an explicit thread count
    for (const options of [
      { maxFeatures: 'sqrt' },
      { maxFeatures: 0.4, bins: 64 },
      { maxFeatures: 'log2', minWeightFractionLeaf: 0.001, criterion: 'entropy' },
    ] as FitOptions[]) {
      const one = modelText(fit(data, { prune: 'none', seed: 3, ...options, threads: 1 }));
      const two = probed(() => fit(data, { prune: 'none', seed: 3, ...options, threads: 2 }));
      expect(two.tasks, JSON.stringify(options)).toBeGreaterThan(0);
      expect(modelText(two.result)).toBe(one);
    }
    // Best-first growth runs on one thread whatever `threads` asks.
    const options: FitOptions = { prune: 'none', seed: 3, maxFeatures: 3, maxLeafNodes: 50 };
    expect(modelText(fit(data, { ...options, threads: 2 }))).toBe(modelText(fit(data, options)));
  });
});

describe('the options table carries the new limits', () => {
  it('compare configurations take them by name or flag', () => {
    const [config] = parseConfigs('sk:max-features=sqrt,maxLeafNodes=8,min-weight-fraction-leaf=0.1,criterion=entropy');
    expect(config.options).toEqual({
      maxFeatures: 'sqrt',
      maxLeafNodes: 8,
      minWeightFractionLeaf: 0.1,
      criterion: 'entropy',
    });
    expect(fit(iris, config.options).stats().leaves).toBeLessThanOrEqual(8);
  });

  it('a model file records them only when set, so older files and fits without them are unchanged', () => {
    const plain = fit(iris, { prune: 'none' }).toJSON().options;
    for (const name of ['maxLeafNodes', 'maxFeatures', 'minWeightFractionLeaf', 'minImpurityDecrease'])
      expect(plain).not.toHaveProperty(name);
    const set = fit(iris, { prune: 'none', maxLeafNodes: 3, minImpurityDecrease: 0.01 }).toJSON().options;
    expect(set).toMatchObject({ maxLeafNodes: 3, minImpurityDecrease: 0.01 });
  });
});

describe('grove predict --leaf --path', () => {
  it('adds the leaf id and the path (node ids joined by ;) that apply and decisionPath give', () => {
    assertBuilt();
    const model = join(tmpdir(), `grove-parity-${process.pid}.json`);
    const data = resolve(repoRoot, 'data/iris.csv');
    expect(grove(['fit', data, '--max-leaf-nodes', '4', '--prune', 'none', '--out', model]).status).toBe(0);
    const r = grove(['predict', data, '--model', model, '--leaf', '--path']);
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toBe('predicted,leaf,path');
    const tree = DecisionTree.fromJSON(JSON.parse(readFileSync(model, 'utf8')));
    const leafOf = tree.apply(iris);
    const { offsets, nodes } = tree.decisionPath(iris);
    lines.slice(1).forEach((line, i) => {
      const [, leaf, path] = line.split(',');
      expect(Number(leaf)).toBe(leafOf[i]);
      expect(path).toBe(Array.from(nodes.subarray(offsets[i], offsets[i + 1])).join(';'));
    });
    expect(tree.nodes.filter((n) => !n.split)).toHaveLength(4);
  });

  it('refuses a bad --max-features with exit code 2', () => {
    assertBuilt();
    const r = grove(['fit', resolve(repoRoot, 'data/iris.csv'), '--max-features', 'half']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--max-features/);
  });
});
