/**
 * A forest file of binary numeric splits is compiled for prediction straight from its sections
 * (src/ensemble/forest-compile.ts), its trees made only when asked for: the probabilities are the
 * same bits as the fitted forest's (whose predictor is laid out from its trees), with missing
 * values, on two threads and under either vote; the trees, made later, are the same; and damage the
 * one-pass check meets is refused with the tree reader's own words. Runs against dist/ (the
 * prediction workers load compiled modules).
 */
import { describe, expect, it } from 'vitest';
import { decodeForest, encodeForest } from '../../dist/ensemble/forest-file.js';
import '../../dist/ensemble/threads/parallel-sums.js';
import { fitForest } from '../../dist/node.js';
import type { Dataset } from '../../src/index.js';
import { numericData } from '../learn/numeric-data.js';
import { craftedDamage } from './forest-bytes.js';

function sameBits(a: Float64Array, b: Float64Array): boolean {
  return a.length === b.length && a.every((x, i) => Object.is(x, b[i]));
}

/** Whether the forest has made its trees yet (a forest read for prediction has not). */
const treesMade = (forest: object) => Reflect.get(forest, 'treeList') !== undefined;

describe('a forest compiled from its file', () => {
  it.each(['proba', 'majority'] as const)(
    '%s vote: the same bits as the fitted forest, the trees made later',
    (vote) => {
      const data = numericData(1500, 5) as never;
      const forest = fitForest(data, { trees: 6, seed: 4, vote });
      const back = decodeForest(encodeForest(forest));
      expect(treesMade(back)).toBe(false);
      expect(sameBits(back.predictProbaFlat(data), forest.predictProbaFlat(data))).toBe(true);
      expect(treesMade(back)).toBe(false);
      expect(back.trees.map((t) => t.nodes)).toEqual(forest.trees.map((t) => t.nodes));
      expect(Array.from(back.apply(data))).toEqual(Array.from(forest.apply(data)));
    },
  );

  it('missing values among the rows and the splits: their trees finish them, the same bits', () => {
    const holes = numericData(1500, 6, 'missing') as never;
    for (const missing of ['majority', 'learned'] as const) {
      const forest = fitForest(holes, { trees: 5, seed: 2, missing });
      const back = decodeForest(encodeForest(forest));
      expect(treesMade(back)).toBe(false);
      expect(sameBits(back.predictProbaFlat(holes), forest.predictProbaFlat(holes))).toBe(true);
    }
  });

  it('compiled for two threads as it loads: the same bits on one and two threads', () => {
    const data = numericData(3000, 7) as never;
    const forest = fitForest(data, { trees: 6, seed: 3 });
    const one = forest.predictProbaFlat(data);
    const back = decodeForest(encodeForest(forest), undefined, 2);
    expect(sameBits(back.predictProbaFlat(data, { threads: 2 }), one)).toBe(true);
    expect(sameBits(back.predictProbaFlat(data, { threads: 1 }), one)).toBe(true);
    expect(treesMade(back)).toBe(false);
    // Compiled for one thread, asked for two: laid out again from its trees, the same bits.
    const single = decodeForest(encodeForest(forest));
    expect(sameBits(single.predictProbaFlat(data, { threads: 2 }), one)).toBe(true);
  });

  it('a forest with a categorical feature is read tree by tree, as before', () => {
    const data = numericData(800, 8, 'categorical') as Dataset as never;
    const forest = fitForest(data, { trees: 4, seed: 1, maxFeatures: 21 });
    const back = decodeForest(encodeForest(forest));
    expect(treesMade(back)).toBe(true);
    expect(sameBits(back.predictProbaFlat(data), forest.predictProbaFlat(data))).toBe(true);
  });

  it('damage is refused with the tree reader’s words', () => {
    const bytes = encodeForest(fitForest(numericData(600, 9) as never, { trees: 3, seed: 5 }));
    for (const [name, copy, pattern] of craftedDamage(bytes)) {
      expect(() => decodeForest(copy, 'crafted.grove'), name).toThrow(pattern);
    }
  });
});
