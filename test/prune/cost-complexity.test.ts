import { describe, expect, it } from 'vitest';
import { fit } from '../../src/algorithms/fit.js';
import { datasetFromRows } from '../../src/data/encode.js';
import { costComplexityPath as exported } from '../../src/extend.js';
import { DecisionTree } from '../../src/model/decision-tree.js';
import { costComplexityPath, pruneCostComplexity } from '../../src/prune/cost-complexity.js';
import { readDataset } from '../../src/sources/file-source.js';
import { fixture } from '../helpers/paths.js';
import { asModel, build, leafCounts, shape } from './helpers.js';

// W = 100 rows. R(t) = errors of t as a leaf / 100.
//   root [60,40]                       R = 0.40
//     A [50,10]                        R = 0.10
//       A1 [45,2]                      R = 0.02
//       A2 [5,8]                       R = 0.05
//         A2a [5,1]                    R = 0.01
//         A2b [0,7]                    R = 0
//     B [10,30]                        R = 0.10
//       B1 [0,25]                      R = 0
//       B2 [10,5]                      R = 0.05
// Full tree: 5 leaves, R(T) = 0.02 + 0.01 + 0 + 0 + 0.05 = 0.08.
// g(A2)   = (0.05 − 0.01) / (2 − 1)          = 0.04
// g(A)    = (0.10 − 0.03) / (3 − 1)          = 0.035
// g(B)    = (0.10 − 0.05) / (2 − 1)          = 0.05
// g(root) = (0.40 − 0.08) / (5 − 1)          = 0.08
// No g is 0, so T(0) is the full tree. α_1 = 0.035: A becomes a leaf (A2, though its own g = 0.04
// is below B's, goes with it). Then R(T) = 0.10 + 0 + 0.05 = 0.15, 3 leaves;
// g(B) = 0.05, g(root) = (0.40 − 0.15) / (3 − 1) = 0.125. α_2 = 0.05: B becomes a leaf;
// R(T) = 0.20, 2 leaves; g(root) = (0.40 − 0.20) / 1 = 0.20 = α_3: the root alone, R = 0.40.
const spec = {
  kids: [
    {
      kids: [
        [45, 2],
        {
          kids: [
            [5, 1],
            [0, 7],
          ],
        },
      ],
    },
    {
      kids: [
        [0, 25],
        [10, 5],
      ],
    },
  ],
};

describe('cost-complexity pruning', () => {
  const nodes = build(spec);

  it('computes the weakest-link sequence worked out by hand', () => {
    const path = costComplexityPath(nodes);
    expect(path.map((p) => p.leaves)).toEqual([5, 3, 2, 1]);
    const expected = [
      [0, 0.08],
      [0.035, 0.15],
      [0.05, 0.2],
      [0.2, 0.4],
    ];
    path.forEach((p, k) => {
      expect(p.alpha).toBeCloseTo(expected[k][0], 14);
      expect(p.trainingError).toBeCloseTo(expected[k][1], 14);
    });
    expect(exported(nodes)).toEqual(path); // the public export: the same path, after checking its argument
  });

  it('T(α) is T(α_k) for α in [α_k, α_k+1)', () => {
    expect(shape(pruneCostComplexity(nodes, 0))).toBe('[[L [L L]] [L L]]');
    expect(shape(pruneCostComplexity(nodes, 0.0349))).toBe('[[L [L L]] [L L]]');
    expect(shape(pruneCostComplexity(nodes, 0.035))).toBe('[L [L L]]');
    expect(shape(pruneCostComplexity(nodes, 0.045))).toBe('[L [L L]]');
    expect(leafCounts(pruneCostComplexity(nodes, 0.05))).toEqual([
      [50, 10],
      [10, 30],
    ]);
    expect(shape(pruneCostComplexity(nodes, 0.2))).toBe('L');
    expect(shape(pruneCostComplexity(nodes, 5))).toBe('L');
    for (const a of [0, 0.035, 0.05, 0.2]) asModel(pruneCostComplexity(nodes, a));
  });

  it('T(0) drops subtrees that do not lower the training error (g = 0)', () => {
    // B2 [10,5] split into [6,3], [4,2]: 3 + 2 = 5 errors, as many as B2 alone → g = 0.
    const zero = build({
      kids: [
        {
          kids: [
            [45, 2],
            {
              kids: [
                [5, 1],
                [0, 7],
              ],
            },
          ],
        },
        {
          kids: [
            [0, 25],
            {
              kids: [
                [6, 3],
                [4, 2],
              ],
            },
          ],
        },
      ],
    });
    const path = costComplexityPath(zero);
    expect(path[0]).toEqual({ alpha: 0, leaves: 5, trainingError: expect.closeTo(0.08, 14) });
    expect(path.map((p) => p.leaves)).toEqual([5, 3, 2, 1]);
    expect(shape(pruneCostComplexity(zero, 0))).toBe('[[L [L L]] [L L]]');
  });

  it('is on the scale of the root weight: doubling every count leaves α unchanged', () => {
    const doubled = build(spec).map((n) => ({ ...n, counts: n.counts.map((c) => 2 * c) }));
    expect(costComplexityPath(doubled)).toEqual(costComplexityPath(nodes));
  });

  it('DecisionTree.costComplexityPath() and pruning info round-trip through JSON', async () => {
    const data = await readDataset(fixture('taxable-income.csv'), { target: 'Cheat' });
    const tree = fit(data, { algorithm: 'cart', prune: 'cost-complexity', ccpFolds: 3, ccpRule: 'min' });
    const full = fit(data, { algorithm: 'cart', prune: 'none' });
    expect(tree.pruning?.path).toEqual(full.costComplexityPath());
    expect(tree.pruning?.cv?.table.map((r) => r.alpha)).toEqual(full.costComplexityPath().map((p) => p.alpha));
    const again = DecisionTree.fromJSON(JSON.parse(JSON.stringify(tree.toJSON())));
    expect(again.pruning).toEqual(tree.pruning);
    expect(full.pruning).toBeUndefined();
    expect('pruning' in full.toJSON()).toBe(false);
  });
});

describe('pruneTree (the documented API)', () => {
  it('fills options it is not given from DEFAULTS and reports what it did', async () => {
    const { pruneTree, pessimisticError } = await import('../../src/extend.js');
    const nodes = build({
      kids: [
        [6, 0],
        [9, 0],
        [0, 1],
      ],
    });
    const { nodes: pruned, info } = pruneTree(nodes, { options: { prune: 'error-based' } });
    expect(shape(pruned)).toBe('L');
    expect(info).toEqual({
      method: 'error-based',
      leavesBefore: 3,
      leavesAfter: 1,
      confidence: 0.25,
      subtreeRaising: false,
    });
    expect(pessimisticError(pruned)).toBeCloseTo(1.5 / 16, 15);
    const ccp = pruneTree(build(spec), { options: { prune: 'cost-complexity', ccpAlpha: 0.04 } });
    expect(ccp.info).toMatchObject({ method: 'cost-complexity', alpha: 0.04, leavesBefore: 5, leavesAfter: 3 });
    expect(() => pruneTree(build(spec), { options: { prune: 'cost-complexity' } })).toThrow(/cross-validation needs/);
    expect(() => pruneTree(build(spec), { options: { prune: 'reduced-error' } })).toThrow(/validation rows/);
  });
});

describe('cost-complexity on a one-class data set', () => {
  it('the tree is one leaf and no fold is grown to choose α (there is one α)', () => {
    const rows = Array.from({ length: 200 }, (_, i) => [i % 7, (i * 13) % 11]);
    const data = datasetFromRows(rows, { labels: rows.map(() => 'only') });
    let grown = 0;
    const model = fit(data, {}, { onGrown: () => grown++ });
    expect(model.stats().leaves).toBe(1);
    expect(grown).toBe(1);
    expect(model.pruning?.method).toBe('cost-complexity');
    expect(model.pruning?.alpha).toBe(0);
    expect(model.pruning?.cv).toBeUndefined();
  });
});
