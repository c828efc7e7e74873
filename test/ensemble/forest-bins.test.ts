/**
 * Histogram mode in a forest: the rows are binned once and every tree grows on those codes over
 * its own rows. Without a bootstrap each tree is the tree `fit` grows alone with the tree's seed;
 * with one, each tree holds its bootstrap's rows, and the bins do not depend on the tree.
 */
import { describe, expect, it } from 'vitest';
import { treeSeed } from '../../src/ensemble/draws.js';
import { fitForest } from '../../src/ensemble/fit-forest.js';
import { fit } from '../../src/index.js';
import { synthetic } from './synthetic.js';

const data = synthetic(600, 13);

describe('forest histogram bins', () => {
  it('without a bootstrap, every tree is the tree fit grows alone with its seed', () => {
    const forest = fitForest(data, { trees: 4, bootstrap: false, bins: 16, seed: 5 });
    forest.trees.forEach((tree, i) => {
      const alone = fit(data, { bins: 16, maxFeatures: 'sqrt', prune: 'none', seed: treeSeed(5, i) });
      expect(JSON.stringify(tree.nodes)).toBe(JSON.stringify(alone.nodes));
    });
  });

  it('with a bootstrap, each root holds its sample; thresholds come from one set of bin edges', () => {
    const forest = fitForest(data, { trees: 5, bins: 8, seed: 3, maxDepth: 3 });
    const thresholds = new Map<number, Set<number>>();
    for (const tree of forest.trees) {
      expect(tree.nodes[0].n).toBeLessThan(data.nRows);
      expect(tree.nodes[0].counts.reduce((a, b) => a + b, 0)).toBe(data.nRows); // bootstrap counts as weights
      for (const node of tree.nodes)
        if (node.split?.kind === 'numeric') {
          const seen = thresholds.get(node.split.feature) ?? new Set<number>();
          for (const t of node.split.thresholds) seen.add(t);
          thresholds.set(node.split.feature, seen);
        }
    }
    // 8 bins: at most 7 cut points a feature, whichever tree splits on it.
    for (const seen of thresholds.values()) expect(seen.size).toBeLessThanOrEqual(7);
    expect(forest.score(data)).toBeGreaterThan(0.8);
  });

  it('a histogram forest grown in steps is the forest grown at once', () => {
    const options = { bins: 32, seed: 9, oobScore: true } as const;
    const small = fitForest(data, { ...options, trees: 2 });
    const warm = fitForest(data, { ...options, trees: 5 }, { warmStart: small });
    const once = fitForest(data, { ...options, trees: 5 });
    expect(JSON.stringify(warm.trees.map((t) => t.nodes))).toBe(JSON.stringify(once.trees.map((t) => t.nodes)));
    expect(warm.oob?.score).toBe(once.oob?.score);
  });
});
