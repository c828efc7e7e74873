/**
 * Lazy partitioning of the sorted slices (src/learn/lazy-slices.ts) changes no tree: forests and
 * single trees that draw features per node come out the same, node for node, with it on and off,
 * on data with ties, missing values and a categorical feature.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/core/random.js';
import { fitForest } from '../../src/ensemble/fit-forest.js';
import { type Dataset, datasetFromRows, fit } from '../../src/index.js';
import { NodeGrower } from '../../src/learn/grow.js';
import type { FitOptions } from '../../src/options/options.js';

/** n rows: 12 numeric features (coarse values: many ties; some missing), one categorical, 4 classes. */
function tiedData(n: number, seed: number): Dataset {
  const random = mulberry32(seed);
  const rows = Array.from({ length: n }, () => {
    const y = Math.floor(random() * 4);
    const row: Record<string, unknown> = {};
    for (let f = 0; f < 12; f++) {
      const v = Math.round(((f % 3 === 0 ? y : 0) + random() * 3) * (f < 6 ? 2 : 20)) / 4;
      row[`x${f}`] = f % 4 === 1 && random() < 0.08 ? null : v;
    }
    row.colour = ['red', 'green', 'blue'][(y + Math.floor(random() * 2)) % 3];
    row.y = random() < 0.15 ? `c${Math.floor(random() * 4)}` : `c${y}`;
    return row;
  });
  return datasetFromRows(rows, { target: 'y' });
}

const both = <T>(grow: () => T): [T, T] => {
  NodeGrower.lazySlices = true;
  const lazy = grow();
  NodeGrower.lazySlices = false;
  const eager = grow();
  return [lazy, eager];
};

afterEach(() => {
  NodeGrower.lazySlices = true;
});

describe('lazy partitioning of sorted slices', () => {
  const data = tiedData(600, 7);
  it.each<[string, FitOptions]>([
    ['random forest', { trees: 6, seed: 1 }],
    ['max features 2', { trees: 4, seed: 2, maxFeatures: 2 }],
    [
      'log2, entropy, leaf minimum',
      { trees: 4, seed: 3, maxFeatures: 'log2', criterion: 'info-gain', minSamplesLeaf: 2 },
    ],
    ['learned missing branch', { trees: 4, seed: 4, missing: 'learned' }],
    ['extra trees', { trees: 4, seed: 5, forest: 'extra-trees' }],
  ])('grows the same forest: %s', (_name, options) => {
    const [lazy, eager] = both(() =>
      JSON.stringify(fitForest(data, { ...options, threads: 1 }).trees.map((t) => t.nodes)),
    );
    expect(lazy).toBe(eager);
  });

  it('grows the same single tree with drawn features', () => {
    const [lazy, eager] = both(() => JSON.stringify(fit(data, { maxFeatures: 3, seed: 11, prune: 'none' }).nodes));
    expect(lazy).toBe(eager);
    expect(JSON.parse(lazy).length).toBeGreaterThan(50);
  });
});
