/**
 * Rows of weight 0 are ignored when growing (as in scikit-learn): the tree grown with some rows at
 * weight 0 is the tree grown without those rows, in exact and histogram mode, with C4.5's
 * fractional missing values and with C-MBSV.
 */
import { describe, expect, it } from 'vitest';
import { fit } from '../../src/algorithms/fit.js';
import { datasetFromRows } from '../../src/data/encode.js';
import type { FitOptions } from '../../src/options/types.js';
import { BUILTIN_PRUNERS } from '../../src/prune/index.js';
import { recount } from '../../src/prune/recount.js';

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

describe('rows of weight 0 and pruning', () => {
  const all = rows();
  const weights = all.map((_, i) => 1 + (i % 2));
  // The same data with extra rows of weight 0, spread through it: pruning must see only the others.
  const withExtra: Row[] = [];
  const extraWeights: number[] = [];
  all.forEach((row, i) => {
    withExtra.push(row);
    extraWeights.push(weights[i]);
    if (i >= 4 && i % 4 === 0) {
      withExtra.push({ ...all[(i * 7) % all.length], y: row.y === 'yes' ? 'no' : 'yes' });
      extraWeights.push(0);
    }
  });
  const pruners = BUILTIN_PRUNERS.map((p) => p.name).filter((name) => name !== 'none');
  it.each(pruners)('change nothing with prune %s', (prune) => {
    const options: FitOptions = { prune, minSamplesLeaf: 2, ...(prune === 'error-based' ? { algorithm: 'c45' } : {}) };
    const plain = fit(datasetFromRows(all), { ...options, sampleWeight: weights });
    const extra = fit(datasetFromRows(withExtra), { ...options, sampleWeight: extraWeights });
    expect(plain.toJSON().nodes.length).toBeGreaterThan(1);
    expect(extra.toJSON().nodes).toEqual(plain.toJSON().nodes);
    expect(extra.toJSON().pruning).toEqual(plain.toJSON().pruning);
  });
});

describe('recount', () => {
  it('leaves rows of weight 0 out of every node, as growing does', () => {
    const all = rows();
    const weights = all.map((_, i) => (i >= 4 && i % 5 === 0 ? 0 : 1));
    const data = datasetFromRows(all);
    const nodes = fit(data, { algorithm: 'c45', prune: 'none' }).toJSON().nodes;
    const keptIdx = all.flatMap((_, i) => (weights[i] !== 0 ? [i] : []));
    const kept = datasetFromRows(keptIdx.map((i) => all[i]));
    const counted = recount(nodes, data, weights);
    expect(counted[0].n).toBe(keptIdx.length);
    expect(counted).toEqual(recount(nodes, kept, new Float64Array(keptIdx.length).fill(1)));
    expect(recount(nodes, data, weights, [0, 1, 5, 10])[0].n).toBe(2);
  });
});
