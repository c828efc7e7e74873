import { checkObject } from '../core/args.js';
import { GroveError } from '../core/errors.js';
import { mulberry32 } from '../core/random.js';
import { checkDataset } from '../data/check.js';
import type { Dataset } from '../data/dataset.js';
import { accuracy, summarize } from '../eval/cross-validate.js';
import type { AlignedColumn } from '../model/align.js';
import { DecisionTree } from '../model/decision-tree.js';
import { type ExplainableModel, predictTrees, weightedTrees } from './model.js';
import { alignRows } from './rows.js';

/** How `permutationImportance` shuffles. */
export interface PermutationImportanceOptions {
  /** Shuffles per feature (default 5). */
  repeats?: number;
  /** Seed of the shuffles (default 0): the same seed gives the same importances. */
  seed?: number;
  /** Told after each shuffle scored (`done` of `total` = features × repeats). */
  onProgress?: (progress: { done: number; total: number }) => void;
}

/** Permutation importances of every feature of a model on a labelled data set. */
export interface PermutationImportance {
  /** The model's features. */
  features: string[];
  /** Accuracy on the data as it is. */
  baseline: number;
  repeats: number;
  /** importances[f * repeats + r]: baseline minus the accuracy with feature f's column shuffled (repeat r). */
  importances: Float64Array;
  /** Mean of each feature's importances. */
  mean: Float64Array;
  /** Their sample standard deviation (0 for one repeat). */
  sd: Float64Array;
}

/**
 * Permutation importance (Breiman 2001; scikit-learn's `permutation_importance` with accuracy):
 * how much the model's accuracy on `data` drops when one feature's column is shuffled, breaking
 * its link with the class while keeping its distribution. Each feature is shuffled `repeats`
 * times by its own generator, seeded by (seed, feature), so the result does not depend on the
 * order features are visited. Rows are predicted as `score` predicts them (a row in a C-MBSV
 * unclassified region counts as wrong, as does a row whose class the model does not know); a
 * forest by the mean of its trees' probabilities.
 *
 * @example
 * ```ts
 * const pi = permutationImportance(tree, testData, { repeats: 10, seed: 1 });
 * pi.features.map((f, j) => `${f}: ${pi.mean[j].toFixed(3)} ± ${pi.sd[j].toFixed(3)}`);
 * ```
 */
export function permutationImportance(
  model: ExplainableModel,
  data: Dataset,
  options: PermutationImportanceOptions = {},
): PermutationImportance {
  const caller = 'permutationImportance';
  checkDataset(data, { caller, labelled: true });
  const { columns, nRows } = alignRows(model, data, undefined, caller);
  const { repeats, seed, onProgress } = checkOptions(options, caller);
  if (nRows === 0) throw new GroveError(`${caller}: no rows to score`);
  const labels = modelLabels(model, data);
  const predict = classCodes(model, nRows);
  const score = (cols: AlignedColumn[]) => accuracy(predict(cols), labels);
  const baseline = score(columns);
  const f = columns.length;
  const importances = new Float64Array(f * repeats);
  const mean = new Float64Array(f);
  const sd = new Float64Array(f);
  const order = new Int32Array(nRows);
  for (let j = 0; j < f; j++) {
    const random = featureRandom(seed, j);
    const original = columns[j];
    const shuffled = new (original.constructor as new (n: number) => AlignedColumn)(nRows);
    const swept = columns.slice();
    swept[j] = shuffled;
    for (let r = 0; r < repeats; r++) {
      shuffleOrder(order, random);
      for (let i = 0; i < nRows; i++) shuffled[i] = original[order[i]];
      importances[j * repeats + r] = baseline - score(swept);
      onProgress?.({ done: j * repeats + r + 1, total: f * repeats });
    }
    const s = summarize(Array.from(importances.subarray(j * repeats, (j + 1) * repeats)));
    mean[j] = s.mean;
    sd[j] = s.sd;
  }
  return { features: model.features.map((x) => x.name), baseline, repeats, importances, mean, sd };
}

/**
 * The model's class per aligned row: a tree's as `predictCodes` gives it (its own policy for
 * C-MBSV regions); a forest's the most probable class of the mean of its trees' probabilities
 * (ties to the lowest index, -1 when every class has probability 0).
 */
function classCodes(model: ExplainableModel, nRows: number): (columns: AlignedColumn[]) => Int32Array {
  if (model instanceof DecisionTree) {
    const cmbsv = model.options.cmbsv;
    const policy = { unclassified: cmbsv?.unclassified ?? 'none', knnK: cmbsv?.knnK ?? 1 };
    return (columns) => model.compiled.predictCodes(columns, nRows, undefined, policy);
  }
  const trees = weightedTrees(model);
  const k = model.classes.length;
  const proba = new Float64Array(nRows * k);
  const codes = new Int32Array(nRows);
  return (columns) => {
    predictTrees(trees, columns, nRows, k, proba);
    for (let i = 0; i < nRows; i++) {
      let best = -1;
      for (let c = 0; c < k; c++)
        if (proba[i * k + c] > 0 && (best < 0 || proba[i * k + c] > proba[i * k + best])) best = c;
      codes[i] = best;
    }
    return codes;
  };
}

/** The generator of feature j's shuffles. */
export function featureRandom(seed: number, j: number): () => number {
  return mulberry32((seed ^ Math.imul(j + 1, 0x9e3779b9)) >>> 0);
}

/** `order` set to a uniformly random permutation of 0..n-1 (Fisher–Yates). */
export function shuffleOrder(order: Int32Array, random: () => number): void {
  for (let i = 0; i < order.length; i++) order[i] = i;
  for (let i = order.length - 1; i > 0; i--) {
    const k = Math.floor(random() * (i + 1));
    const t = order[i];
    order[i] = order[k];
    order[k] = t;
  }
}

/** Each row's class as an index into the model's classes; -2 (never predicted) for a class it does not know. */
function modelLabels(model: ExplainableModel, data: Dataset): Int32Array {
  const index = new Map(model.classes.map((c, i) => [String(c), i]));
  const map = data.classes.map((c) => index.get(String(c)) ?? -2);
  return Int32Array.from(data.labels, (c) => (c < 0 ? -2 : map[c]));
}

function checkOptions(
  options: PermutationImportanceOptions,
  caller: string,
): { repeats: number; seed: number; onProgress?: PermutationImportanceOptions['onProgress'] } {
  checkObject(caller, 'options', options);
  for (const key of Object.keys(options))
    if (key !== 'repeats' && key !== 'seed' && key !== 'onProgress')
      throw new GroveError(`${caller}: unknown option '${key}' (known: repeats, seed, onProgress)`);
  const { repeats = 5, seed = 0, onProgress } = options;
  if (onProgress !== undefined && typeof onProgress !== 'function')
    throw new GroveError(`${caller}: onProgress must be a function, got ${typeof onProgress}`);
  if (!Number.isSafeInteger(repeats) || repeats < 1)
    throw new GroveError(`${caller}: repeats must be an integer ≥ 1, got ${String(repeats)}`);
  if (!Number.isSafeInteger(seed)) throw new GroveError(`${caller}: seed must be an integer, got ${String(seed)}`);
  return { repeats, seed, onProgress };
}
