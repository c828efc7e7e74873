import { describe, expect, it } from 'vitest';
import { fit } from '../../src/algorithms/fit.js';
import { mulberry32 } from '../../src/core/random.js';
import { datasetFromRows } from '../../src/data/encode.js';
import type { MissingPolicy } from '../../src/options/options.js';
import {
  c45Coefficient,
  collapseTree,
  j48Coefficient,
  leafEstimate,
  pruneErrorBased,
} from '../../src/prune/error-based.js';
import { weightedRows } from '../../src/prune/recount.js';
import { Raiser } from '../../src/prune/subtree-raising.js';

/**
 * Seeded data: two numeric features and a categorical one, three classes, `missing` the share of
 * missing values of `c` (the numeric features, one of them the root's, have none: a row with an
 * unknown branch at the root would leave no node for the shortcut).
 */
function randomRows(seed: number, n: number, missing: number) {
  const random = mulberry32(seed);
  return Array.from({ length: n }, () => {
    const x = Math.round(random() * 100) / 10;
    const z = Math.round(random() * 50) / 10;
    const c = 'pqrs'[Math.floor(random() * 4)];
    let y = x + (c === 'p' ? 3 : 0) + random() * 4 < 7 ? 'u' : z < 2.5 ? 'v' : 'w';
    if (random() < 0.15) y = 'uvw'[Math.floor(random() * 3)];
    const gap = () => random() < missing;
    return { x, z, c: gap() ? null : c, y };
  });
}

interface Case {
  name: string;
  missing: number;
  weights: (i: number) => number;
  /** J48's rules (the c45 preset's `j48Rules`): its coefficient, its leaf estimate, the first of equally heavy branches. */
  j48?: boolean;
  policy?: MissingPolicy;
  /** Whether the shortcut must be taken at least once (over the seeds), or never. */
  shortcut: boolean;
}

/** The tree C4.5's subtree raising leaves, with the shortcut or routing every row, and how often the shortcut ran. */
function raised(seed: number, c: Case, shortcut: boolean) {
  const data = datasetFromRows(randomRows(seed, 600, c.missing), { target: 'y' });
  const w = Float64Array.from({ length: data.nRows }, (_, i) => c.weights(i));
  const policy = c.policy ?? 'fractional';
  const j48 = c.j48 ?? false;
  const grown = fit(data, { algorithm: 'c45', j48Rules: j48, missing: policy, prune: 'none', sampleWeight: w }).nodes;
  const coeff = j48 ? j48Coefficient(0.25) : c45Coefficient(0.25);
  const raiser = new Raiser(
    collapseTree(grown).map((node) => ({ ...node })),
    data,
    (counts) => leafEstimate(counts, 0.25, coeff, j48),
    0.1,
    policy,
    j48,
    shortcut,
  );
  const estimate = raiser.estimate(0, weightedRows(w), true);
  return { estimate, nodes: JSON.stringify(raiser.nodes), shortcuts: raiser.shortcuts };
}

describe('subtree raising: routing only the other branches’ rows down the largest branch', () => {
  const cases: Case[] = [
    { name: 'unit weights, no missing values (the shortcut throughout)', missing: 0, weights: () => 1, shortcut: true },
    { name: 'whole weights 1–3, no missing values', missing: 0, weights: (i) => 1 + (i % 3), shortcut: true },
    { name: 'integer sample weights 0–6, 0 leaving rows out', missing: 0, weights: (i) => (i * 5) % 7, shortcut: true },
    {
      name: 'unit weights, 1 % missing (rows shared out below a node: every row routed there, the shortcut elsewhere)',
      missing: 0.01,
      weights: () => 1,
      shortcut: true,
    },
    { name: 'J48 (the c45 preset), unit weights', missing: 0, weights: () => 1, j48: true, shortcut: true },
    { name: 'J48, whole weights, 1 % missing', missing: 0.01, weights: (i) => 1 + (i % 2), j48: true, shortcut: true },
    {
      name: "missing: 'majority', 2 % missing (the node's missing-value branch)",
      missing: 0.02,
      weights: () => 1,
      policy: 'majority',
      shortcut: true,
    },
    { name: 'fractional weights (never the shortcut)', missing: 0, weights: (i) => 0.5 + (i % 7) / 3, shortcut: false },
  ];
  for (const c of cases)
    it(`gives C4.5's tree and estimate, bit for bit: ${c.name}`, () => {
      let shortcuts = 0;
      for (const seed of [1, 2, 3, 4, 5]) {
        const quick = raised(seed, c, true);
        const full = raised(seed, c, false);
        expect(full.shortcuts).toBe(0);
        shortcuts += quick.shortcuts;
        expect(quick.nodes).toBe(full.nodes);
        expect(Object.is(quick.estimate, full.estimate)).toBe(true);
      }
      if (c.shortcut) expect(shortcuts).toBeGreaterThan(0);
      else expect(shortcuts).toBe(0);
    });
});

describe('subtree raising over grouped rows (a database hands over each group of identical rows once)', () => {
  it('a row standing for r rows of weight 1 (weight r, rowCounts r) gives the tree of the r rows, n included', () => {
    const random = mulberry32(7);
    const unique = randomRows(11, 150, 0);
    const times = unique.map(() => 1 + Math.floor(random() * 4));
    const every = unique.flatMap((row, i) => Array.from({ length: times[i] }, () => row));
    const all = datasetFromRows(every, { target: 'y' });
    const grown = fit(all, { algorithm: 'c45', prune: 'none' }).nodes;
    const options = { subtreeRaising: true, j48: true, missing: 'fractional' as const };
    const ones = new Float64Array(all.nRows).fill(1);
    const byRow = pruneErrorBased(grown, { ...options, data: all, weights: ones });
    const grouped = datasetFromRows(unique, { target: 'y' });
    const r = Float64Array.from(times);
    const byGroup = pruneErrorBased(grown, { ...options, data: grouped, weights: r, rowCounts: r });
    expect(JSON.stringify(byGroup)).toBe(JSON.stringify(byRow));
    expect(byRow.length).toBeLessThan(collapseTree(grown).length);
    // Without the rows each stands for, a node's n would count the groups.
    const counted = pruneErrorBased(grown, { ...options, data: grouped, weights: r });
    expect(counted[0].n).toBe(unique.length);
    expect(byGroup[0].n).toBe(all.nRows);
  });
});
