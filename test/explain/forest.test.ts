/**
 * Explanations of a forest (trees whose probabilities are averaged): TreeSHAP equals the mean of
 * the trees' brute-force Shapley values and adds up to the forest's probability, partial
 * dependence averages the forest's predictions over rows, permutation importance scores the
 * forest's classes; a majority-vote forest is refused.
 */
import { describe, expect, it } from 'vitest';
import { fit } from '../../src/algorithms/fit.js';
import type { TreeEnsemble } from '../../src/explain/model.js';
import { partialDependence } from '../../src/explain/partial.js';
import { permutationImportance } from '../../src/explain/permutation.js';
import { alignRows } from '../../src/explain/rows.js';
import { shapValues } from '../../src/explain/shap.js';
import { bruteShap } from './brute-shap.js';
import { rowsOf, synthetic } from './synthetic.js';

const data = synthetic(300, 21, 0.1);
const rows = rowsOf(data);
const trees = [
  fit(data, { algorithm: 'cart', prune: 'none', maxDepth: 4 }),
  fit(data, { algorithm: 'id3', maxDepth: 3 }),
  fit(data, { algorithm: 'c45', prune: 'none', maxDepth: 4 }),
  fit(data, { algorithm: 'cmbsv', maxDepth: 3 }),
];
const forest: TreeEnsemble = {
  target: trees[0].target,
  features: trees[0].features,
  classes: trees[0].classes,
  trees,
  settings: { vote: 'proba' },
};
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
  it('TreeSHAP is the mean of the trees’ Shapley values and adds up to the forest’s probability', () => {
    const shap = shapValues(forest, data);
    const proba = forestProba(rows);
    let brute = 0;
    let local = 0;
    for (let i = 0; i < data.nRows; i++) {
      const mean = new Float64Array(f * k);
      if (i < 40)
        for (const t of trees) {
          const { columns } = alignRows(t, data, undefined, 'test');
          const b = bruteShap(t.compiled, columns, i, f);
          for (let j = 0; j < f * k; j++) mean[j] += b[j] / trees.length;
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
    const majority = { ...forest, settings: { vote: 'majority' } };
    expect(() => shapValues(majority, data)).toThrow(/votes by majority/);
  });
});
