import { fit } from '../algorithms/fit.js';
import { GroveError } from '../core/errors.js';
import { stratifiedFolds } from '../core/folds.js';
import { checkDataset, describeType } from '../data/check.js';
import type { Dataset } from '../data/dataset.js';
import { subsetRows } from '../data/subset.js';
import { fitForest } from '../ensemble/fit-forest.js';
import type { Forest } from '../ensemble/forest.js';
import { isForestOptions } from '../ensemble/settings.js';
import type { DecisionTree } from '../model/decision-tree.js';
import type { FitOptions } from '../options/options.js';

/** One fold's numbers. */
export interface FoldResult {
  fold: number;
  trainRows: number;
  testRows: number;
  testAccuracy: number;
  trainAccuracy: number;
  nodes: number;
  leaves: number;
  height: number;
  needlessFeatures: number;
  fitMs: number;
  predictMs: number;
  /**
   * The fold's test rows counted by actual class (row) and predicted class (column), in the order of
   * the data set's classes; a row predicted as no class (C-MBSV's unclassified) is not counted.
   * Absent from results files written before it was recorded.
   */
  confusion?: number[][];
  /**
   * An optimal tree's search (`fitOptimal`): whether it finished (proven optimal) or stopped at its
   * time limit or memory bound, and the lower bound on the training error rate it proved. Absent
   * for greedy trees and forests.
   */
  optimal?: { proven: boolean; lowerBound: number };
}

/** `confusion[a][p]`: rows of class code `a` predicted as code `p` (of `k` classes; a negative code is left out). */
export function confusionCounts(predicted: Int32Array, labels: Int32Array, k: number): number[][] {
  const m = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  for (let i = 0; i < labels.length; i++) {
    const a = labels[i];
    const p = predicted[i];
    if (a >= 0 && a < k && p >= 0 && p < k) m[a][p]++;
  }
  return m;
}

/**
 * The element-wise sum of confusion matrices of `k` classes (the folds' test rows pooled);
 * undefined when none has one.
 */
export function pooledConfusion(folds: readonly { confusion?: number[][] }[], k: number): number[][] | undefined {
  let sum: number[][] | undefined;
  for (const f of folds) {
    if (!f.confusion) continue;
    sum ??= Array.from({ length: k }, () => new Array<number>(k).fill(0));
    f.confusion.forEach((row, a) => row.forEach((n, p) => (sum![a][p] += n)));
  }
  return sum;
}

/** Mean and sample standard deviation. */
export interface Summary {
  mean: number;
  sd: number;
}

export function summarize(xs: readonly number[]): Summary {
  if (!Array.isArray(xs) || !xs.every((x) => typeof x === 'number'))
    throw new GroveError(`summarize: expected an array of numbers, got ${describeType(xs)}`);
  const n = xs.length;
  if (n === 0) return { mean: NaN, sd: NaN };
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  const sd = n > 1 ? Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1)) : 0;
  return { mean, sd };
}

export function accuracy(pred: Int32Array, labels: Int32Array): number {
  let ok = 0;
  for (let i = 0; i < labels.length; i++) if (pred[i] === labels[i]) ok++;
  return labels.length ? ok / labels.length : 0;
}

/** Seed of the fold assignment of repeat `r` (repeat 0 uses the seed itself). */
export function repeatSeed(seed: number, repeat: number): number {
  return (seed + repeat) >>> 0;
}

/** Rows in fold `f` (test) and the others (train), in row order. */
export function foldRows(assignment: Int32Array, f: number): { train: number[]; test: number[] } {
  const train: number[] = [];
  const test: number[] = [];
  assignment.forEach((g, i) => (g === f ? test : train).push(i));
  return { train, test };
}

/** A tree, or a forest when the options name any forest option (`forest`, `trees`, ...). */
export function fitModel(data: Dataset, options: FitOptions): DecisionTree | Forest {
  return isForestOptions(options) ? fitForest(data, options) : fit(data, options);
}

/**
 * A model's size for the results: a tree's nodes, leaves and height; a forest's nodes and leaves
 * over all its trees, its deepest tree's height, and the features no tree splits on.
 */
function modelShape(model: DecisionTree | Forest): { nodes: number; leaves: number; height: number; needless: number } {
  if (!('trees' in model)) {
    const s = model.stats();
    return { nodes: s.nodes, leaves: s.leaves, height: s.height, needless: s.needlessFeatures.length };
  }
  const unused = new Map<string, number>();
  for (const tree of model.trees)
    for (const name of tree.stats().needlessFeatures) unused.set(name, (unused.get(name) ?? 0) + 1);
  const s = model.stats();
  let needless = 0;
  for (const count of unused.values()) if (count === model.trees.length) needless++;
  return { nodes: s.nodes, leaves: Math.round(s.leaves.mean * s.trees), height: s.depth.max, needless };
}

/**
 * Fit on every fold but `f`, test on fold `f` (a forest when the options ask for one). Returns null
 * when the fold is empty (fewer rows
 * than folds). The numbers depend only on the data, the options and the assignment: no clock or
 * thread enters them, so every run with the same seed gives the same accuracies.
 */
export function evaluateFold(data: Dataset, options: FitOptions, assignment: Int32Array, f: number): FoldResult | null {
  return evaluateFoldWith(fitModel, data, options, assignment, f);
}

/** Fits a model for a fold: `fitModel`, or a narrower fitter (the explorer's greedy trees). */
export type FoldFitter = (data: Dataset, options: FitOptions) => DecisionTree | Forest;

/** `evaluateFold` with the model fitted by `fitter`. */
export function evaluateFoldWith(
  fitter: FoldFitter,
  data: Dataset,
  options: FitOptions,
  assignment: Int32Array,
  f: number,
): FoldResult | null {
  const { train, test } = foldRows(assignment, f);
  if (test.length === 0) return null;
  const trainData = subsetRows(data, train);
  const testData = subsetRows(data, test);
  const t0 = performance.now();
  const model = fitter(trainData, options);
  const t1 = performance.now();
  const testPred = model.predictCodes(testData);
  const t2 = performance.now();
  const s = modelShape(model);
  return {
    fold: f,
    trainRows: train.length,
    testRows: test.length,
    testAccuracy: accuracy(testPred, testData.labels),
    trainAccuracy: accuracy(model.predictCodes(trainData), trainData.labels),
    nodes: s.nodes,
    leaves: s.leaves,
    height: s.height,
    needlessFeatures: s.needless,
    fitMs: t1 - t0,
    predictMs: t2 - t1,
    confusion: confusionCounts(testPred, testData.labels, data.classes.length),
    ...optimalSearch(model),
  };
}

/** The optimal search's outcome for a fold record (nothing for a greedy tree or a forest). */
function optimalSearch(model: DecisionTree | Forest): Pick<FoldResult, 'optimal'> {
  const o = 'optimality' in model ? model.optimality : undefined;
  return o ? { optimal: { proven: o.proven, lowerBound: o.lowerBound } } : {};
}

/** Fit on all rows (the model a report shows), with its fit time. */
export function fitAll(data: Dataset, options: FitOptions): { tree: DecisionTree; fitMs: number } {
  const t0 = performance.now();
  const tree = fit(data, options);
  return { tree, fitMs: performance.now() - t0 };
}

/**
 * Stratified k-fold cross-validation of one configuration. Folds depend only on the labels, k and
 * the seed, so every configuration run with the same seed sees the same folds.
 * `onFold`, when given, is called after each fold (progress).
 * @throws GroveError for a malformed Dataset, k not an integer ≥ 2, a seed that is not an integer,
 *   or anything `fit` refuses
 */
export function crossValidate(
  data: Dataset,
  options: FitOptions,
  k: number,
  seed: number,
  onFold?: () => void,
): FoldResult[] {
  return crossValidateWith(fitModel, data, options, k, seed, onFold);
}

/**
 * `crossValidate` with each fold's model fitted by `fitter`: the explorer's worker passes a
 * greedy-tree fitter, so its bundle leaves out the forest and optimal-tree code it never runs.
 */
export function crossValidateWith(
  fitter: FoldFitter,
  data: Dataset,
  options: FitOptions,
  k: number,
  seed: number,
  onFold?: () => void,
): FoldResult[] {
  checkDataset(data, { caller: 'crossValidate', labelled: true });
  if (!(Number.isSafeInteger(k) && k >= 2))
    throw new GroveError(`crossValidate: k must be an integer ≥ 2, got ${String(k)}`, { code: 'E_OPTION' });
  if (!Number.isSafeInteger(seed))
    throw new GroveError(`crossValidate: seed must be an integer, got ${String(seed)}`, { code: 'E_OPTION' });
  const assignment = stratifiedFolds(data.labels, data.classes.length, k, seed);
  const results: FoldResult[] = [];
  for (let f = 0; f < k; f++) {
    const r = evaluateFoldWith(fitter, data, options, assignment, f);
    if (r) results.push(r);
    onFold?.();
  }
  return results;
}

/** One fold of one repeat of a repeated cross-validation. */
export interface RepeatedFoldResult extends FoldResult {
  repeat: number;
}

/**
 * Repeated stratified k-fold cross-validation of one configuration: repeat `r` uses the folds of
 * seed `seed + r`, exactly the folds `grove compare --folds k --repeats R --seed seed` gives every
 * configuration, so one configuration's figures here match its row there. `folds.onProgress`, when
 * given, hears of each fold done (`done` of `total` = k × repeats).
 * @throws GroveError as {@link crossValidate}, or for repeats not an integer ≥ 1
 */
export function crossValidateRepeated(
  data: Dataset,
  options: FitOptions,
  folds: {
    k: number;
    repeats: number;
    seed: number;
    onProgress?: (progress: { done: number; total: number }) => void;
  },
): RepeatedFoldResult[] {
  checkDataset(data, { caller: 'crossValidateRepeated', labelled: true });
  if (typeof folds !== 'object' || folds === null)
    throw new GroveError(`crossValidateRepeated: folds must be { k, repeats, seed }, got ${describeType(folds)}`, {
      code: 'E_OPTION',
    });
  const { k, repeats, seed } = folds;
  if (!(Number.isSafeInteger(repeats) && repeats >= 1))
    throw new GroveError(`crossValidate: repeats must be an integer ≥ 1, got ${String(repeats)}`, {
      code: 'E_OPTION',
    });
  const { onProgress } = folds;
  if (onProgress !== undefined && typeof onProgress !== 'function')
    throw new GroveError(`crossValidateRepeated: onProgress must be a function, got ${typeof onProgress}`, {
      code: 'E_OPTION',
    });
  const out: RepeatedFoldResult[] = [];
  let done = 0;
  const onFold = onProgress && (() => onProgress({ done: ++done, total: k * repeats }));
  for (let r = 0; r < repeats; r++)
    for (const f of crossValidate(data, options, k, repeatSeed(seed, r), onFold)) out.push({ repeat: r, ...f });
  return out;
}
