/**
 * The per-node sorting grower (src/learn/grow-node-sort.ts) grows the presorted grower's trees:
 * forests and single trees with drawn features on numeric data without missing values come out
 * the same, node for node, with it on and off; it is used only where it applies.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mulberry32 } from '../../src/core/random.js';
import { fitForest } from '../../src/ensemble/fit-forest.js';
import { datasetFromRows, fit } from '../../src/index.js';
import { NodeSortGrower } from '../../src/learn/grow-node-sort.js';
import type { FitOptions } from '../../src/options/options.js';
import { numericData } from './numeric-data.js';

/** `grow()` with the grower on and off, and how many trees it grew when on. */
function both<T>(grow: () => T): { on: T; off: T; used: number } {
  const root = vi.spyOn(NodeSortGrower.prototype, 'root');
  NodeSortGrower.enabled = true;
  const on = grow();
  const used = root.mock.calls.length;
  root.mockRestore();
  NodeSortGrower.enabled = false;
  const off = grow();
  return { on, off, used };
}

afterEach(() => {
  NodeSortGrower.enabled = true;
});

const nodes = (trees: { nodes: unknown }[]) => JSON.stringify(trees.map((t) => t.nodes));

describe('per-node sorting grower', () => {
  const data = numericData(1500, 3);
  it.each<[string, FitOptions, number]>([
    ['random forest', { trees: 5, seed: 1 }, 5],
    ['leaf and split minimums, depth', { trees: 4, seed: 2, minSamplesLeaf: 3, minSamplesSplit: 9, maxDepth: 7 }, 4],
    [
      'minimum impurity decrease and leaf weight',
      { trees: 3, seed: 3, minImpurityDecrease: 0.002, minWeightFractionLeaf: 0.01 },
      3,
    ],
    ['best-first (maxLeafNodes)', { trees: 3, seed: 4, maxLeafNodes: 40 }, 3],
    ['a measure scored from the count table (twoing)', { trees: 3, seed: 5, criterion: 'twoing' }, 3],
    [
      'integer sample weights',
      { trees: 3, seed: 6, sampleWeight: Array.from({ length: 1500 }, (_, i) => 1 + (i % 3)) },
      3,
    ],
    ['no bootstrap, log2', { trees: 3, seed: 7, bootstrap: false, maxFeatures: 'log2' }, 3],
    ['entropy (another order rounds otherwise: not used)', { trees: 2, seed: 8, criterion: 'entropy' }, 0],
    ['balanced class weights (fractional weights: not used)', { trees: 2, seed: 9, classWeight: 'balanced' }, 0],
    ['half the features (not used)', { trees: 2, seed: 10, maxFeatures: 0.5 }, 0],
  ])('grows the same forest: %s', (_name, options, grown) => {
    const { on, off, used } = both(() => nodes(fitForest(data, { ...options, threads: 1 }).trees));
    expect(on).toBe(off);
    expect(used).toBe(grown);
  });

  it.each([0, 1, Number.POSITIVE_INFINITY])(
    'Gini scans binned by rank or sorted give the same forest (binsPerRow %s)',
    (bins) => {
      const before = NodeSortGrower.binsPerRow;
      NodeSortGrower.binsPerRow = bins;
      try {
        const options = { trees: 3, seed: 11, minSamplesLeaf: 2, minWeightFractionLeaf: 0.002, threads: 1 };
        const { on, off, used } = both(() => nodes(fitForest(data, options).trees));
        expect(on).toBe(off);
        expect(used).toBe(3);
      } finally {
        NodeSortGrower.binsPerRow = before;
      }
    },
  );

  it('grows the same single tree with drawn features, and is not used without them', () => {
    const drawn = both(() => nodes([fit(data, { maxFeatures: 'sqrt', seed: 3, prune: 'none' })]));
    expect(drawn.on).toBe(drawn.off);
    expect(drawn.used).toBe(1);
    expect(both(() => fit(data, { prune: 'none' })).used).toBe(0);
  });

  it('grows every-feature trees under Gini where every column has at most 256 values', () => {
    const random = mulberry32(5);
    const rows = Array.from({ length: 800 }, () => {
      const y = Math.floor(random() * 3);
      return {
        a: Math.floor(random() * 16),
        b: y + Math.floor(random() * 4),
        c: Math.floor(random() * 40),
        y: `c${y}`,
      };
    });
    const coarse = datasetFromRows(rows, { target: 'y' });
    const single = both(() => nodes([fit(coarse, { prune: 'none' })]));
    expect(single.on).toBe(single.off);
    expect(single.used).toBe(1);
    const forest = both(() => nodes(fitForest(coarse, { trees: 3, seed: 2, maxFeatures: 1, threads: 1 }).trees));
    expect(forest.on).toBe(forest.off);
    expect(forest.used).toBe(3);
    expect(both(() => fit(coarse, { prune: 'none', criterion: 'twoing' })).used).toBe(0);
  });

  it('a forest grown in steps is the forest grown at once', () => {
    const opts = { trees: 5, seed: 11, threads: 1 };
    const once = fitForest(data, opts);
    const warm = fitForest(data, opts, { warmStart: fitForest(data, { ...opts, trees: 2 }) });
    expect(nodes(warm.trees)).toBe(nodes(once.trees));
  });

  it('leaves data with missing values or categorical features to the presorted grower', () => {
    for (const other of [numericData(300, 1, 'missing'), numericData(300, 1, 'categorical')])
      expect(both(() => fitForest(other, { trees: 2, seed: 1, threads: 1 })).used).toBe(0);
  });
});
