/**
 * Partial dependence and ICE against a direct computation (every row with the feature set to a
 * grid value, predicted through the public API, averaged), the recursion method against the
 * path-dependent value function of the feature alone, and the grids drawn from the data.
 */
import { describe, expect, it } from 'vitest';
import { fit } from '../../src/algorithms/fit.js';
import { partialDependence } from '../../src/explain/partial.js';
import { alignRows } from '../../src/explain/rows.js';
import { pathValue } from './brute-shap.js';
import { rowsOf, synthetic } from './synthetic.js';

const data = synthetic(300, 3, 0.1);
const rows = rowsOf(data);

describe('partial dependence', () => {
  for (const algorithm of ['cart', 'c45', 'id3', 'cmbsv']) {
    for (const feature of ['x0', 'c0']) {
      it(`${algorithm}, ${feature}: brute force and ICE equal predicting every row at each grid value`, () => {
        const tree = fit(data, { algorithm, maxDepth: 6 });
        const pd = partialDependence(tree, data, feature, { kind: 'both', gridResolution: 12 });
        expect(pd.method).toBe('brute');
        const k = tree.classes.length;
        const n = pd.grid.length;
        expect(n).toBeGreaterThan(feature === 'x0' ? 10 : 4);
        let gap = 0;
        pd.grid.forEach((value, g) => {
          const proba = tree.predictProba(
            rows.map((r) => ({ ...r, [feature]: value })),
            { unclassified: 'none' },
          );
          for (let c = 0; c < k; c++) {
            let mean = 0;
            for (let i = 0; i < rows.length; i++) {
              mean += proba[i][c];
              gap = Math.max(gap, Math.abs(pd.individual![(i * n + g) * k + c] - proba[i][c]));
            }
            gap = Math.max(gap, Math.abs(pd.average[g * k + c] - mean / rows.length));
          }
        });
        expect(gap).toBeLessThan(1e-12);
      });

      it(`${algorithm}, ${feature}: recursion equals the value function of the feature alone`, () => {
        const tree = fit(data, { algorithm, maxDepth: 6 });
        const pd = partialDependence(tree, data, feature, { gridResolution: 12 });
        expect(pd.method).toBe('recursion');
        const d = tree.features.findIndex((f) => f.name === feature);
        const swept = pd.grid.map((value) => ({ ...rows[0], [feature]: value }));
        const { columns } = alignRows(tree, swept, undefined, 'test');
        const k = tree.classes.length;
        let gap = 0;
        pd.grid.forEach((_, g) => {
          const v = pathValue(tree.compiled, columns, g, 1 << d);
          for (let c = 0; c < k; c++) gap = Math.max(gap, Math.abs(v[c] - pd.average[g * k + c]));
        });
        expect(gap).toBeLessThan(1e-12);
      });
    }
  }

  it('recursion equals brute force on a tree that splits on the feature alone', () => {
    const one = synthetic(300, 4).features.filter((f) => f.name === 'x0');
    const only = { ...data, features: one };
    const tree = fit(only, { algorithm: 'cart', prune: 'none' });
    const recursion = partialDependence(tree, only, 'x0', { method: 'recursion' });
    const brute = partialDependence(tree, only, 'x0', { method: 'brute' });
    expect(recursion.grid).toEqual(brute.grid);
    for (let j = 0; j < brute.average.length; j++) expect(recursion.average[j]).toBeCloseTo(brute.average[j], 12);
  });

  it('draws numeric grids from quantiles and categorical grids from the data', () => {
    const tree = fit(data, { algorithm: 'cart' });
    const x0 = rows
      .map((r) => r.x0)
      .filter((v): v is number => v !== null)
      .sort((a, b) => a - b);
    const q = (p: number) => {
      const at = p * (x0.length - 1);
      const lo = Math.floor(at);
      return x0[lo] + (at - lo) * (x0[Math.min(lo + 1, x0.length - 1)] - x0[lo]);
    };
    const pd = partialDependence(tree, data, 'x0', { gridResolution: 5, percentiles: [0.1, 0.9] });
    expect(pd.grid).toEqual([0, 1, 2, 3, 4].map((j) => q(0.1 + (0.8 * j) / 4)));
    const all = partialDependence(tree, data, 'x0', { gridResolution: 1000 });
    expect(all.grid).toEqual([...new Set(x0)]);
    const c0 = partialDependence(
      tree,
      rows.slice(0, 40).map((r) => ({ ...r, c0: r.c0 === 'e' ? 'b' : r.c0 })),
      'c0',
    );
    // The categories present (e is not), in the model's order.
    expect(c0.grid).toEqual(tree.features[2].categories!.filter((c) => c !== 'e'));
    expect([...c0.grid].sort()).toEqual(['a', 'b', 'c', 'd']);
    const given = partialDependence(tree, data, 'c0', { grid: ['e', 'a'] });
    expect(given.grid).toEqual(['e', 'a']);
  });

  it('refuses an unknown feature, naming the features, and bad options', () => {
    const tree = fit(data, { algorithm: 'cart' });
    expect(() => partialDependence(tree, data, 'nope')).toThrow(
      "partialDependence: unknown feature 'nope' (the model's features: x0, x1, c0, c1, x2)",
    );
    expect(() => partialDependence(tree, data, 'x0', { kind: 'both', method: 'recursion' })).toThrow(/average only/);
    expect(() => partialDependence(tree, data, 'c0', { grid: ['zz'] })).toThrow(/not a category of 'c0'/);
    expect(() => partialDependence(tree, data, 'x0', { gridResolution: 1 })).toThrow(/gridResolution/);
    expect(() => partialDependence(tree, data, 'x0', { bins: 3 } as never)).toThrow(/unknown option 'bins'/);
  });
});
