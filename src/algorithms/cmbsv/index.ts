/**
 * C-MBSV (Salehi-Moghaddami, Sadoghi Yazdi & Poostchi 2011) as a splitter usable on its own:
 * `cmbsvSplit` makes the decision C-MBSV makes at one node — the feature (eq. 10), the pairwise
 * SVM thresholds (eqs. 11–14), the branches and which of them are unclassified regions — without
 * growing a tree. `fit(data, { algorithm: 'cmbsv' })` grows the whole tree (Algorithm 1).
 * docs/cmbsv.md describes every choice.
 */
import { GroveError } from '../../core/errors.js';
import { checkDataset } from '../../data/check.js';
import type { Dataset } from '../../data/dataset.js';
import type { Split } from '../../model/split.js';
import { DEFAULTS } from '../../options/options.js';
import { bestFeature, featureScores, type SelectionOptions } from './select.js';
import { branchOfValue, nodeThresholds, type PairThreshold, type ThresholdOptions } from './thresholds.js';

export type { LabelCoding, SelectionOptions } from './select.js';
export type { Svm1dOptions, Svm1dResult } from './svm1d.js';
export type { NodeThresholds, PairThreshold, SvmScaling, ThresholdOptions } from './thresholds.js';

export type CmbsvSplitOptions = SelectionOptions & ThresholdOptions;

export interface CmbsvSplitResult {
  /** Score of every feature (|r|, or Cramér's V for unordered categorical; -Infinity = cannot split). */
  scores: number[];
  /** The selected feature, or -1 when none can split the rows. */
  feature: number;
  /** The split, or null when Algorithm 1 makes the node a leaf (no feature, or one non-empty branch). */
  split: Split | null;
  /** Numeric feature: every pairwise SVM (eq. 12), including pairs that gave no threshold. */
  pairs: PairThreshold[];
  /** Rows (known values) in each branch. */
  branchSizes: number[];
  /** Empty branches between non-empty ones: the unclassified regions. */
  unclassified: number[];
}

/**
 * The C-MBSV decision at one node made of `rows` (default: every row) of `data`.
 *
 * @example
 * ```ts
 * const s = cmbsvSplit(iris);          // { feature: 2, split: { kind: 'numeric', thresholds: [...] }, ... }
 * ```
 */
export function cmbsvSplit(
  data: Dataset,
  options: Partial<CmbsvSplitOptions> = {},
  rows?: ArrayLike<number>,
  weights?: ArrayLike<number>,
): CmbsvSplitResult {
  checkDataset(data, { caller: 'cmbsvSplit', labelled: true });
  if (options === null || typeof options !== 'object')
    throw new GroveError('cmbsvSplit: options must be an object', { code: 'E_OPTION' });
  const opts: CmbsvSplitOptions = {
    labelCoding: options.labelCoding ?? DEFAULTS.labelCoding,
    correlationCentring: options.correlationCentring ?? DEFAULTS.correlationCentring,
    svmC: options.svmC ?? DEFAULTS.svmC,
    svmBalance: options.svmBalance ?? DEFAULTS.svmBalance,
    svmScaling: options.svmScaling ?? DEFAULTS.svmScaling,
    svmBias: options.svmBias ?? DEFAULTS.svmBias,
  };
  const at = rows ?? Int32Array.from({ length: data.nRows }, (_, i) => i);
  const w = weights ?? data.weights ?? new Float64Array(data.nRows).fill(1);
  const k = data.classes.length;
  const scores = featureScores(data.features, data.labels, k, at, w, opts);
  const feature = bestFeature(scores);
  const none: CmbsvSplitResult = {
    scores: Array.from(scores),
    feature,
    split: null,
    pairs: [],
    branchSizes: [],
    unclassified: [],
  };
  if (feature < 0) return none;
  const col = data.features[feature];
  let split: Split;
  let pairs: PairThreshold[] = [];
  let sizes: number[];
  if (col.kind === 'numeric') {
    const t = nodeThresholds(col.values, data.labels, k, at, w, opts);
    pairs = t.pairs;
    split = { kind: 'numeric', feature, thresholds: t.thresholds };
    sizes = new Array<number>(t.thresholds.length + 1).fill(0);
    for (let j = 0; j < at.length; j++) {
      const v = col.values[at[j]];
      if (!Number.isNaN(v) && w[at[j]] > 0) sizes[branchOfValue(t.thresholds, v)]++;
    }
  } else {
    const counts = new Map<number, number>();
    for (let j = 0; j < at.length; j++) {
      const c = col.codes[at[j]];
      if (c >= 0 && w[at[j]] > 0) counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    const values = [...counts.keys()].sort((a, b) => a - b);
    split = { kind: 'multiway', feature, values };
    sizes = values.map((v) => counts.get(v)!);
  }
  const nonEmpty = sizes.map((s, b) => (s > 0 ? b : -1)).filter((b) => b >= 0);
  if (nonEmpty.length <= 1) return { ...none, pairs };
  const first = nonEmpty[0];
  const last = nonEmpty[nonEmpty.length - 1];
  const unclassified = sizes.map((s, b) => (s === 0 && b > first && b < last ? b : -1)).filter((b) => b >= 0);
  return { scores: Array.from(scores), feature, split, pairs, branchSizes: sizes, unclassified };
}
