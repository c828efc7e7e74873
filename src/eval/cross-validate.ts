import type { Dataset } from '../data/dataset.js';
import { subsetRows } from '../data/subset.js';
import { fit } from '../tree/fit.js';
import type { FitOptions } from '../tree/options.js';
import { stratifiedFolds } from './folds.js';

/** One fold's numbers. */
export interface FoldResult {
  fold: number;
  testAccuracy: number;
  trainAccuracy: number;
  nodes: number;
  leaves: number;
  height: number;
  needlessFeatures: number;
  fitMs: number;
  predictMs: number;
}

/** Mean and sample standard deviation. */
export interface Summary {
  mean: number;
  sd: number;
}

export function summarize(xs: number[]): Summary {
  const n = xs.length;
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  const sd = n > 1 ? Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1)) : 0;
  return { mean, sd };
}

function accuracy(pred: Int32Array, labels: Int32Array): number {
  let ok = 0;
  for (let i = 0; i < labels.length; i++) if (pred[i] === labels[i]) ok++;
  return labels.length ? ok / labels.length : 0;
}

/**
 * Stratified k-fold cross-validation of one configuration. Folds depend only on the labels, k and
 * the seed, so every configuration run with the same seed sees the same folds.
 */
export function crossValidate(data: Dataset, options: FitOptions, k: number, seed: number): FoldResult[] {
  const fold = stratifiedFolds(data.labels, data.classes.length, k, seed);
  const results: FoldResult[] = [];
  for (let f = 0; f < k; f++) {
    const train: number[] = [];
    const test: number[] = [];
    fold.forEach((g, i) => (g === f ? test : train).push(i));
    if (test.length === 0) continue;
    const trainData = subsetRows(data, train);
    const testData = subsetRows(data, test);
    const t0 = performance.now();
    const tree = fit(trainData, options);
    const t1 = performance.now();
    const testPred = tree.predictCodes(testData);
    const t2 = performance.now();
    const s = tree.stats();
    results.push({
      fold: f,
      testAccuracy: accuracy(testPred, testData.labels),
      trainAccuracy: accuracy(tree.predictCodes(trainData), trainData.labels),
      nodes: s.nodes,
      leaves: s.leaves,
      height: s.height,
      needlessFeatures: s.needlessFeatures.length,
      fitMs: t1 - t0,
      predictMs: t2 - t1,
    });
  }
  return results;
}
