/**
 * The histogram grower for drawn features (src/learn/grow-hist-drawn.ts) grows `HistGrower`'s
 * trees: with whole-number weights (a bootstrap's counts) each feature's histogram is the same
 * whether built from the node's rows or by subtraction, and a small node's rows sorted by one
 * feature's code are in the same order as the small subtree's sorted rows partitioned down.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/core/random.js';
import { growNodes } from '../../src/learn/best-first.js';
import { HistGrower } from '../../src/learn/grow-hist.js';
import { DrawnHistGrower } from '../../src/learn/grow-hist-drawn.js';
import { binAll } from '../../src/learn/hist-layout.js';
import { TreeStore } from '../../src/model/store.js';
import { resolveOptions } from '../../src/options/options.js';
import { synthetic } from '../ensemble/synthetic.js';

const data = synthetic(3000, 21);

/** A tree grown by `Grower` over rows drawn with replacement (their counts as weights). */
function grow(Grower: typeof HistGrower, bins: number, seed: number, maxLeafNodes?: number): string {
  const opts = resolveOptions({ bins, maxFeatures: 'sqrt', prune: 'none', seed, maxLeafNodes });
  const weights = new Float64Array(data.nRows);
  const random = mulberry32(seed);
  for (let i = 0; i < data.nRows; i++) weights[Math.floor(random() * data.nRows)]++;
  const rows = Int32Array.from({ length: data.nRows }, (_, r) => r).filter((r) => weights[r] > 0);
  const layout = { ...binAll(data, bins), rows };
  const k = data.classes.length;
  const grower = new Grower(data.features, layout, data.labels, weights, k, opts, rows.length);
  const store = growNodes(grower, TreeStore.root(k), grower.rootEntry(), opts.maxLeafNodes, opts.criterionImpl);
  return JSON.stringify(store);
}

describe('drawn-feature histogram grower', () => {
  it.each([
    ['255 bins', 255, 1, undefined],
    ['16 bins', 16, 2, undefined],
    ['best-first, 40 leaves', 255, 3, 40],
  ])('grows the histogram grower’s tree (%s)', (_, bins, seed, leaves) => {
    const drawn = grow(DrawnHistGrower, bins, seed, leaves);
    expect(drawn).toBe(grow(HistGrower, bins, seed, leaves));
    expect(drawn.length).toBeGreaterThan(1000);
  });
});
