import { describe, expect, it } from 'vitest';
import { fit } from '../../src/algorithms/fit.js';
import { mulberry32 } from '../../src/core/random.js';
import { datasetFromRows } from '../../src/data/encode.js';
import { c45Coefficient, collapseTree, leafEstimate } from '../../src/prune/error-based.js';
import { weightedRows } from '../../src/prune/recount.js';
import { Raiser } from '../../src/prune/subtree-raising.js';

/** Seeded data: two numeric features and a categorical one, three classes, `missing` the share of missing values. */
function randomRows(seed: number, n: number, missing: number) {
  const random = mulberry32(seed);
  return Array.from({ length: n }, () => {
    const x = Math.round(random() * 100) / 10;
    const z = Math.round(random() * 50) / 10;
    const c = 'pqrs'[Math.floor(random() * 4)];
    let y = x + (c === 'p' ? 3 : 0) + random() * 4 < 7 ? 'u' : z < 2.5 ? 'v' : 'w';
    if (random() < 0.15) y = 'uvw'[Math.floor(random() * 3)];
    const gap = () => random() < missing;
    return { x: gap() ? null : x, z: gap() ? null : z, c: gap() ? null : c, y };
  });
}

/** The tree C4.5's subtree raising leaves, with the shortcut or routing every row. */
function raised(seed: number, missing: number, weights: (i: number) => number, shortcut: boolean) {
  const data = datasetFromRows(randomRows(seed, 600, missing), { target: 'y' });
  const w = Float64Array.from({ length: data.nRows }, (_, i) => weights(i));
  const grown = fit(data, { algorithm: 'c45', prune: 'none', sampleWeight: w }).nodes;
  const coeff = c45Coefficient(0.25);
  const raiser = new Raiser(
    collapseTree(grown).map((node) => ({ ...node })),
    data,
    (counts) => leafEstimate(counts, 0.25, coeff),
    0.1,
    'fractional',
    false,
    shortcut,
  );
  const estimate = raiser.estimate(0, weightedRows(w), true);
  return { estimate, nodes: JSON.stringify(raiser.nodes) };
}

describe('subtree raising: routing only the other branches’ rows down the largest branch', () => {
  const cases: Array<[string, number, (i: number) => number]> = [
    ['unit weights, no missing values (the shortcut throughout)', 0, () => 1],
    ['whole weights 1–3, no missing values', 0, (i) => 1 + (i % 3)],
    ['unit weights, 1 % missing (rows shared out below a node: every row routed there)', 0.01, () => 1],
    ['fractional weights (never the shortcut)', 0, (i) => 0.5 + (i % 7) / 3],
  ];
  for (const [name, missing, weights] of cases)
    it(`gives C4.5's tree and estimate, bit for bit: ${name}`, () => {
      for (const seed of [1, 2, 3, 4, 5]) {
        const quick = raised(seed, missing, weights, true);
        const full = raised(seed, missing, weights, false);
        expect(quick.nodes).toBe(full.nodes);
        expect(Object.is(quick.estimate, full.estimate)).toBe(true);
      }
    });
});
