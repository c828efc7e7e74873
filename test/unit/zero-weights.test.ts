/**
 * Rows of weight 0 are ignored when growing (as in scikit-learn): the tree grown with some rows at
 * weight 0 is the tree grown without those rows, in exact and histogram mode, with C4.5's
 * fractional missing values and with C-MBSV.
 */
import { describe, expect, it } from 'vitest';
import { fit } from '../../src/algorithms/fit.js';
import { datasetFromRows } from '../../src/data/encode.js';
import type { FitOptions } from '../../src/options/types.js';

type Row = { x: number | null; z: number; c: string; y: string };

/** 300 seeded rows; x is sometimes missing. */
function rows(): Row[] {
  let seed = 5;
  const next = () => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return seed / 2 ** 32;
  };
  const out: Row[] = [];
  for (let i = 0; i < 300; i++) {
    const x = Math.round(next() * 50);
    const z = Math.round(next() * 1000) / 10;
    // The first rows (weight 1) name the categories in the same order in both data sets.
    const c = ['p', 'q', 'r', 's'][i < 4 ? i : Math.floor(next() * 4)];
    const y = x + (c === 'p' ? 20 : 0) + next() * 30 > 45 ? 'yes' : 'no';
    out.push({ x: next() < 0.1 ? null : x, z, c, y });
  }
  return out;
}

const CASES: [string, FitOptions][] = [
  ['exact', { prune: 'none', minSamplesLeaf: 3, minSamplesSplit: 8 }],
  ['histogram', { prune: 'none', bins: 16, minSamplesLeaf: 3, minSamplesSplit: 8 }],
  ['c45 fractional', { algorithm: 'c45', prune: 'none', missing: 'fractional', minSamplesLeaf: 3 }],
  ['cmbsv', { algorithm: 'cmbsv', prune: 'none' }],
];

describe('rows of weight 0', () => {
  const all = rows();
  // Every third row after the first four weighs 0; the others weigh 1 or 2.
  const weights = all.map((_, i) => (i >= 4 && i % 3 === 0 ? 0 : 1 + (i % 2)));
  const keptRows = all.filter((_, i) => weights[i] !== 0);
  const keptWeights = weights.filter((w) => w !== 0);
  for (const [name, options] of CASES) {
    it(`change nothing (${name})`, () => {
      const withZeros = fit(datasetFromRows(all), { ...options, sampleWeight: weights });
      const without = fit(datasetFromRows(keptRows), { ...options, sampleWeight: keptWeights });
      expect(without.toJSON().nodes.length).toBeGreaterThan(3);
      expect(withZeros.toJSON().nodes).toEqual(without.toJSON().nodes);
    });
  }
});
