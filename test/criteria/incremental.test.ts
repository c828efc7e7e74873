/**
 * The O(1) incremental forms must give the value `evaluate` gives, move by move, and the grower
 * must grow the same tree with or without them.
 */
import { describe, expect, it } from 'vitest';
import { fit } from '../../src/algorithms/fit.js';
import { mulberry32 } from '../../src/core/random.js';
import { listCriteria } from '../../src/criteria/registry.js';
import { tableFromCounts } from '../../src/criteria/table.js';
import type { Criterion } from '../../src/criteria/types.js';
import { datasetFromRows } from '../../src/data/encode.js';

const withIncremental = listCriteria().filter((c) => c.incremental);

describe('incremental forms', () => {
  it('exist for the Gini and entropy families, chi-square, G and DCSM', () => {
    expect(withIncremental.map((c) => c.name).sort()).toEqual(
      [
        'average-gain',
        'chi-square',
        'dcsm',
        'g-statistic',
        'gain-ratio',
        'gini',
        'info-gain',
        'normalized-gain',
      ].sort(),
    );
  });

  for (const crit of withIncremental) {
    it(`${crit.name}: value after every move equals evaluate on the same table`, () => {
      const random = mulberry32(11);
      for (const [k, weighted] of [
        [2, false],
        [3, false],
        [4, true],
      ] as const) {
        const totals = Array.from({ length: k }, () => 1 + Math.floor(random() * 30));
        const entries = totals.flatMap((t, c) =>
          Array.from({ length: t }, () => ({ c, w: weighted ? 0.25 + random() : 1 })),
        );
        const classTotals = new Array(k).fill(0);
        for (const e of entries) classTotals[e.c] += e.w;
        const inc = crit.incremental!();
        inc.reset(classTotals, k);
        const left = new Array(k).fill(0);
        const right = classTotals.slice();
        let nL = 0;
        let nR = classTotals.reduce((a, b) => a + b, 0);
        for (const { c, w } of entries.sort(() => random() - 0.5)) {
          inc.move(c, w, left[c], right[c]);
          left[c] += w;
          right[c] -= w;
          nL += w;
          nR -= w;
          const expected = crit.evaluate(tableFromCounts([left, right.map((x) => Math.max(0, x))]));
          const value = inc.value(nL, nR);
          expect(value).toBeCloseTo(expected, 9);
          if (inc.optimistic) {
            // A bound on the better side of the value, and a tight one (else it skips nothing).
            const bound = inc.optimistic(nL, nR);
            if (crit.better === 'lower') expect(bound).toBeLessThanOrEqual(value);
            else expect(bound).toBeGreaterThanOrEqual(value);
            expect(Math.abs(bound - value)).toBeLessThanOrEqual(0.01 * Math.abs(value));
          }
        }
      }
    });
  }

  it('DCSM: its exp-free bound stays below the value on tables with skewed and tiny shares', () => {
    const form = listCriteria().find((c) => c.name === 'dcsm')!.incremental!();
    const random = mulberry32(13);
    for (let trial = 0; trial < 2000; trial++) {
      const k = 2 + Math.floor(random() * 4);
      const totals = Array.from({ length: k }, () => (random() < 0.3 ? 1e-6 : 1) * Math.floor(1 + random() * 1000));
      form.reset(totals, k);
      const left = new Array(k).fill(0);
      let nL = 0;
      let nR = totals.reduce((a, b) => a + b, 0);
      for (let c = 0; c < k; c++) {
        const w = totals[c] * random();
        form.move(c, w, left[c], totals[c]);
        left[c] += w;
        nL += w;
        nR -= w;
      }
      expect(form.optimistic!(nL, nR)).toBeLessThanOrEqual(form.value(nL, nR));
    }
  });

  it('the grower grows the same trees with and without them', () => {
    const random = mulberry32(12);
    const rows = Array.from({ length: 600 }, () => {
      const a = random();
      const b = Math.round(random() * 12);
      return { a, b, y: a + b / 12 + random() * 0.6 > 1.2 ? 'p' : b % 3 === 0 ? 'q' : 'r' };
    });
    const data = datasetFromRows(rows, { target: 'y' });
    for (const crit of withIncremental) {
      const generic: Criterion = { ...crit, name: `${crit.name}-generic`, incremental: undefined };
      for (const bins of [undefined, 16]) {
        const fast = fit(data, { criterion: crit, prune: 'none', bins });
        const slow = fit(data, { criterion: generic, prune: 'none', bins });
        expect(fast.nodes.map((n) => [n.split, n.counts])).toEqual(slow.nodes.map((n) => [n.split, n.counts]));
      }
    }
  });
});
