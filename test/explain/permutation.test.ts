/** Permutation importance: the baseline is the model's score, shuffles are seeded and recomputable. */
import { describe, expect, it } from 'vitest';
import { fit } from '../../src/algorithms/fit.js';
import { featureRandom, permutationImportance, shuffleOrder } from '../../src/explain/permutation.js';
import { rowsOf, synthetic } from './synthetic.js';

const data = synthetic(400, 5, 0.05);
const rows = rowsOf(data);
const labels = Array.from(data.labels, (c) => data.classes[c]);

describe('permutation importance', () => {
  const tree = fit(data, { algorithm: 'cart', maxDepth: 4 });
  const used = new Set(tree.nodes.filter((n) => n.split).map((n) => n.split!.feature));

  it('equals the drop in score with each column shuffled by its own seeded generator', () => {
    const pi = permutationImportance(tree, data, { repeats: 3, seed: 7 });
    expect(pi.baseline).toBe(tree.score(data));
    const order = new Int32Array(rows.length);
    tree.features.forEach((f, j) => {
      const random = featureRandom(7, j);
      for (let r = 0; r < 3; r++) {
        shuffleOrder(order, random);
        const shuffled = rows.map((row, i) => ({ ...row, [f.name]: rows[order[i]][f.name] }));
        expect(pi.importances[j * 3 + r]).toBeCloseTo(pi.baseline - tree.score(shuffled, labels), 12);
      }
      const xs = Array.from(pi.importances.subarray(j * 3, j * 3 + 3));
      const mean = xs.reduce((a, b) => a + b, 0) / 3;
      expect(pi.mean[j]).toBeCloseTo(mean, 12);
      expect(pi.sd[j]).toBeCloseTo(Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / 2), 12);
      if (!used.has(j)) expect(Array.from(pi.importances.subarray(j * 3, j * 3 + 3))).toEqual([0, 0, 0]);
    });
    // The top split's feature matters.
    expect(pi.mean[tree.nodes[0].split!.feature]).toBeGreaterThan(0.05);
  });

  it('is deterministic by seed', () => {
    const a = permutationImportance(tree, data, { seed: 1 });
    expect(permutationImportance(tree, data, { seed: 1 }).importances).toEqual(a.importances);
    expect(permutationImportance(tree, data, { seed: 2 }).importances).not.toEqual(a.importances);
  });

  it('refuses bad options and unlabelled input', () => {
    expect(() => permutationImportance(tree, data, { repeats: 0 })).toThrow(/repeats must be an integer ≥ 1/);
    expect(() => permutationImportance(tree, data, { seeds: 1 } as never)).toThrow(/unknown option 'seeds'/);
    expect(() => permutationImportance(tree, rows as never)).toThrow(/permutationImportance/);
  });
});
