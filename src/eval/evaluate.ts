/**
 * Evaluation of a fitted model on labelled rows: accuracy, balanced accuracy, per-class precision,
 * recall and F1, log loss and the confusion matrix (scikit-learn's `metrics` for one model).
 */

import { GroveError } from '../core/errors.js';
import { checkDataset, describeType } from '../data/check.js';
import type { ClassLabel, Dataset } from '../data/dataset.js';
import { DecisionTree, type PredictOptions } from '../model/decision-tree.js';

/** Precision, recall and F1 of one class, with its number of rows in the data (support). */
export interface ClassMetrics {
  label: ClassLabel;
  /** Rows of this class in the data. */
  support: number;
  /** Rows predicted as this class. */
  predicted: number;
  /** Of the rows predicted as this class, the share that are (0 when none is predicted). */
  precision: number;
  /** Of the rows of this class, the share predicted as it (0 when the data has none). */
  recall: number;
  /** Harmonic mean of precision and recall (0 when both are 0). */
  f1: number;
  /** True when the model never saw this class: every row of it is an error. */
  unseen: boolean;
}

/** What {@link evaluate} measures. */
export interface Evaluation {
  rows: number;
  /** Share of rows whose predicted class is their label. */
  accuracy: number;
  /** Mean recall over the classes present in the data (scikit-learn's `balanced_accuracy_score`). */
  balancedAccuracy: number;
  /** Unweighted mean of the per-class F1 over the classes present in the data or predicted. */
  macroF1: number;
  /**
   * Mean of −ln p(true class), p clipped to [1e-15, 1] (scikit-learn's `log_loss` clipping): a row
   * of an unseen class or left unclassified costs −ln 1e-15 ≈ 34.5.
   */
  logLoss: number;
  /** The model's classes, in its order, then the data's classes the model never saw. */
  labels: ClassLabel[];
  /** Labels in the data that are not among the model's classes (each row of them is an error). */
  unseenClasses: ClassLabel[];
  /** Rows of the unseen classes. */
  unseenRows: number;
  /**
   * `confusion[a][p]`: rows whose label is `labels[a]` predicted as `labels[p]` (rows = actual,
   * columns = predicted, as scikit-learn's `confusion_matrix`).
   */
  confusion: number[][];
  /** Per actual label: rows left unclassified (C-MBSV regions); all zero for other trees. */
  unclassified: number[];
  /** One entry per label of `labels`. */
  perClass: ClassMetrics[];
}

/** Probabilities below this are clipped before the logarithm (scikit-learn's historical `eps`). */
export const LOG_LOSS_EPS = 1e-15;

/**
 * Evaluate `model` on `data`, a Dataset with the target column. The data's labels are matched to
 * the model's classes by their text (so `1` and `'1'` are one class); a label the model never saw
 * is reported in `unseenClasses` and every row of it counts as an error. Rows are unweighted.
 *
 * @example
 * ```ts
 * const e = evaluate(tree, testData);
 * console.log(e.accuracy, e.balancedAccuracy, e.confusion);
 * ```
 * @throws GroveError for a malformed Dataset, one without labels or without rows, or rows that
 *   do not fit the model (a missing feature column)
 */
export function evaluate(model: DecisionTree, data: Dataset, options?: PredictOptions): Evaluation {
  if (!(model instanceof DecisionTree))
    throw new GroveError(`evaluate: expected a DecisionTree, got ${describeType(model)}`, { code: 'E_INPUT' });
  checkDataset(data, { caller: 'evaluate', labelled: true });
  if (data.nRows === 0) throw new GroveError('evaluate: no rows to evaluate', { code: 'E_INPUT' });
  const { labels, actual, unseen } = matchLabels(model.classes, data);
  const k = model.classes.length;
  const predicted = model.predictCodes(data, options);
  const proba = model.predictProbaFlat(data, options);
  const m = labels.length;
  const confusion = Array.from({ length: m }, () => new Array<number>(m).fill(0));
  const unclassified = new Array<number>(m).fill(0);
  let right = 0;
  let loss = 0;
  for (let i = 0; i < data.nRows; i++) {
    const a = actual[i];
    const p = predicted[i];
    if (p < 0) unclassified[a]++;
    else confusion[a][p]++;
    if (p === a) right++;
    const pa = a < k && p >= 0 ? proba[i * k + a] : 0;
    loss -= Math.log(Math.min(1, Math.max(LOG_LOSS_EPS, pa)));
  }
  const perClass = labels.map((label, c) => classMetrics(label, c, confusion, unclassified[c], c >= k));
  const present = perClass.filter((c) => c.support > 0);
  const scored = perClass.filter((c) => c.support > 0 || c.predicted > 0);
  return {
    rows: data.nRows,
    accuracy: right / data.nRows,
    balancedAccuracy: mean(present.map((c) => c.recall)),
    macroF1: mean(scored.map((c) => c.f1)),
    logLoss: loss / data.nRows,
    labels,
    unseenClasses: labels.slice(k),
    unseenRows: unseen,
    confusion,
    unclassified,
    perClass,
  };
}

/** The evaluation's labels (model's classes, then unseen ones) and each row's index into them. */
function matchLabels(
  classes: readonly ClassLabel[],
  data: Dataset,
): { labels: ClassLabel[]; actual: Int32Array; unseen: number } {
  const labels = classes.slice();
  const index = new Map<string, number>();
  classes.forEach((c, i) => index.set(String(c), i));
  // The data's class codes → evaluation label index, added in the data's class order.
  const codeMap = data.classes.map((c) => {
    const key = String(c);
    let at = index.get(key);
    if (at === undefined) {
      at = labels.length;
      labels.push(c);
      index.set(key, at);
    }
    return at;
  });
  const actual = new Int32Array(data.nRows);
  let unseen = 0;
  for (let i = 0; i < data.nRows; i++) {
    actual[i] = codeMap[data.labels[i]];
    if (actual[i] >= classes.length) unseen++;
  }
  // Unseen labels that no row carries are not worth a line.
  const used = new Uint8Array(labels.length);
  for (let i = 0; i < data.nRows; i++) used[actual[i]] = 1;
  if (used.subarray(classes.length).every((u) => u === 1)) return { labels, actual, unseen };
  const keep = labels.map((_, j) => j < classes.length || used[j] === 1);
  const renumber = new Int32Array(labels.length);
  let next = 0;
  keep.forEach((kept, j) => {
    renumber[j] = kept ? next++ : -1;
  });
  for (let i = 0; i < data.nRows; i++) actual[i] = renumber[actual[i]];
  return { labels: labels.filter((_, j) => keep[j]), actual, unseen };
}

function classMetrics(
  label: ClassLabel,
  c: number,
  confusion: number[][],
  unclassified: number,
  unseen: boolean,
): ClassMetrics {
  const tp = confusion[c][c];
  let support = unclassified;
  for (const v of confusion[c]) support += v;
  let predicted = 0;
  for (const row of confusion) predicted += row[c];
  const precision = predicted > 0 ? tp / predicted : 0;
  const recall = support > 0 ? tp / support : 0;
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { label, support, predicted, precision, recall, f1, unseen };
}

function mean(xs: readonly number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return xs.length ? s / xs.length : 0;
}
