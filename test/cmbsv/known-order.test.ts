import { describe, expect, it } from 'vitest';
import { columnRanks, knownByRank, knownBySort } from '../../src/algorithms/cmbsv/known-order.js';
import { mulberry32 } from '../../src/core/random.js';
import { argsortNumeric } from '../../src/split/argsort.js';

describe("a node's known rows in a column's order", () => {
  it('through the places (sorted or marked) as by a comparator sort: ascending, ties by row, missing and weight 0 left out', () => {
    const random = mulberry32(13);
    const n = 5000;
    const x = Float64Array.from({ length: n }, () => (random() < 0.05 ? NaN : Math.round(random() * 400) / 4));
    const weights = Float64Array.from({ length: n }, () => (random() < 0.05 ? 0 : 1));
    const ranks = columnRanks(argsortNumeric(x));
    // Node sizes from a few rows (sorted) to nearly all (marked), rows ascending as a grower keeps them.
    for (const share of [0.002, 0.02, 0.2, 0.9, 1]) {
      const rows = Int32Array.from({ length: n }, (_, i) => i).filter(() => random() < share);
      const expected = Array.from(knownBySort(x, rows, weights));
      expect(expected.length).toBeGreaterThan(0);
      expect(Array.from(knownByRank(x, rows, weights, ranks))).toEqual(expected);
    }
    // A node whose rows hold a narrow band of the column's values: few places between its extremes.
    const band = Int32Array.from(ranks.order.subarray(1000, 1400)).sort();
    expect(Array.from(knownByRank(x, band, weights, ranks))).toEqual(Array.from(knownBySort(x, band, weights)));
  });
});
