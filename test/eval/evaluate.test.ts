import { describe, expect, it } from 'vitest';
import { fit } from '../../src/algorithms/fit.js';
import { datasetFromRows } from '../../src/data/encode.js';
import { crossValidate, crossValidateRepeated } from '../../src/eval/cross-validate.js';
import { evaluate, LOG_LOSS_EPS } from '../../src/eval/evaluate.js';
import { evaluationText } from '../../src/eval/evaluation-text.js';

/** x ≤ 3 is class a, x ≥ 4 class b: any tree splits at 3.5 and predicts with certainty. */
const train = datasetFromRows(
  [0, 1, 2, 3, 4, 5, 6, 7].map((x) => ({ x, y: x <= 3 ? 'a' : 'b' })),
  { target: 'y' },
);
const tree = fit(train, { algorithm: 'id3' });

describe('evaluate', () => {
  it('hand-computed figures, with a class the model never saw counted as errors', () => {
    // Predictions: x=1 → a, x=2 → a, x=5 → b, x=6 → b.
    const test = datasetFromRows(
      [
        { x: 1, y: 'a' },
        { x: 6, y: 'a' },
        { x: 2, y: 'b' },
        { x: 5, y: 'b' },
        { x: 1, y: 'c' },
        { x: 6, y: 'c' },
      ],
      { target: 'y' },
    );
    const e = evaluate(tree, test);
    expect(e.labels).toEqual(['a', 'b', 'c']);
    expect(e.unseenClasses).toEqual(['c']);
    expect(e.unseenRows).toBe(2);
    expect(e.confusion).toEqual([
      [1, 1, 0],
      [1, 1, 0],
      [1, 1, 0],
    ]);
    expect(e.accuracy).toBeCloseTo(2 / 6, 12);
    // Recalls 1/2, 1/2, 0 (c is in the data, so it counts).
    expect(e.balancedAccuracy).toBeCloseTo(1 / 3, 12);
    const a = e.perClass[0];
    expect([a.support, a.predicted, a.precision, a.recall]).toEqual([2, 3, 1 / 3, 1 / 2]);
    // F1 = 2·(1/3)(1/2)/(1/3 + 1/2) = 0.4.
    expect(a.f1).toBeCloseTo(0.4, 12);
    expect(e.perClass[2]).toMatchObject({ label: 'c', support: 2, predicted: 0, f1: 0, unseen: true });
    expect(e.macroF1).toBeCloseTo((0.4 + 0.4 + 0) / 3, 12);
    // Four rows whose class gets probability 0 (two wrong, two unseen), two with probability 1.
    expect(e.logLoss).toBeCloseTo((4 * -Math.log(LOG_LOSS_EPS)) / 6, 9);
    const text = evaluationText(e).join('\n');
    expect(text).toMatch(/classes the model never saw: 'c' \(2 rows, all counted as errors\)/);
    expect(text).toMatch(/^c \(unseen\)\s+0\.0000\s+0\.0000\s+0\.0000\s+2\s+0$/m);
  });

  it('log loss is the mean of −ln p(true class) from predictProba; labels match by text (1 and "1")', () => {
    const rows = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((x) => ({ x, y: x % 3 === 0 ? 1 : 2 }));
    const data = datasetFromRows(rows, { target: 'y' });
    const stump = fit(data, { algorithm: 'cart', maxDepth: 1 });
    const asText = datasetFromRows(
      rows.map((r) => ({ x: r.x, y: String(r.y) })),
      { target: 'y', categorical: ['y'] },
    );
    const e = evaluate(stump, asText);
    expect(e.unseenClasses).toEqual([]);
    const proba = stump.predictProba(data);
    let loss = 0;
    rows.forEach((r, i) => {
      loss -= Math.log(Math.max(LOG_LOSS_EPS, proba[i][stump.classes.indexOf(r.y)]));
    });
    expect(e.logLoss).toBeCloseTo(loss / rows.length, 12);
    expect(e.accuracy).toBeCloseTo(stump.score(data), 12);
  });

  it('refuses a Dataset without rows or labels, naming the caller', () => {
    const empty = { ...train, nRows: 0, labels: new Int32Array(0), features: [] };
    expect(() => evaluate(tree, empty)).toThrow(/evaluate: no rows/);
    expect(() => evaluate(tree, { ...train, labels: new Int32Array(8).fill(-1) })).toThrow(/evaluate/);
  });
});

describe('crossValidateRepeated', () => {
  it('repeat r is crossValidate with seed + r', () => {
    const rows = Array.from({ length: 40 }, (_, i) => ({ x: (i * 7) % 13, z: i % 5, y: (i * 7) % 13 > 6 ? 'p' : 'q' }));
    const data = datasetFromRows(rows, { target: 'y' });
    const strip = <T extends { fitMs: number; predictMs: number }>(fs: T[]) =>
      fs.map(({ fitMs: _a, predictMs: _b, ...rest }) => rest);
    const repeated = crossValidateRepeated(data, { algorithm: 'cart' }, { k: 4, repeats: 2, seed: 5 });
    expect(repeated).toHaveLength(8);
    expect(strip(repeated.filter((f) => f.repeat === 1)).map(({ repeat: _r, ...f }) => f)).toEqual(
      strip(crossValidate(data, { algorithm: 'cart' }, 4, 6)),
    );
    expect(() => crossValidateRepeated(data, {}, { k: 4, repeats: 0, seed: 1 })).toThrow(/repeats must be/);
  });
});
