/**
 * Missing values (C4.5's fractional weights, majority and learned directions), C4.5's selection
 * rule, the MDL threshold correction, chi-square pre-pruning and class weights — worked by hand.
 */
import { describe, expect, it } from 'vitest';
import { fit } from '../../src/algorithms/fit.js';
import { chiSquareSf as chiSquareSurvival } from '../../src/core/distributions.js';
import { mulberry32 } from '../../src/core/random.js';
import { incompleteGamma } from '../../src/core/special.js';
import { datasetFromRows } from '../../src/data/encode.js';
import { scoreAttributes } from '../../src/learn/score.js';
import type { TreeNode } from '../../src/model/node.js';
import { readDataset } from '../../src/sources/file-source.js';
import { fixture } from '../helpers/paths.js';

const h = (...p: number[]) => -p.filter((x) => x > 0).reduce((s, x) => s + x * Math.log2(x), 0);
const sum = (a: number[]) => a.reduce((x, y) => x + y, 0);
const leafTotal = (nodes: TreeNode[]) =>
  nodes
    .filter((n) => !n.split)
    .reduce(
      (acc, n) => acc.map((v, c) => v + n.counts[c]),
      nodes[0].counts.map(() => 0),
    );

/** Play tennis with the Outlook of D12 (Overcast, Yes) unknown: Quinlan's (1993, ch. 3) example. */
async function tennisWithUnknownOutlook() {
  const base = await readDataset(fixture('play-tennis.csv'), { target: 'Play' });
  const rows = Array.from({ length: base.nRows }, (_, i) => {
    const row: Record<string, unknown> = {};
    for (const col of base.features)
      row[col.name] = col.kind === 'categorical' ? col.categories[col.codes[i]] : col.values[i];
    row.Play = base.classes[base.labels[i]];
    return row;
  });
  rows[11].Outlook = null; // D12
  return datasetFromRows(rows, { target: 'Play' });
}

const tennisUnknownOutlook = await tennisWithUnknownOutlook();

describe('C4.5 fractional missing values', () => {
  const data = tennisUnknownOutlook;

  it('scales the gain by the known share and counts the unknown mass in the split information', () => {
    // Known 13 rows: Sunny 2 yes / 3 no, Overcast 3 / 0, Rain 3 / 2 → 8 yes, 5 no.
    const known = h(8 / 13, 5 / 13) - (5 / 13) * h(2 / 5, 3 / 5) - (3 / 13) * 0 - (5 / 13) * h(3 / 5, 2 / 5);
    const gain = (13 / 14) * known; // Quinlan: 0.199
    const splitInfo = h(5 / 14, 3 / 14, 5 / 14, 1 / 14); // Quinlan: 1.809
    expect(gain).toBeCloseTo(0.199, 3);
    expect(splitInfo).toBeCloseTo(1.809, 3);
    const opts = { categoricalSplit: 'multiway' as const, missing: 'fractional' as const };
    const ig = scoreAttributes(data, { ...opts, criterion: 'info-gain' }).attributes[0];
    const gr = scoreAttributes(data, { ...opts, criterion: 'gain-ratio' }).attributes[0];
    expect(ig.score).toBeCloseTo(gain, 12);
    expect(gr.score).toBeCloseTo(gain / splitInfo, 12); // Quinlan: 0.110
    expect(gr.score!).toBeCloseTo(0.11, 3);
  });

  it('sends the row down every branch with weight ∝ branch size, and loses no weight', () => {
    const tree = fit(data, { algorithm: 'id3', missing: 'fractional' });
    const root = tree.nodes[0];
    expect(tree.features[root.split!.feature].name).toBe('Outlook');
    const childWeights = root.children!.map((c) => sum(tree.nodes[c].counts));
    // Sunny 5 + 5/13, Overcast 3 + 3/13, Rain 5 + 5/13.
    expect(childWeights.sort((a, b) => a - b)).toEqual(
      [3 + 3 / 13, 5 + 5 / 13, 5 + 5 / 13].sort((a, b) => a - b).map((x) => expect.closeTo(x, 12)),
    );
    leafTotal(tree.nodes).forEach((v, c) => expect(v).toBeCloseTo(root.counts[c], 9));
  });

  it('conserves weight on random data with many missing values, for every split style', () => {
    const random = mulberry32(7);
    const rows = Array.from({ length: 300 }, () => ({
      a: random() < 0.3 ? null : Math.round(random() * 20),
      b: random() < 0.2 ? null : 'pqrst'[Math.floor(random() * 5)],
      c: random() < 0.4 ? null : random(),
      y: 'xyz'[Math.floor(random() * 3)],
    }));
    const data = datasetFromRows(rows, { target: 'y' });
    const weights = Array.from({ length: 300 }, () => 0.5 + random());
    for (const categoricalSplit of ['binary', 'multiway'] as const) {
      const tree = fit(data, { criterion: 'gini', missing: 'fractional', categoricalSplit, sampleWeight: weights });
      leafTotal(tree.nodes).forEach((v, c) => expect(v).toBeCloseTo(tree.nodes[0].counts[c], 8));
      expect(sum(tree.nodes[0].counts)).toBeCloseTo(sum(weights), 9);
      const proba = tree.predictProba(data);
      for (const p of proba) expect(sum(p)).toBeCloseTo(1, 12);
    }
  });
});

describe('majority and learned directions', () => {
  // x separates the classes; rows with x missing are all class 'b', which sits right of the threshold.
  const rows = [
    ...[1, 2, 3, 4, 5, 6].map((x) => ({ x, y: 'a' })),
    ...[10, 11].map((x) => ({ x, y: 'b' })),
    ...[0, 0, 0].map(() => ({ x: null, y: 'b' })),
  ];
  const data = datasetFromRows(rows, { target: 'y' });

  it('majority: missing values follow the heavier branch', () => {
    const tree = fit(data, { missing: 'majority', maxDepth: 1 });
    expect(tree.nodes[0].missingBranch).toBe(0); // 6 rows left, 2 right
    expect(tree.predict([{ x: null }])).toEqual(['a']);
  });

  it('learned: missing values go the way that scores best', () => {
    const tree = fit(data, { missing: 'learned', maxDepth: 1 });
    expect(tree.nodes[0].missingBranch).toBe(1);
    expect(tree.predict([{ x: null }])).toEqual(['b']);
    expect(tree.nodes[tree.nodes[0].children![1]].counts).toEqual([0, 5]);
  });
});

describe("C4.5's selection rule and MDL correction", () => {
  it('average-gain rule: a high gain ratio with below-average gain is passed over', () => {
    // 20 m / 20 n. id splits off row 39 alone: gain 1 − (39/40)·H(19/39) = 0.0255, split info
    // H(1/40) = 0.169, ratio 0.151. good: u = 13 m + 7 n, v = 7 m + 13 n: gain = ratio = 1 − H(0.35) = 0.066.
    // Average gain 0.046: id falls below it.
    const rows = Array.from({ length: 40 }, (_, i) => ({
      id: i === 39 ? 'one' : 'rest',
      good: i <= 12 || (i >= 20 && i <= 26) ? 'u' : 'v',
      y: i < 20 ? 'm' : 'n',
    }));
    const data = datasetFromRows(rows, { target: 'y' });
    const base = {
      criterion: 'gain-ratio',
      categoricalSplit: 'multiway' as const,
      maxDepth: 1,
      prune: 'none' as const,
    };
    const scores = scoreAttributes(data, base).attributes;
    const byName = Object.fromEntries(scores.map((a) => [a.name, a.score!]));
    expect(byName.id).toBeCloseTo((1 - (39 / 40) * h(19 / 39, 20 / 39)) / h(1 / 40, 39 / 40), 12);
    expect(byName.good).toBeCloseTo(1 - h(0.35, 0.65), 12);
    expect(byName.id).toBeGreaterThan(byName.good); // plain gain ratio prefers the id-like split
    const plain = fit(data, base);
    const rule = fit(data, { ...base, averageGainRule: true });
    expect(plain.features[plain.nodes[0].split!.feature].name).toBe('id');
    expect(rule.features[rule.nodes[0].split!.feature].name).toBe('good');
  });

  it('MDL: a numeric gain pays log2(thresholds tried) / n', () => {
    const rows = [1, 2, 3, 4, 5, 6, 7, 8].map((x) => ({ x, y: x <= 4 ? 'a' : 'b' }));
    const data = datasetFromRows(rows, { target: 'y' });
    const plain = scoreAttributes(data, { criterion: 'info-gain' }).attributes[0].score!;
    const mdl = scoreAttributes(data, { criterion: 'info-gain', mdlCorrection: true }).attributes[0].score!;
    expect(plain).toBeCloseTo(1, 12);
    expect(mdl).toBeCloseTo(1 - Math.log2(7) / 8, 12);
  });
});

describe('chi-square pre-pruning', () => {
  it('matches known chi-square tail probabilities', () => {
    expect(chiSquareSurvival(3.841458820694124, 1)).toBeCloseTo(0.05, 10);
    expect(chiSquareSurvival(9.487729036781154, 4)).toBeCloseTo(0.05, 10);
    for (const x of [0.5, 2, 7.3]) expect(chiSquareSurvival(x, 2)).toBeCloseTo(Math.exp(-x / 2), 12); // df = 2 is exponential
    expect(incompleteGamma(1, 2).lower).toBeCloseTo(1 - Math.exp(-2), 12);
  });

  it('stops where the best split is not significant and splits where it is', () => {
    // 2×2 table [[6, 4], [4, 6]]: X² = 0.8, p = 0.371 — not significant at 0.05.
    const weak = datasetFromRows(
      [
        ...Array(6).fill(['l', 'a']),
        ...Array(4).fill(['l', 'b']),
        ...Array(4).fill(['r', 'a']),
        ...Array(6).fill(['r', 'b']),
      ],
      { columns: ['s', 'y'] },
    );
    expect(fit(weak, { chiSquareAlpha: 0.05 }).nodes).toHaveLength(1);
    expect(fit(weak, { chiSquareAlpha: 0.5, prune: 'none' }).nodes).toHaveLength(3);
  });
});

describe('class weights', () => {
  it('balanced equals per-row weights n / (k · n_c)', async () => {
    const data = await readDataset(fixture('taxable-income.csv'), { target: 'Cheat' });
    const counts = [0, 0];
    data.labels.forEach((c) => counts[c]++);
    const w = Array.from(data.labels, (c) => data.nRows / (2 * counts[c]));
    const a = fit(data, { classWeight: 'balanced' });
    const b = fit(data, { sampleWeight: w });
    expect(a.nodes.map((n) => [n.split, n.counts])).toEqual(b.nodes.map((n) => [n.split, n.counts]));
    expect(sum(a.nodes[0].counts)).toBeCloseTo(data.nRows, 12);
  });

  it('an explicit map names classes; an unknown class is refused', async () => {
    const data = await readDataset(fixture('taxable-income.csv'), { target: 'Cheat' });
    const tree = fit(data, { classWeight: { Yes: 3 } });
    expect(tree.nodes[0].counts).toEqual([7, 9]);
    expect(() => fit(data, { classWeight: { Maybe: 2 } })).toThrow(/'Maybe', which is not a class/);
  });
});
