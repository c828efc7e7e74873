/**
 * The Hellinger distance measure against values worked out by hand: two classes, more classes
 * (mean of one-vs-rest), weighted counts, an empty branch, a class absent at the node; and grown
 * through `fit`, `fitForest` and `grove fit --criterion hellinger`.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fit } from '../../src/algorithms/fit.js';
import { getCriterion, improvement, infoGain, singleBranchTable, tableFromCounts } from '../../src/criteria/index.js';
import { fitForest } from '../../src/ensemble/fit-forest.js';
import { readDataset } from '../../src/sources/file-source.js';
import { assertBuilt, grove } from '../helpers/cli.js';
import { corpus, fixture, haveCorpus } from '../helpers/paths.js';

const hellinger = getCriterion('hellinger');
const H = (rows: number[][]): number => hellinger.evaluate(tableFromCounts(rows));
const { sqrt } = Math;

/** sqrt(Σ_v (sqrt(p_v) - sqrt(q_v))²), written out independently of src/criteria. */
function distance(p: number[], q: number[]): number {
  let s = 0;
  for (let v = 0; v < p.length; v++) s += (sqrt(p[v]) - sqrt(q[v])) ** 2;
  return sqrt(s);
}

describe('hellinger: hand-computed values', () => {
  it('two classes, weighted (fractional) counts', () => {
    // n_+ = 1.5 + 0.5 = 2, n_- = 0.25 + 2.25 = 2.5
    const rows = [
      [1.5, 0.25],
      [0.5, 2.25],
    ];
    const hand = sqrt((sqrt(1.5 / 2) - sqrt(0.25 / 2.5)) ** 2 + (sqrt(0.5 / 2) - sqrt(2.25 / 2.5)) ** 2);
    expect(hand).toBeCloseTo(0.709644, 6);
    expect(H(rows)).toBeCloseTo(hand, 14);
  });

  it('an empty branch contributes nothing', () => {
    const hand = distance([3 / 4, 1 / 4], [1 / 5, 4 / 5]);
    expect(
      H([
        [3, 1],
        [0, 0],
        [1, 4],
      ]),
    ).toBeCloseTo(hand, 14);
    expect(
      H([
        [3, 1],
        [1, 4],
      ]),
    ).toBeCloseTo(hand, 14);
  });

  it('three classes: the mean of the one-vs-rest distances', () => {
    // Branches [2,1,0], [1,2,3]; n_k = 3, 3, 3; n = 9, so each rest has 6.
    const hand =
      (distance([2 / 3, 1 / 3], [1 / 6, 5 / 6]) +
        distance([1 / 3, 2 / 3], [2 / 6, 4 / 6]) +
        distance([0, 1], [3 / 6, 3 / 6])) /
      3;
    expect(
      H([
        [2, 1, 0],
        [1, 2, 3],
      ]),
    ).toBeCloseTo(hand, 14);
  });

  it('a class absent at the node is left out of the mean', () => {
    // Class 1 has no rows: the value is the two-class one of classes 0 and 2 ...
    expect(
      H([
        [3, 0, 1],
        [1, 0, 4],
      ]),
    ).toBeCloseTo(distance([3 / 4, 1 / 4], [1 / 5, 4 / 5]), 14);
    // ... and with three present classes out of four, the mean over those three.
    const rows = [
      [2, 0, 1, 0],
      [1, 0, 2, 3],
    ];
    const hand =
      (distance([2 / 3, 1 / 3], [1 / 6, 5 / 6]) +
        distance([1 / 3, 2 / 3], [2 / 6, 4 / 6]) +
        distance([0, 1], [3 / 6, 3 / 6])) /
      3;
    expect(H(rows)).toBeCloseTo(hand, 14);
  });

  it('is 0 for the unsplit node and a one-class node, sqrt(2) for a pure split', () => {
    expect(H([[4, 7, 2]])).toBe(0);
    expect(
      H([
        [0, 5],
        [0, 3],
      ]),
    ).toBe(0);
    expect(
      H([
        [5, 0, 0],
        [0, 3, 0],
        [0, 0, 9],
      ]),
    ).toBeCloseTo(sqrt(2), 14);
    const split = tableFromCounts([
      [6, 2],
      [1, 3],
    ]);
    expect(improvement(hellinger, split, singleBranchTable([7, 5]))).toBe(hellinger.evaluate(split));
  });

  it('two classes: skew-insensitive (scaling one class leaves it unchanged), unlike information gain', () => {
    const rows = [
      [6, 2],
      [1, 3],
    ];
    const skewed = rows.map(([a, b]) => [a, 25 * b]);
    expect(H(skewed)).toBeCloseTo(H(rows), 14);
    const ig = (r: number[][]) => infoGain.evaluate(tableFromCounts(r));
    expect(Math.abs(ig(skewed) - ig(rows))).toBeGreaterThan(0.01);
  });
});

describe('hellinger: grows trees and forests', () => {
  it.skipIf(!haveCorpus)('fit and fitForest on iris', async () => {
    const iris = await readDataset(corpus('iris'), {});
    const tree = fit(iris, { criterion: 'hellinger', prune: 'none' });
    expect(tree.options.criterion).toBe('hellinger');
    // Setosa alone against the rest: a petal split (length ≤ 2.45 and width ≤ 0.8 tie).
    const root = tree.nodes[0].split;
    expect(root?.kind === 'numeric' && [2, 3].includes(root.feature)).toBe(true);
    expect(tree.score(iris)).toBe(1);
    const forest = fitForest(iris, { criterion: 'hellinger', trees: 10, seed: 1 });
    expect(forest.trees.every((t) => t.options.criterion === 'hellinger')).toBe(true);
    expect(forest.score(iris)).toBeGreaterThan(0.95);
  });

  describe('grove fit --criterion hellinger', () => {
    const dir = mkdtempSync(join(tmpdir(), 'grove-hellinger-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const play = fixture('play-tennis.csv');

    it('a tree: the same nodes as fit()', async () => {
      assertBuilt();
      const out = join(dir, 'tree.json');
      const r = grove(['fit', play, '--criterion', 'hellinger', '--prune', 'none', '--out', out]);
      expect(r.status, r.stderr).toBe(0);
      const model = JSON.parse(readFileSync(out, 'utf8')) as { options: { criterion: string }; nodes: unknown[] };
      expect(model.options.criterion).toBe('hellinger');
      const data = await readDataset(play, {});
      const tree = fit(data, { criterion: 'hellinger', prune: 'none' });
      expect(JSON.parse(JSON.stringify(tree.toJSON())).nodes).toEqual(model.nodes);
    });

    it('a forest', () => {
      const out = join(dir, 'forest.gfb');
      const r = grove(['fit', play, '--criterion', 'hellinger', '--forest', 'bagging', '--trees', '4', '--out', out]);
      expect(r.status, r.stderr).toBe(0);
      const show = grove(['show', out]);
      expect(show.status, show.stderr).toBe(0);
      expect(show.stdout).toMatch(/^bagging of 4 \w+ trees \(hellinger\)/);
    });
  });
});
