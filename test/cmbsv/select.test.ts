import { describe, expect, it } from 'vitest';
import { cmbsvSplit } from '../../src/algorithms/cmbsv/index.js';
import { bestFeature, correlationScore, cramersV, featureScores } from '../../src/algorithms/cmbsv/select.js';
import { datasetFromRows } from '../../src/data/encode.js';

const all = (n: number) => Int32Array.from({ length: n }, (_, i) => i);
const ones = (n: number) => new Float64Array(n).fill(1);
const ordinal = { labelCoding: 'ordinal' as const, correlationCentring: false };
const pearson = { labelCoding: 'ordinal' as const, correlationCentring: true };

describe('eq. 10: the feature of largest |⟨X/‖X‖, Y/‖Y‖⟩|', () => {
  // Labels 0, 0, 1, 1 → Y = 1, 1, 2, 2 (class index + 1); ‖Y‖² = 10.
  const labels = Int32Array.from([0, 0, 1, 1]);
  const a = Float64Array.from([1, 3, 2, 4]); // ⟨a, Y⟩ = 1 + 3 + 4 + 8 = 16, ‖a‖² = 30
  const b = Float64Array.from([100, 100, 101, 100.5]);

  it('as written (no centring): the cosine of the raw vectors', () => {
    expect(correlationScore(a, labels, 2, all(4), ones(4), ordinal)).toBeCloseTo(16 / Math.sqrt(30 * 10), 14);
    // b is almost constant, yet its cosine with Y is large: ⟨b, Y⟩ / (‖b‖ ‖Y‖).
    const bY = 100 + 100 + 202 + 201;
    const bb = 100 ** 2 * 2 + 101 ** 2 + 100.5 ** 2;
    expect(correlationScore(b, labels, 2, all(4), ones(4), ordinal)).toBeCloseTo(bY / Math.sqrt(bb * 10), 14);
  });

  it("centred (LARS's standardisation, the default): Pearson's r", () => {
    // a − 2.5 = (−1.5, .5, −.5, 1.5), Y − 1.5 = (−.5, −.5, .5, .5): ⟨·,·⟩ = 1, ‖·‖² = 5 and 1.
    expect(correlationScore(a, labels, 2, all(4), ones(4), pearson)).toBeCloseTo(1 / Math.sqrt(5), 14);
    // b − 100.375 = (−.375, −.375, .625, .125): ⟨·, Y − 1.5⟩ = .75, ‖·‖² = .6875.
    expect(correlationScore(b, labels, 2, all(4), ones(4), pearson)).toBeCloseTo(0.75 / Math.sqrt(0.6875), 14);
  });

  it('selects the largest score, the first feature on a tie, and never a constant feature', () => {
    const data = datasetFromRows([
      [5, 1, 1, 7, 'p'],
      [5, 3, 3, 7, 'p'],
      [5, 2, 2, 7, 'q'],
      [5, 4, 4, 7, 'q'],
    ]);
    const scores = featureScores(data.features, data.labels, 2, all(4), ones(4), ordinal);
    expect(scores[0]).toBe(-Infinity); // constant: cosine 1 with anything positive, but cannot split
    expect(scores[3]).toBe(-Infinity);
    expect(scores[1]).toBeCloseTo(scores[2], 14);
    expect(bestFeature(scores)).toBe(1);
    expect(cmbsvSplit(data).feature).toBe(1);
  });

  it('missing values: the score uses the rows whose value is known', () => {
    const x = Float64Array.from([1, 3, NaN, 2, 4]);
    const y = Int32Array.from([0, 0, 1, 1, 1]);
    const known = Int32Array.from([0, 1, 3, 4]);
    expect(correlationScore(x, y, 2, all(5), ones(5), pearson)).toBeCloseTo(
      correlationScore(x, y, 2, known, ones(5), pearson),
      14,
    );
  });

  it('label coding: 1..n misses a middle class that one-vs-rest sees', () => {
    // Class 1 (the middle number) sits high on x; classes 0 and 2 low: centred ordinal r = 0.
    const x = Float64Array.from([0, 1, 5, 6, 0, 1]);
    const y = Int32Array.from([0, 0, 1, 1, 2, 2]);
    const rOrd = correlationScore(x, y, 3, all(6), ones(6), pearson);
    const rOvr = correlationScore(x, y, 3, all(6), ones(6), { labelCoding: 'one-vs-rest', correlationCentring: true });
    expect(rOrd).toBeCloseTo(0, 14);
    expect(rOvr).toBeGreaterThan(0.95);
  });

  it("unordered categorical features: chi-square association as Cramér's V", () => {
    const y = Int32Array.from([0, 0, 1, 1]);
    expect(cramersV(Int32Array.from([0, 0, 1, 1]), 2, y, 2, all(4), ones(4))).toBeCloseTo(1, 14);
    expect(cramersV(Int32Array.from([0, 1, 0, 1]), 2, y, 2, all(4), ones(4))).toBeCloseTo(0, 14);
    expect(cramersV(Int32Array.from([1, 1, 1, 1]), 2, y, 2, all(4), ones(4))).toBe(-Infinity);
    // 2 × 2: V = |φ| = |Pearson r| of the indicators (here r = ½ / √¾ = 1/√3).
    const v = cramersV(Int32Array.from([0, 0, 1, 0]), 2, y, 2, all(4), ones(4));
    const r = correlationScore(Float64Array.from([0, 0, 1, 0]), y, 2, all(4), ones(4), pearson);
    expect(v).toBeCloseTo(r, 14);
    expect(v).toBeCloseTo(1 / Math.sqrt(3), 14);
  });
});
