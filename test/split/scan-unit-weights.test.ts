import { describe, expect, it } from 'vitest';
import { fit } from '../../src/algorithms/fit.js';
import { mulberry32 } from '../../src/core/random.js';
import { datasetFromRows } from '../../src/data/encode.js';

// The numeric scan has loops of its own for Gini and the entropy family when every entry weighs 1
// (src/split/numeric.ts). With every weight 2, the general loop runs; Gini's scores are then
// exactly twice as large (powers of two scale exactly), so both loops must choose the same splits.
// The entropy family's scores are not scaled bit for bit, but on this data no two candidates come
// near a tie, so the splits must agree too (the golden models check the bits: 405 identical).
const random = mulberry32(21);
const rows = Array.from({ length: 600 }, () => {
  const a = Math.round(random() * 50) / 10;
  const b = Math.round(random() * 200);
  const c = random();
  const y = a + b / 40 + (random() < 0.2 ? 3 : 0) > 5 ? (c > 0.5 ? 'p' : 'q') : 'r';
  return [a, b, c, y];
});
const data = datasetFromRows(rows, { columns: ['a', 'b', 'c', 'class'] });

/** Each node's split and row count. */
function shape(weight: number, criterion = 'gini') {
  const sampleWeight = new Float64Array(rows.length).fill(weight);
  const tree = fit(data, { algorithm: 'cart', criterion, prune: 'none', sampleWeight });
  return tree.nodes.map((n) => [n.n, n.split ?? null]);
}

describe("the numeric scan's unit-weight loop", () => {
  it('Gini: the same splits as the general loop (every weight 2)', () => {
    const unit = shape(1);
    expect(unit.length).toBeGreaterThan(20);
    expect(shape(2)).toEqual(unit);
  });

  it("C4.5 (J48's rules): the same splits as the general loop (one row weighing 1 + 1e-9)", () => {
    // Weight 2 would change J48's minimum branch weight; a hair over 1 on one row only moves the
    // scores by about 1e-12, far from any tie here, and takes the general loop.
    const c45 = (sampleWeight?: Float64Array) =>
      fit(data, { algorithm: 'c45', prune: 'none', sampleWeight }).nodes.map((n) => [n.n, n.split ?? null]);
    const unit = c45();
    expect(unit.length).toBeGreaterThan(10);
    const nudged = new Float64Array(rows.length).fill(1);
    nudged[7] = 1 + 1e-9;
    expect(c45(nudged)).toEqual(unit);
  });

  it.each(['info-gain', 'gain-ratio', 'g-statistic'])('%s: the same splits as the general loop', (criterion) => {
    const unit = shape(1, criterion);
    expect(unit.length).toBeGreaterThan(20);
    expect(shape(2, criterion)).toEqual(unit);
  });
});
