/**
 * Explanations of a forest (fitForest: trees whose probabilities are averaged): TreeSHAP equals the mean of
 * the trees' brute-force Shapley values and adds up to the forest's probability, partial
 * dependence averages the forest's predictions over rows, permutation importance scores the
 * forest's classes; a majority-vote forest is refused.
 */
import { describe, expect, it } from 'vitest';
import { fitForest } from '../../src/ensemble/fit-forest.js';
import { partialDependence } from '../../src/explain/partial.js';
import { permutationImportance } from '../../src/explain/permutation.js';
import { alignRows } from '../../src/explain/rows.js';
import { shapValues } from '../../src/explain/shap.js';
import { bruteShap } from './brute-shap.js';
import { rowsOf, synthetic } from './synthetic.js';

const data = synthetic(300, 21, 0.1);
const rows = rowsOf(data);
// Missing values spread by C4.5's fractional policy and by the majority branch, bootstraps and feature draws.
const forest = fitForest(data, { trees: 6, maxDepth: 5, seed: 3 });
const fractional = fitForest(data, { algorithm: 'c45', prune: 'none', trees: 4, maxDepth: 4, seed: 4 });
const trees = forest.trees;
const k = forest.classes.length;
const f = forest.features.length;

/** The forest's probabilities: the mean of the trees'. */
function forestProba(input: Record<string, unknown>[]): Float64Array {
  const out = new Float64Array(input.length * k);
  for (const t of trees) {
    const p = t.predictProbaFlat(input, { unclassified: 'none' });
    for (let j = 0; j < out.length; j++) out[j] += p[j] / trees.length;
  }
  return out;
}

describe('forest explanations', () => {
  for (const [name, model] of [
    ['random forest', forest],
    ['C4.5 fractional forest', fractional],
  ] as const)
    it(`${name}: TreeSHAP is the mean of the trees’ Shapley values and adds up to the forest’s probability`, () => {
      const shap = shapValues(model, data);
      const proba = model.predictProbaFlat(rows);
      let brute = 0;
      let local = 0;
      for (let i = 0; i < data.nRows; i++) {
        const mean = new Float64Array(f * k);
        if (i < 40)
          for (const t of model.trees) {
            const { columns } = alignRows(t, data, undefined, 'test');
            const b = bruteShap(t.compiled, columns, i, f);
            for (let j = 0; j < f * k; j++) mean[j] += b[j] / model.trees.length;
          }
        for (let c = 0; c < k; c++) {
          let sum = shap.expected[c];
          for (let j = 0; j < f; j++) {
            sum += shap.values[(i * f + j) * k + c];
            if (i < 40) brute = Math.max(brute, Math.abs(mean[j * k + c] - shap.values[(i * f + j) * k + c]));
          }
          local = Math.max(local, Math.abs(sum - proba[i * k + c]));
        }
      }
      expect(brute).toBeLessThan(1e-9);
      expect(local).toBeLessThan(1e-9);
    });

  it('partial dependence averages the forest’s predictions over rows', () => {
    const pd = partialDependence(forest, data, 'x1', { gridResolution: 8 });
    expect(pd.method).toBe('brute');
    pd.grid.forEach((value, g) => {
      const p = forestProba(rows.map((r) => ({ ...r, x1: value })));
      for (let c = 0; c < k; c++) {
        let mean = 0;
        for (let i = 0; i < rows.length; i++) mean += p[i * k + c];
        expect(pd.average[g * k + c]).toBeCloseTo(mean / rows.length, 12);
      }
    });
    // Recursion on request: the mean of the trees' recursion curves.
    const forestCurve = partialDependence(forest, data, 'x1', { gridResolution: 8, method: 'recursion' });
    const treeCurves = trees.map((t) => partialDependence(t, data, 'x1', { gridResolution: 8 }));
    forestCurve.average.forEach((v, j) => {
      expect(v).toBeCloseTo(treeCurves.reduce((a, t) => a + t.average[j], 0) / trees.length, 12);
    });
  });

  it('permutation importance scores the forest’s classes', () => {
    const pi = permutationImportance(forest, data, { repeats: 2, seed: 3 });
    const p = forestProba(rows);
    let right = 0;
    for (let i = 0; i < rows.length; i++) {
      let best = 0;
      for (let c = 1; c < k; c++) if (p[i * k + c] > p[i * k + best]) best = c;
      if (best === data.labels[i]) right++;
    }
    expect(pi.baseline).toBeCloseTo(right / rows.length, 12);
    expect(Math.max(...pi.mean)).toBeGreaterThan(0);
  });

  it('refuses a forest that votes by majority', () => {
    const majority = fitForest(data, { trees: 2, maxDepth: 2, vote: 'majority' });
    expect(() => shapValues(majority, data)).toThrow(/votes by majority/);
  });
});
