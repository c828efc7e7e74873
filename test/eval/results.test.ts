import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stratifiedFolds } from '../../src/core/folds.js';
import { analyze } from '../../src/eval/analysis.js';
import { crossValidate, evaluateFold, foldRows, summarize } from '../../src/eval/cross-validate.js';
import {
  type CompareResults,
  completeDatasets,
  type FoldRecord,
  resultsToCsv,
  summarizeCells,
} from '../../src/eval/results.js';
import { parseResults } from '../../src/eval/results-file.js';
import { friedmanTest } from '../../src/eval/stats/index.js';
import { renderTable } from '../../src/eval/table.js';
import { readDataset } from '../../src/sources/file-source.js';

const iris = await readDataset(resolve(import.meta.dirname, '../../data/iris.csv'));

/** Results of 3 configurations on 5 data sets × 4 folds, accuracy = base[d] + shift[c] + fold noise. */
function synthetic(opts: { dropLastFoldOf?: string } = {}): CompareResults {
  const datasets = ['a', 'b', 'c', 'd', 'e'];
  const configs = ['x', 'y', 'z'];
  const base = [0.9, 0.8, 0.7, 0.85, 0.6];
  const shift = [0.02, 0, -0.03];
  const folds: FoldRecord[] = [];
  datasets.forEach((d, i) =>
    configs.forEach((c, j) => {
      for (let f = 0; f < 4; f++) {
        if (opts.dropLastFoldOf === `${d}/${c}` && f === 3) continue;
        const acc = base[i] + shift[j] - (j === 2 ? 0.002 * i : 0) + (f - 1.5) * 0.01 * (i === 4 && j === 2 ? 3 : 1);
        folds.push({
          dataset: d,
          config: c,
          repeat: 0,
          fold: f,
          trainRows: 90,
          testRows: 10,
          testAccuracy: acc,
          trainAccuracy: 1,
          nodes: 2 * (5 + j) + 1,
          leaves: 5 + j + (i % 2),
          height: 3,
          needlessFeatures: j,
          fitMs: 1,
          predictMs: 0.1,
        });
      }
    }),
  );
  return {
    format: 'grove-compare',
    version: 1,
    grove: '0.1.0',
    created: '2026-01-01T00:00:00.000Z',
    complete: !opts.dropLastFoldOf,
    settings: { folds: 4, repeats: 1, seed: 1, models: false },
    datasets: datasets.map((name) => ({
      name,
      file: `${name}.csv`,
      rows: 100,
      features: 3,
      numeric: 3,
      categorical: 0,
      classes: 2,
      foldsPlanned: 4,
    })),
    configs: configs.map((label) => ({ label, options: { criterion: label } })),
    folds,
    models: [],
  };
}

describe('cross-validation', () => {
  it('stratified folds: every row tested exactly once, class shares kept, same seed → same folds', () => {
    const a = stratifiedFolds(iris.labels, 3, 10, 7);
    expect(Array.from(a)).toEqual(Array.from(stratifiedFolds(iris.labels, 3, 10, 7)));
    expect(Array.from(a)).not.toEqual(Array.from(stratifiedFolds(iris.labels, 3, 10, 8)));
    const tested = new Array(iris.nRows).fill(0);
    for (let f = 0; f < 10; f++) {
      const { train, test } = foldRows(a, f);
      expect(train.length + test.length).toBe(150);
      test.forEach((i) => tested[i]++);
      // 5 rows of each of the 3 classes in each fold.
      expect([0, 1, 2].map((c) => test.filter((i) => iris.labels[i] === c).length)).toEqual([5, 5, 5]);
    }
    expect(tested.every((t) => t === 1)).toBe(true);
  });

  it('a fold result is the fit on the other folds scored on this one; crossValidate = every fold', () => {
    const a = stratifiedFolds(iris.labels, 3, 5, 1);
    const r = evaluateFold(iris, { algorithm: 'cart' }, a, 2)!;
    expect(r.testRows).toBe(30);
    expect(r.trainRows).toBe(120);
    expect(r.trainAccuracy).toBeGreaterThan(0.9);
    expect(r.testAccuracy).toBeGreaterThan(0.8);
    expect(r.leaves).toBe((r.nodes + 1) / 2); // binary tree
    const all = crossValidate(iris, { algorithm: 'cart' }, 5, 1);
    expect(all.map((x) => x.fold)).toEqual([0, 1, 2, 3, 4]);
    expect(all[2].testAccuracy).toBe(r.testAccuracy);
  });

  it('summarize: mean and sample sd', () => {
    expect(summarize([1, 2, 3, 4])).toEqual({ mean: 2.5, sd: Math.sqrt(5 / 3) });
    expect(summarize([5])).toEqual({ mean: 5, sd: 0 });
  });
});

describe('results and statistics', () => {
  it('summaries per data set × configuration, and the Friedman test on their means', () => {
    const r = synthetic();
    const cells = summarizeCells(r);
    expect(cells).toHaveLength(15);
    const ax = cells.find((c) => c.dataset === 'a' && c.config === 'x')!;
    expect(ax.testAccuracy.mean).toBeCloseTo(0.92, 12);
    // x − y is 0.02 everywhere: tied differences, so the normal approximation.
    expect(analyze(r).accuracy.pairs[0].wilcoxon.method).toBe('normal');
    expect(ax.testError.mean).toBeCloseTo(0.08, 12);
    expect(ax.done).toBe(4);
    expect(ax.complete).toBe(true);
    const a = analyze(r);
    // x beats y beats z on every data set: ranks 1, 2, 3; the test matches friedmanTest on the matrix.
    expect(a.accuracy.averageRanks).toEqual([1, 2, 3]);
    expect(a.accuracy.friedman!.chiSquare).toBeCloseTo(friedmanTest(a.accuracy.matrix).chiSquare, 12);
    expect(a.accuracy.friedman!.chiSquare).toBeCloseTo(10, 12); // 12·5/(3·4)·(1+4+9 − 12) = 10
    // Fewer leaves is better: x has the fewest everywhere.
    expect(a.leaves.averageRanks).toEqual([1, 2, 3]);
    const xz = a.accuracy.pairs.find((p) => p.a === 'x' && p.b === 'z')!;
    expect([xz.wins, xz.ties, xz.losses]).toEqual([5, 0, 0]);
    expect(xz.wilcoxon.method).toBe('exact');
    expect(xz.wilcoxon.pValue).toBeCloseTo(0.0625, 12); // n = 5, all positive: 2/2^5
    expect(xz.nemenyiSignificant).toBe(Math.abs(xz.rankDifference) >= a.accuracy.cd05!);
    expect(a.accuracy.cliques.flat()).toContain('y');
    // The same order on every data set: χ²_F at N(k−1) = 10, so F_F has no finite value; the table says why.
    expect(a.accuracy.friedman!.imanDavenport.F).toBe(Infinity);
    const table = renderTable(r, a);
    expect(table).toMatch(/Iman–Davenport F_F not finite: every data set ranks the configurations in the same order/);
    expect(table).not.toMatch(/∞/);
    expect(table).toMatch(/^avg rank \(accuracy\) /m);
    expect(table).toMatch(/^avg rank \(leaves\) /m);
  });

  it('an unfinished cell keeps its data set out of the statistics and is flagged in the table', () => {
    const r = synthetic({ dropLastFoldOf: 'c/y' });
    expect(completeDatasets(r)).toEqual(['a', 'b', 'd', 'e']);
    const a = analyze(r);
    expect(a.accuracy.friedman!.N).toBe(4);
    const table = renderTable(r, a);
    expect(table).toMatch(/\[3\/4\]/);
    expect(table).toMatch(/INCOMPLETE/);
    expect(table).toMatch(/Friedman test on test accuracy \(N = 4 data sets, k = 3\)/);
  });

  it('too few data sets: no test, a note instead', () => {
    const r = synthetic();
    r.datasets = r.datasets.slice(0, 1);
    const a = analyze(r);
    expect(a.accuracy.friedman).toBeUndefined();
    expect(a.accuracy.note).toMatch(/at least 2 complete data sets/);
    expect(renderTable(r, a)).toMatch(/at least 2 complete data sets/);
  });

  it('CSV: a header and one row per data set × configuration × fold, in order', () => {
    const csv = resultsToCsv(synthetic()).trimEnd().split('\n');
    expect(csv[0]).toBe(
      'dataset,config,repeat,fold,train_rows,test_rows,test_accuracy,test_error,train_error,nodes,leaves,height,needless_features,fit_ms,predict_ms',
    );
    expect(csv).toHaveLength(1 + 5 * 3 * 4);
    expect(csv[1].split(',').slice(0, 4)).toEqual(['a', 'x', '0', '0']);
    expect(Number(csv[1].split(',')[6]) + Number(csv[1].split(',')[7])).toBeCloseTo(1, 12);
  });

  it('a results file round-trips through JSON; foreign or corrupt files are refused', () => {
    const r = synthetic();
    expect(parseResults(JSON.parse(JSON.stringify(r)))).toEqual(r);
    expect(() => parseResults({ format: 'grove-tree' }, 'x.json')).toThrow(/x.json: not a grove compare results file/);
    const bad = JSON.parse(JSON.stringify(r));
    bad.folds[0].testAccuracy = 2;
    expect(() => parseResults(bad)).toThrow(/corrupt results file: folds.0.testAccuracy/);
    const stray = JSON.parse(JSON.stringify(r));
    stray.folds[0].config = 'nope';
    expect(() => parseResults(stray)).toThrow(/unknown data set or configuration 'a' × 'nope'/);
  });
});
