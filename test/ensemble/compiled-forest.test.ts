/**
 * The compiled forest (src/ensemble/compiled-forest.ts) against the per-tree path (`combineTrees`,
 * `applyLeaves`): the same probability bits, votes and leaves on forests of numeric, categorical
 * (multiway and subset), missing-value (majority, learned, fractional) and C-MBSV trees, over more
 * rows than one block.
 */
import { describe, expect, it } from 'vitest';
import { combineTrees, treePolicy } from '../../src/ensemble/combine.js';
import { compileForest, forestBlock } from '../../src/ensemble/compiled-forest.js';
import { fitForest } from '../../src/ensemble/fit-forest.js';
import type { Forest } from '../../src/ensemble/forest.js';
import { type Dataset, datasetFromRows, type PredictOptions } from '../../src/index.js';
import { alignInput } from '../../src/model/align.js';
import { BLOCK } from '../../src/model/fast-routes.js';
import { applyLeaves } from '../../src/model/paths.js';
import { synthetic, withMissing } from './synthetic.js';

/**
 * Every probability bit, vote and leaf of the compiled forest equals the per-tree path's. The
 * forest predicts first, while its fitted trees are not compiled: it reads their stores.
 */
function expectSameAsPerTree(forest: Forest, data: Dataset, options?: PredictOptions): void {
  const compiled = forest.predictProbaFlat(data, options);
  const { columns, nRows } = alignInput(forest.features, data);
  const reference = combineTrees(forest.trees, columns, nRows, forest.settings.vote, options);
  expect(compiled.length).toBe(reference.length);
  let differing = 0;
  for (let i = 0; i < compiled.length; i++) if (!Object.is(compiled[i], reference[i])) differing++;
  expect(differing).toBe(0);
  const leaves = forest.apply(data, options);
  const t = forest.trees.length;
  forest.trees.forEach((tree, j) => {
    const own = applyLeaves(tree.compiled, columns, nRows);
    let wrong = 0;
    for (let i = 0; i < nRows; i++) if (leaves[i * t + j] !== own[i]) wrong++;
    expect(wrong).toBe(0);
  });
}

const rows = 2 * BLOCK + 37; // two whole blocks and a partial one (a partial group of four too)

describe('CompiledForest', () => {
  const data = synthetic(rows, 11);
  const holes = withMissing(rows, 12, 0.15);

  it.each([
    ['numeric and categorical (subset)', {}],
    ['multiway categorical', { categoricalSplit: 'multiway' }],
    ['majority vote', { vote: 'majority' }],
    ['extra trees', { forest: 'extra-trees' }],
  ])('%s: the same probabilities and leaves as tree by tree', (_, options) => {
    const forest = fitForest(data, { trees: 9, seed: 4, ...options });
    expectSameAsPerTree(forest, data);
    expectSameAsPerTree(forest, synthetic(300, 99)); // rows the forest did not see
  });

  it.each(['majority', 'learned', 'fractional'])('missing values (%s): the same as tree by tree', (missing) => {
    const forest = fitForest(holes, { trees: 7, seed: 2, missing, categoricalSplit: 'multiway' });
    expectSameAsPerTree(forest, holes);
    expect(holes.features.some((f) => f.kind === 'numeric' && f.values.some(Number.isNaN))).toBe(true);
  });

  it('C-MBSV trees (unclassified regions, k-NN or not): the same as tree by tree', () => {
    const numeric = synthetic(rows, 8);
    const forest = fitForest(numeric, { algorithm: 'cmbsv', forest: 'bagging', trees: 4, unclassified: 'knn' });
    expect(forest.trees.some((t) => t.nodes.some((n) => n.unclassified))).toBe(true);
    expectSameAsPerTree(forest, numeric);
    expectSameAsPerTree(forest, numeric, { unclassified: 'none' });
    const policies = forest.trees.map((t) => treePolicy(t, { unclassified: 'none' }));
    expect(policies.every((p) => p.unclassified === 'none')).toBe(true);
  });

  it('blocks of any size give the same bits (here 8 rows: many blocks, missing values among them)', () => {
    const forest = fitForest(holes, { trees: 5, seed: 6, missing: 'learned' });
    const { columns, nRows } = alignInput(forest.features, holes);
    const reference = combineTrees(forest.trees, columns, nRows, 'proba');
    const small = compileForest(
      forest.trees.map((t) => t.compiled),
      8,
    );
    const policies = forest.trees.map((t) => treePolicy(t));
    const proba = small.predictProba(columns, nRows, 'proba', policies);
    expect(Array.from(proba, (x, i) => Object.is(x, reference[i])).every(Boolean)).toBe(true);
    expect(Array.from(small.apply(columns, nRows))).toEqual(Array.from(forest.apply(holes)));
    expect(forestBlock(20)).toBe(16384);
    expect(forestBlock(4000)).toBe(256);
  });

  it('a forest of stumps (no numeric split to walk) predicts as tree by tree', () => {
    const one = datasetFromRows(
      Array.from({ length: 40 }, (_, i) => ({ c: ['a', 'b', 'c'][i % 3], y: i % 3 === 0 ? 'p' : 'q' })),
      { target: 'y' },
    );
    const forest = fitForest(one, { trees: 3, seed: 1 });
    expectSameAsPerTree(forest, one);
  });
});
