/**
 * C-MBSV thresholds (paper, section 3.2 B, eqs. 11–14): on the selected feature, one soft-margin
 * SVM per pair of classes present at the node, t_ab = −b_ab / w_ab; the distinct thresholds,
 * sorted, cut the feature into b = |T| + 1 branches (at most n(n−1)/2 + 1 for n classes).
 *
 * Choices the paper leaves open:
 * - Scaling (`svmScaling`): the SVM of a pair sees `standardize`d values — the pair's rows shifted
 *   to mean 0 and scaled to unit (sample) standard deviation, which is what MATLAB's `svmtrain`
 *   (the paper's tool; Table 4 says "QP", its quadratic-programming method) does by default
 *   (`autoscale`) — or the `none` (raw) values. The soft-margin solution is not scale-invariant
 *   (the margin is fixed at 1), so this matters. Thresholds are mapped back and stored on the raw
 *   feature scale either way.
 * - Imbalance (`svmBalance`, the paper's section 4.2): class a with n_a rows gets
 *   C_a = C · n_b / (n_a + n_b), class b gets C · n_a / (n_a + n_b). Row weights multiply C_i.
 * - A pair whose SVM gives w = 0 (the classes cannot be told apart on this feature) gives no
 *   threshold; nor does a pair whose rows have one value only.
 * - Thresholds closer than 1e-9 × (range of the feature at the node) are one threshold.
 * - A threshold below the smallest value at the node, or at/above the largest, would leave an
 *   outer branch with no rows; the paper's Algorithm 1 has no rule for an empty *outer* branch
 *   (only for one between non-empty ones), so such a threshold is dropped: that region belongs to
 *   the adjacent branch.
 */
import { grown } from '../../core/arrays.js';
import type { NumericValues } from '../../data/dataset.js';
import { numericBranch } from '../../model/route.js';
import { type ColumnRanks, knownByRank, knownBySort } from './known-order.js';
import { balancedBoxConstraints, solveSvm1dPlane } from './svm1d.js';
import { ClassRows } from './svm1d-rows.js';

export type SvmScaling = 'standardize' | 'none' | 'unit-norm';

export interface ThresholdOptions {
  /** The constant C of eq. 11 (default 1, MATLAB svmtrain's default box constraint). */
  svmC: number;
  svmBalance: boolean;
  svmScaling: SvmScaling;
  /**
   * Which optimal b when several are (see `Svm1dOptions.bias`): `midpoint` (libsvm) or `max-alpha` (MATLAB
   * svmtrain).
   */
  svmBias: 'midpoint' | 'max-alpha';
}

/** One pairwise SVM of eq. 12: classes a < b (indices into the class list). */
export interface PairThreshold {
  a: number;
  b: number;
  /** t_ab on the raw feature scale; NaN when the pair gives no threshold. */
  threshold: number;
  /** w and b of the SVM on the scale it was solved on (see `svmScaling`). */
  w: number;
  bias: number;
}

export interface NodeThresholds {
  /** Every pair of classes present (eq. 12's upper triangle). */
  pairs: PairThreshold[];
  /** Distinct thresholds inside the node's value range, ascending: the split. */
  thresholds: number[];
}

/**
 * The buffers of one node's thresholds, kept from node to node: a pair's rows among its known ones
 * (`pair`), the pair's SVM problem (`xs`, `ys`, `cs`) and the solver's working memory (`svm`).
 */
const scratch = {
  svm: new ClassRows(),
  pair: new Int32Array(0),
  xs: new Float64Array(0),
  ys: new Float64Array(0),
  cs: new Float64Array(0),
};

/**
 * Pairwise SVM thresholds of one feature over the rows `rows` (missing values skipped).
 * @param x feature values (NaN = missing)
 * @param labels class index per row
 * @param weights row weights (0 = ignored)
 * @param ranks the column's order (optional): the node's rows are then sorted by their places in it
 */
export function nodeThresholds(
  x: NumericValues,
  labels: Int32Array,
  classes: number,
  rows: ArrayLike<number>,
  weights: ArrayLike<number>,
  opts: ThresholdOptions,
  ranks?: ColumnRanks,
): NodeThresholds {
  // Known rows, ascending by value (ties by row index: deterministic).
  const known = ranks ? knownByRank(x, rows, weights, ranks) : knownBySort(x, rows, weights);
  const pairs: PairThreshold[] = [];
  const m = known.length;
  if (m === 0) return { pairs, thresholds: [] };
  const lo = x[known[0]];
  const hi = x[known[m - 1]];
  const classWeight = new Float64Array(classes);
  addClassWeights(known, labels, weights, classWeight);
  const present: number[] = [];
  for (let c = 0; c < classes; c++) if (classWeight[c] > 0) present.push(c);

  // Only the unit-norm scaling reads the node's norm.
  const norm = opts.svmScaling === 'unit-norm' ? Math.sqrt(sumOfSquares(x, known)) : 0;
  const raw: number[] = [];
  for (let i = 0; i < present.length; i++) {
    for (let j = i + 1; j < present.length; j++) {
      // With two classes present every known row is of the pair (each has a positive weight).
      const rowsOfPair = present.length === 2 ? known : pairRows(known, labels, present[i], present[j]);
      const pair = pairThreshold(x, labels, weights, rowsOfPair, present[i], present[j], classWeight, opts, norm);
      pairs.push(pair);
      if (Number.isFinite(pair.threshold)) raw.push(pair.threshold);
    }
  }
  raw.sort((p, q) => p - q);
  const tol = 1e-9 * (hi - lo);
  const thresholds: number[] = [];
  for (const t of raw) {
    if (t < lo || t >= hi) continue;
    if (thresholds.length > 0 && t - thresholds[thresholds.length - 1] <= tol) continue;
    thresholds.push(t);
  }
  return { pairs, thresholds };
}

/*
 * The passes over a node's rows below are functions of their own that return right after their
 * loops (docs/performance.md, "V8's on-stack compilation").
 */

/** Each row's weight added to its class's in `classWeight`. */
function addClassWeights(
  rows: Int32Array,
  labels: Int32Array,
  weights: ArrayLike<number>,
  classWeight: Float64Array,
): void {
  for (let i = 0; i < rows.length; i++) classWeight[labels[rows[i]]] += weights[rows[i]];
}

/** Σ x² over the rows. */
function sumOfSquares(x: NumericValues, rows: Int32Array): number {
  let s = 0;
  for (let i = 0; i < rows.length; i++) s += x[rows[i]] * x[rows[i]];
  return s;
}

/** Σ x over the rows. */
function sumOf(x: NumericValues, rows: Int32Array): number {
  let s = 0;
  for (let i = 0; i < rows.length; i++) s += x[rows[i]];
  return s;
}

/** Σ (x − shift)² over the rows. */
function sumOfSquaredDeviations(x: NumericValues, rows: Int32Array, shift: number): number {
  let ss = 0;
  for (let i = 0; i < rows.length; i++) ss += (x[rows[i]] - shift) ** 2;
  return ss;
}

/** The rows of `known` of class a or b, in order (in `scratch.pair`). */
function pairRows(known: Int32Array, labels: Int32Array, a: number, b: number): Int32Array {
  const out = (scratch.pair = grown(scratch.pair, known.length));
  return out.subarray(0, rowsOfClasses(known, labels, a, b, out));
}

/** The rows of `known` of class a or b, in order, into `out`; their number. */
function rowsOfClasses(known: Int32Array, labels: Int32Array, a: number, b: number, out: Int32Array): number {
  let m = 0;
  for (let i = 0; i < known.length; i++) {
    const r = known[i];
    if (labels[r] === a || labels[r] === b) out[m++] = r;
  }
  return m;
}

function pairThreshold(
  x: NumericValues,
  labels: Int32Array,
  weights: ArrayLike<number>,
  rows: Int32Array,
  a: number,
  b: number,
  classWeight: Float64Array,
  opts: ThresholdOptions,
  nodeNorm: number,
): PairThreshold {
  const m = rows.length;
  const none: PairThreshold = { a, b, threshold: NaN, w: 0, bias: 0 };
  if (m < 2 || x[rows[0]] === x[rows[m - 1]]) return none;
  let shift = 0;
  let scale = 1;
  if (opts.svmScaling === 'standardize') {
    // Unweighted mean and sample standard deviation, as MATLAB's svmtrain autoscale.
    shift = sumOf(x, rows) / m;
    scale = Math.sqrt(sumOfSquaredDeviations(x, rows, shift) / (m - 1));
    if (!(scale > 0)) return none;
  } else if (opts.svmScaling === 'unit-norm') {
    scale = nodeNorm;
    if (!(scale > 0)) return none;
  }
  const [ca, cb] = opts.svmBalance
    ? balancedBoxConstraints(classWeight[a], classWeight[b], opts.svmC)
    : [opts.svmC, opts.svmC];
  const xs = (scratch.xs = grown(scratch.xs, m));
  const ys = (scratch.ys = grown(scratch.ys, m));
  const cs = (scratch.cs = grown(scratch.cs, m));
  pairProblem(x, labels, weights, rows, a, shift, scale, ca, cb, xs, ys, cs);
  const svm = solveSvm1dPlane(xs, ys, cs, m, { sorted: true, bias: opts.svmBias, rank: rows }, null, scratch.svm);
  if (svm.w === 0) return { ...none, bias: svm.b };
  return { a, b, threshold: shift + scale * svm.threshold, w: svm.w, bias: svm.b };
}

/** The pair's SVM problem: each row's scaled value, side (+1: class a) and C times its weight. */
function pairProblem(
  x: NumericValues,
  labels: Int32Array,
  weights: ArrayLike<number>,
  rows: Int32Array,
  a: number,
  shift: number,
  scale: number,
  ca: number,
  cb: number,
  xs: Float64Array,
  ys: Float64Array,
  cs: Float64Array,
): void {
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    xs[i] = (x[r] - shift) / scale;
    ys[i] = labels[r] === a ? 1 : -1;
    cs[i] = (labels[r] === a ? ca : cb) * weights[r];
  }
}

/**
 * Branch of value v under sorted thresholds t: the first i with v ≤ t[i], else t.length (-1 for a
 * missing value). The one definition is `numericBranch` (src/model/route.ts); this name stays for
 * the C-MBSV API.
 */
export const branchOfValue: (t: readonly number[], v: number) => number = numericBranch;
