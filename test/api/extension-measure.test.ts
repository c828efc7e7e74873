import { describe, expect, it } from 'vitest';
import {
  type CountTable,
  type Criterion,
  DecisionTree,
  datasetFromRows,
  fit,
  listCriteria,
  registerCriterion,
} from '../../src/index.js';

// The recipe "add a split measure" of docs/architecture.md, done through the public entry point:
// one Criterion object and one registerCriterion call, and every grower can use it.
const misclassification: Criterion = {
  name: 'toy-misclassification',
  better: 'lower',
  formula: 'sum_v (n_v / n) (1 - max_k n_vk / n_v)',
  source: 'test: the resubstitution error of a split',
  evaluate(t: CountTable): number {
    if (!(t.total > 0)) return 0;
    let errors = 0;
    for (let b = 0; b < t.branches; b++) {
      let max = 0;
      for (let c = 0; c < t.classes; c++) max = Math.max(max, t.counts[b * t.classes + c]);
      errors += t.branchTotals[b] - max;
    }
    return errors / t.total;
  },
};

/** The threshold on `x` that an independent brute force finds: fewest errors, lowest threshold on a tie. */
function bestThreshold(x: number[], y: string[]): number {
  const values = [...new Set(x)].sort((a, b) => a - b);
  let best = { errors: Infinity, t: Number.NaN };
  for (let i = 0; i + 1 < values.length; i++) {
    const t = (values[i] + values[i + 1]) / 2;
    let errors = 0;
    for (const side of [true, false]) {
      const labels = y.filter((_, r) => x[r] <= t === side);
      const counts = new Map<string, number>();
      for (const l of labels) counts.set(l, (counts.get(l) ?? 0) + 1);
      errors += labels.length - Math.max(0, ...counts.values());
    }
    if (errors < best.errors) best = { errors, t };
  }
  return best.t;
}

describe('extension point: a split measure', () => {
  registerCriterion(misclassification);

  it('is listed and grows trees in exact, histogram and multiway modes', () => {
    expect(listCriteria().map((c) => c.name)).toContain('toy-misclassification');
    // Errors: x ≤ 3.5 separates a/b with one mistake; x ≤ 1.5 leaves two.
    const x = [1, 2, 3, 3, 4, 5, 6, 7];
    const y = ['a', 'b', 'a', 'a', 'b', 'b', 'b', 'b'];
    const data = datasetFromRows(
      x.map((v, i) => ({ x: v, colour: i % 2 ? 'red' : 'blue', y: y[i] })),
      { target: 'y' },
    );
    for (const options of [{}, { bins: 4 }, { categoricalSplit: 'multiway' as const }]) {
      const tree = fit(data, { criterion: 'toy-misclassification', prune: 'none', maxDepth: 1, ...options });
      expect(tree.options.criterion).toBe('toy-misclassification');
      const root = tree.nodes[0];
      expect(root.split?.kind).toBe('numeric');
      expect(root.split?.kind === 'numeric' && root.split.thresholds[0]).toBe(bestThreshold(x, y));
      const copy = DecisionTree.fromJSON(JSON.parse(JSON.stringify(tree.toJSON())));
      expect(copy.predict(data)).toEqual(tree.predict(data));
    }
  });
});
