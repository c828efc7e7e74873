/**
 * Forests (src/ensemble/): every kind fits and predicts, is deterministic from its seed, grows the
 * same trees when grown in steps (warmStart), scores out of bag as a direct computation from the
 * bootstrap draws does, and refuses bad settings with one line naming the option.
 */
import { describe, expect, it } from 'vitest';
import { listCriteria } from '../../src/criteria/registry.js';
import { bootstrapCounts } from '../../src/ensemble/draws.js';
import { fitForest } from '../../src/ensemble/fit-forest.js';
import type { Forest } from '../../src/ensemble/forest.js';
import { type Dataset, datasetFromRows, fit, GroveError } from '../../src/index.js';
import { synthetic } from './synthetic.js';

const data = synthetic(300, 5);
const KINDS = ['random-forest', 'extra-trees', 'bagging', 'random-subspace'] as const;

function treesJson(forest: Forest): string {
  return JSON.stringify(forest.trees.map((t) => t.nodes));
}

describe('fitForest', () => {
  it.each(KINDS)('%s fits, predicts, and is the same forest from the same seed', (kind) => {
    const a = fitForest(data, { forest: kind, trees: 12, seed: 3 });
    const b = fitForest(data, { forest: kind, trees: 12, seed: 3 });
    const c = fitForest(data, { forest: kind, trees: 12, seed: 4 });
    expect(a.trees).toHaveLength(12);
    expect(treesJson(a)).toBe(treesJson(b));
    expect(treesJson(a)).not.toBe(treesJson(c));
    const proba = a.predictProbaFlat(data);
    for (let i = 0; i < data.nRows; i++) {
      const s = proba[3 * i] + proba[3 * i + 1] + proba[3 * i + 2];
      expect(s).toBeCloseTo(1, 12);
    }
    expect(a.score(data)).toBeGreaterThan(0.9);
    expect(a.predict(data)).toHaveLength(data.nRows);
    expect(a.apply(data)).toHaveLength(data.nRows * 12);
  });

  it('uses the defaults of scikit-learn’s RandomForestClassifier', () => {
    const f = fitForest(data, { trees: 2 });
    expect(f.settings).toMatchObject({ kind: 'random-forest', bootstrap: true, oobScore: false, vote: 'proba' });
    expect(f.options).toMatchObject({ criterion: 'gini', prune: 'none', maxFeatures: 'sqrt', minSamplesLeaf: 1 });
    expect(fitForest(data).trees).toHaveLength(100);
  });

  it('extra trees draw thresholds inside the node’s range; the trees differ from best-split trees', () => {
    const extra = fitForest(data, { forest: 'extra-trees', trees: 3, seed: 1 });
    const tree = extra.trees[0];
    expect(tree.options.splitter).toBe('random');
    // The root's numeric children see every row of their branch: check the first numeric split.
    const node = tree.nodes.find((n) => n.split?.kind === 'numeric')!;
    const f = node.split!.feature;
    const col = data.features[f] as { values: Float64Array };
    const t = (node.split as { thresholds: number[] }).thresholds[0];
    expect(t).toBeGreaterThanOrEqual(Math.min(...col.values));
    expect(t).toBeLessThan(Math.max(...col.values));
    // Not a midpoint between two training values, as a best split's threshold would be.
    const sorted = Float64Array.from(col.values).sort();
    const midpoints = new Set<number>();
    for (let i = 1; i < sorted.length; i++) midpoints.add(sorted[i - 1] / 2 + sorted[i] / 2);
    expect(midpoints.has(t)).toBe(false);
    const best = fitForest(data, { forest: 'extra-trees', splitter: 'best', trees: 3, seed: 1 });
    expect(treesJson(best)).not.toBe(treesJson(extra));
  });

  it('extra trees split a categorical feature by a random subset of its values', () => {
    const rows = Array.from({ length: 120 }, (_, i) => ({
      c: `v${i % 6}`,
      y: i % 6 < 2 ? 'a' : i % 6 < 4 ? 'b' : 'c',
    }));
    const cats = datasetFromRows(rows, { target: 'y' });
    const roots = (splitter: 'best' | 'random') =>
      new Set(
        fitForest(cats, { forest: 'extra-trees', splitter, trees: 10, maxFeatures: 1 }).trees.map((t) =>
          JSON.stringify(t.nodes[0].split),
        ),
      );
    expect(roots('best').size).toBe(1);
    expect(roots('random').size).toBeGreaterThan(1);
    const forest = fitForest(cats, { forest: 'extra-trees', trees: 10 });
    expect(forest.score(cats)).toBe(1);
  });

  it('random subspaces give each tree its own feature subset', () => {
    const f = fitForest(data, { forest: 'random-subspace', trees: 8, maxFeatures: 2 });
    const subsets = new Set<string>();
    for (const tree of f.trees) {
      const used = new Set(tree.nodes.filter((n) => n.split).map((n) => n.split!.feature));
      expect(used.size).toBeLessThanOrEqual(2);
      subsets.add([...used].sort().join());
    }
    expect(subsets.size).toBeGreaterThan(1);
  });

  it('warmStart grows the forest that growing at once gives', () => {
    const opts = { trees: 7, seed: 11, oobScore: true } as const;
    const small = fitForest(data, { ...opts, trees: 3 });
    const warm = fitForest(data, opts, { warmStart: small });
    const once = fitForest(data, opts);
    expect(treesJson(warm)).toBe(treesJson(once));
    expect(warm.trees.slice(0, 3)).toEqual(small.trees);
    expect(Array.from(warm.predictProbaFlat(data))).toEqual(Array.from(once.predictProbaFlat(data)));
    expect(warm.oob?.score).toBe(once.oob?.score);
    expect(() => fitForest(data, { ...opts, criterion: 'entropy' }, { warmStart: small })).toThrow(/tree options/);
    expect(() => fitForest(data, { ...opts, vote: 'majority' }, { warmStart: small })).toThrow(/forest options/);
  });

  it('the OOB score equals a direct computation from the bootstrap draws', () => {
    const forest = fitForest(data, { trees: 15, seed: 9, oobScore: true, maxSamples: 0.8 });
    const n = data.nRows;
    const samples = Math.round(0.8 * n);
    const draws = forest.trees.map((_, t) => bootstrapCounts(9, t, n, samples));
    let right = 0;
    let rows = 0;
    for (let r = 0; r < n; r++) {
      const sum = [0, 0, 0];
      let m = 0;
      for (let t = 0; t < forest.trees.length; t++) {
        if (draws[t][r] > 0) continue;
        const p = forest.trees[t].predictProbaFlat({ ...data, ...rowOf(data, r) });
        for (let c = 0; c < 3; c++) sum[c] += p[c];
        m++;
      }
      if (m === 0) continue;
      rows++;
      const best = sum.indexOf(Math.max(...sum));
      if (best === data.labels[r]) right++;
    }
    expect(forest.oob!.rows).toBe(rows);
    expect(forest.oob!.score).toBe(right / rows);
    expect(rows).toBeGreaterThan(0.9 * n);
  });

  it('feature importances (MDI) sum to 1 and rank the noise features last', () => {
    const imp = fitForest(data, { trees: 20 }).featureImportances();
    const sum = Object.values(imp).reduce((a, b) => a + b, 0);
    expect(sum).toBeCloseTo(1, 12);
    const last3 = Object.entries(imp)
      .sort((a, b) => b[1] - a[1])
      .slice(-3)
      .map(([name]) => name);
    expect(last3.sort()).toEqual(['x3', 'x4', 'x5']);
  });

  it('majority vote gives vote shares', () => {
    const f = fitForest(data, { trees: 8, vote: 'majority' });
    expect(Array.from(f.predictProbaFlat(data)).every((p) => Math.abs(p * 8 - Math.round(p * 8)) < 1e-12)).toBe(true);
  });

  it('balancedSubsample weighs each bootstrap sample’s classes evenly', () => {
    const f = fitForest(data, { trees: 4, classWeight: 'balancedSubsample' });
    const root = f.trees[0].nodes[0].counts;
    const total = root.reduce((a, b) => a + b, 0);
    for (const c of root) expect(c / total).toBeCloseTo(1 / 3, 10);
  });

  it.each(listCriteria().map((c) => c.name))('a forest of %s trees fits and predicts', (criterion) => {
    const f = fitForest(data, { criterion, trees: 3, seed: 2 });
    expect(f.score(data)).toBeGreaterThan(0.6);
  });

  it('a forest of C-MBSV trees fits and predicts', () => {
    const numeric = synthetic(150, 8);
    const f = fitForest(numeric, { algorithm: 'cmbsv', forest: 'bagging', trees: 3 });
    expect(f.trees[0].options.algorithm).toBe('cmbsv');
    expect(f.predict(numeric)).toHaveLength(150);
    expect(f.score(numeric)).toBeGreaterThan(0.5);
  });

  it('refuses bad settings with one line naming the option', () => {
    const refused = (options: object, pattern: RegExp) => {
      let error: unknown;
      try {
        fitForest(data, options);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(GroveError);
      expect((error as Error).message).toMatch(pattern);
      expect((error as Error).message).not.toContain('\n');
    };
    refused({ trees: 0 }, /trees must be an integer ≥ 1/);
    refused({ trees: -3 }, /trees/);
    refused({ maxSamples: 0 }, /maxSamples/);
    refused({ maxSamples: 301 }, /maxSamples is 301, more than the data's 300 rows/);
    refused({ maxSamples: 2.5 }, /maxSamples/);
    refused({ oobScore: true, bootstrap: false }, /oobScore needs the bootstrap/);
    refused({ forest: 'extra-trees', oobScore: true }, /oobScore needs the bootstrap/);
    refused({ forest: 'jungle' }, /forest must be one of/);
    refused({ forest: 'extra-trees', bins: 32 }, /splitter random/);
    expect(() => fit(data, { trees: 5 })).toThrow(/trees is a forest option/);
  });
});

/** Row r of `data` alone, as a Dataset slice. */
function rowOf(data: Dataset, r: number): Partial<Dataset> {
  return {
    nRows: 1,
    labels: data.labels.subarray(r, r + 1),
    features: data.features.map((col) =>
      col.kind === 'numeric'
        ? { ...col, values: col.values.subarray(r, r + 1) }
        : { ...col, codes: col.codes.subarray(r, r + 1) },
    ),
  };
}
