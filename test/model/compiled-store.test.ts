/**
 * `CompiledTree` reads a grower's `TreeStore` from its arrays, without node objects: every array
 * it builds must be the one it builds from the same tree's node objects (dense and sparse class
 * weights, numeric, subset and multiway splits, missing values, fractional and class weights).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { fit } from '../../src/algorithms/fit.js';
import { datasetFromRows } from '../../src/data/encode.js';
import { CompiledTree } from '../../src/model/compiled.js';
import type { DecisionTree } from '../../src/model/decision-tree.js';
import { arraySource, TreeStore } from '../../src/model/store.js';
import type { FitOptions } from '../../src/options/options.js';

const DEFAULT_SPARSE_ABOVE = TreeStore.sparseAbove;
afterEach(() => {
  TreeStore.sparseAbove = DEFAULT_SPARSE_ABOVE;
});

/** Seeded rows: numbers, a category (with one value only some classes reach), missing cells. */
function data(classes: number, rows: number) {
  let seed = classes * 7919 + rows;
  const next = () => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return seed / 2 ** 32;
  };
  return datasetFromRows(
    Array.from({ length: rows }, (_, i) => {
      const c = i % classes;
      return {
        a: next() < 0.08 ? '' : String(c + next() * 9),
        b: ((c * 7) % 13) + next() * 4,
        g: next() < 0.08 ? '' : `v${(c + Math.floor(next() * 4)) % 7}`,
        y: `k${c}`,
      };
    }),
  );
}

const ARRAYS = [
  'kind',
  'feature',
  'firstChild',
  'paramStart',
  'paramCount',
  'thresholds',
  'codeBranch',
  'branches',
  'proba',
  'classOf',
  'missingBranch',
  'share',
  'unclassified',
] as const;

function compiledBoth(tree: DecisionTree): [CompiledTree, CompiledTree] {
  const store = (tree as unknown as { tree: unknown }).tree;
  expect(store).toBeInstanceOf(TreeStore);
  const s = store as TreeStore;
  const k = tree.classes.length;
  return [new CompiledTree(s, tree.features, k), new CompiledTree(arraySource(s.toNodes()), tree.features, k)];
}

const CASES: [string, number, FitOptions][] = [
  ['binary subsets, majority', 3, { prune: 'none' }],
  ['multiway categories, info gain', 4, { prune: 'none', categoricalSplit: 'multiway', criterion: 'info-gain' }],
  ['learned missing values, class weights', 5, { prune: 'none', missing: 'learned', classWeight: 'balanced' }],
  ['fractional missing values', 3, { prune: 'none', missing: 'fractional', criterion: 'gain-ratio' }],
  ['histogram mode, depth 4', 6, { prune: 'none', bins: 8, maxDepth: 4 }],
];

describe('CompiledTree from a TreeStore equals CompiledTree from its node objects', () => {
  for (const sparse of [false, true])
    for (const [name, classes, options] of CASES)
      it(`${name}, ${classes} classes, ${sparse ? 'sparse' : 'dense'} counts`, () => {
        TreeStore.sparseAbove = sparse ? 0 : 1e9;
        const tree = fit(data(classes, 400), options);
        TreeStore.sparseAbove = DEFAULT_SPARSE_ABOVE;
        const [fromStore, fromNodes] = compiledBoth(tree);
        expect(fromStore.kind.length).toBeGreaterThan(5);
        for (const key of ARRAYS) expect(Array.from(fromStore[key]), key).toEqual(Array.from(fromNodes[key]));
      });
});
