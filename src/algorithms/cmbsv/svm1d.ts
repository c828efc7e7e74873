/**
 * Exact one-dimensional soft-margin SVM (C-MBSV paper, eq. 11 with x ∈ ℝ):
 *
 *     minimise ½w² + Σ_i C_i ξ_i   subject to   y_i (w x_i + b) ≥ 1 − ξ_i,  ξ_i ≥ 0,  y_i ∈ {−1, +1}.
 *
 * Solved exactly (no iterations, no stopping tolerance) through the dual
 *
 *     maximise Σ α_i − ½ (Σ α_i y_i x_i)²   subject to   0 ≤ α_i ≤ C_i,  Σ α_i y_i = 0.
 *
 * In one dimension the dual is a one-parameter problem. Let s = Σ_{y=+1} α_i = Σ_{y=−1} α_i (the
 * equality constraint) so that Σ α_i = 2s. For a fixed s the attainable w = Σ α_i y_i x_i form an
 * interval [wmin(s), wmax(s)]: wmin puts the positive mass s on the smallest positive x's and the
 * negative mass on the largest negative x's (each up to its cap C_i; a fractional knapsack), wmax
 * the other way round. So the dual is  max_s 2s − ½ d(s)²  with d(s) = distance from 0 to that
 * interval = max(0, wmin(s), −wmax(s)); wmin is convex piecewise-linear in s and −wmax too, so the
 * objective is concave and its maximiser s* is found by walking the breakpoints (the sorted x's)
 * once: on a piece where d has slope m, the derivative 2 − m·d(s) vanishes at d = 2/m.
 * w* = wmin(s*) if that is positive, wmax(s*) if that is negative, else 0 (the primal w is unique).
 *
 * b: with w* fixed the primal is Σ C_i hinge_i(b), convex piecewise-linear in b; its minimisers
 * are an interval [bLow, bHigh] (a weighted-median set). When some α_i is strictly between its
 * bounds the interval is a single point; otherwise every b in it is optimal and we take the
 * midpoint, which is libsvm's convention for that case (so thresholds are comparable with
 * `svm-train -t 0`; see scripts/svm1d-vs-libsvm.sh).
 *
 * Cost: O(m) after sorting the rows by x (O(m log m); pass `sorted: true` when x is ascending).
 * The only rounding is floating-point summation: results agree with the exact optimum to about
 * 1e-12 relative (the tests compare with hand-solved optima to 1e-9).
 */

import { ClassRows, classRows } from './svm1d-rows.js';

export interface Svm1dOptions {
  /** x is already sorted ascending (skips the sort). */
  sorted?: boolean;
  /**
   * Which optimal b to report when several are optimal (all α at their bounds):
   * - `midpoint` (default): the middle of the optimal interval, as libsvm;
   * - `max-alpha`: MATLAB `svmtrain`'s QP method (R2010a, the paper's tool): b = y_j − w x_j for
   *   the row j with the largest α (first in `rank` order on a tie), i.e. that row is put exactly on
   *   its margin even when it violates it — then b need not be optimal and, when the classes
   *   overlap (w small), the threshold −b/w can land far outside the data.
   */
  bias?: 'midpoint' | 'max-alpha';
  /** Tie order for `max-alpha` (MATLAB's max takes the first row): one key per row, default the row index. */
  rank?: ArrayLike<number>;
}

export interface Svm1dResult {
  /** Optimal weight w* (0 when the two classes cannot be told apart at all). */
  w: number;
  /** Chosen bias: midpoint of [bLow, bHigh]. */
  b: number;
  /** The interval of optimal biases for w* (bLow = bHigh when it is unique). */
  bLow: number;
  bHigh: number;
  /** Decision threshold t = −b / w (the x where w x + b = 0); NaN when w = 0. */
  threshold: number;
  /** Primal objective ½w² + Σ C_i ξ_i at (w, b). */
  objective: number;
  /** An optimal dual solution, one α per input row (in input order). */
  alpha: Float64Array;
}

/** The hyperplane of `solveSvm1d` without the dual solution and the objective. */
export type Svm1dPlane = Pick<Svm1dResult, 'w' | 'b' | 'bLow' | 'bHigh' | 'threshold'>;

/** Rows with C_i = 0 do not constrain the problem and are ignored. */
export function solveSvm1d(
  x: ArrayLike<number>,
  y: ArrayLike<number>,
  c: ArrayLike<number>,
  options: Svm1dOptions = {},
): Svm1dResult {
  const m = x.length;
  if (y.length !== m || c.length !== m) throw new RangeError('solveSvm1d: x, y and c must have the same length');
  const alpha = new Float64Array(m);
  const rows = new ClassRows();
  const plane = solveSvm1dPlane(x, y, c, m, options, alpha, rows);
  // One class only (w = 0, b = ±1) meets every constraint: no hinge loss.
  const objective = rows.np === 0 || rows.nn === 0 ? 0 : primalObjective(plane.w, plane.b, rows);
  return { ...plane, objective, alpha };
}

/**
 * `solveSvm1d` over the first m rows of x, y and c, its dual solution written to `alpha` (m zeros
 * on entry) when given. `rows` is the solve's working memory, kept by the caller from one solve to
 * the next and holding this problem's rows by class afterwards. Without `alpha` nothing is
 * allocated once `rows` is large enough, and the dual solution is found only when the `max-alpha`
 * bias reads it.
 */
export function solveSvm1dPlane(
  x: ArrayLike<number>,
  y: ArrayLike<number>,
  c: ArrayLike<number>,
  m: number,
  options: Svm1dOptions,
  alpha: Float64Array | null,
  rows: ClassRows,
): Svm1dPlane {
  classRows(x, y, c, m, options.sorted === true, rows);
  const { pc, np, nc, nn } = rows;
  let P = 0;
  for (let i = 0; i < np; i++) P += pc[i];
  let N = 0;
  for (let i = 0; i < nn; i++) N += nc[i];
  if (np === 0 || nn === 0) {
    // One class only: w = 0 and b = ±1 satisfy every constraint.
    const b = np > 0 ? 1 : nn > 0 ? -1 : 0;
    return { w: 0, b, bLow: b, bHigh: b, threshold: NaN };
  }
  const { w, s, side } = optimalW(rows, Math.min(P, N));
  const maxAlpha = options.bias === 'max-alpha';
  let dual = alpha;
  if (!dual && maxAlpha) {
    dual = rows.alpha;
    dual.fill(0, 0, m);
  }
  if (dual) dualSolution(dual, rows, x, y, m, s, side);
  const { low, high } = optimalBias(w, rows, P);
  let b = (low + high) / 2;
  if (maxAlpha && dual) {
    const rank = options.rank;
    let j = -1;
    for (let i = 0; i < m; i++)
      if (dual[i] > 0 && (j < 0 || dual[i] > dual[j] || (dual[i] === dual[j] && (rank ? rank[i] < rank[j] : i < j))))
        j = i;
    if (j >= 0) b = (y[j] > 0 ? 1 : -1) - w * x[j];
  }
  return { w, b, bLow: low, bHigh: high, threshold: w !== 0 ? -b / w : NaN };
}

/**
 * The dual solution: the extreme fill that realises w (side 1: positives from the smallest x,
 * negatives from the largest; side 2 the other way round); for w = 0 the mix of the two fills
 * whose w is 0.
 */
function dualSolution(
  alpha: Float64Array,
  rows: ClassRows,
  x: ArrayLike<number>,
  y: ArrayLike<number>,
  m: number,
  s: number,
  side: 0 | 1 | 2,
): void {
  const { pi, pc, np, ni, nc, nn } = rows;
  if (side !== 0) {
    fillAlpha(alpha, pi, pc, np, s, side === 2);
    fillAlpha(alpha, ni, nc, nn, s, side !== 2);
    return;
  }
  const a1 = new Float64Array(m);
  fillAlpha(a1, pi, pc, np, s, false);
  fillAlpha(a1, ni, nc, nn, s, true);
  const a2 = new Float64Array(m);
  fillAlpha(a2, pi, pc, np, s, true);
  fillAlpha(a2, ni, nc, nn, s, false);
  let w1 = 0;
  let w2 = 0;
  for (let i = 0; i < m; i++) {
    const sign = y[i] > 0 ? 1 : -1;
    w1 += a1[i] * sign * x[i];
    w2 += a2[i] * sign * x[i];
  }
  const lambda = w2 - w1 > 0 ? w2 / (w2 - w1) : 1;
  for (let i = 0; i < m; i++) alpha[i] = lambda * a1[i] + (1 - lambda) * a2[i];
}

/** α of one class: mass s poured on its n rows (ascending x, or descending), each up to its cap. */
function fillAlpha(
  alpha: Float64Array,
  rows: Int32Array,
  caps: Float64Array,
  n: number,
  s: number,
  descending: boolean,
): void {
  let left = s;
  for (let q = 0; q < n && left > 0; q++) {
    const j = descending ? n - 1 - q : q;
    const a = Math.min(caps[j], left);
    alpha[rows[j]] = a;
    left -= a;
  }
}

/**
 * One of the four fills of the knapsack walk: mass s placed on `xs` in the order of `idx` (each
 * element up to its cap), giving Σ α x as a piecewise-linear function of s.
 */
class Fill {
  private k = 0;
  /** Mass and Σ α·x of the elements before the current one. */
  private baseMass = 0;
  private baseX = 0;
  /** x of the element being filled (its slope); kept as the fill moves, read at every step of the walk. */
  slope = 0;
  /** Mass at which the current element is full (the last element never fills: s stays ≤ its total). */
  end = 0;
  /** The fill of the first n elements of xs (their caps in `caps`). */
  constructor(
    private readonly xs: Float64Array,
    private readonly caps: Float64Array,
    private readonly n: number,
    private readonly descending: boolean,
  ) {
    this.settle();
  }
  private at(k: number): number {
    return this.descending ? this.n - 1 - k : k;
  }
  /** `slope` and `end` of the current element. */
  private settle(): void {
    const j = this.at(this.k);
    this.slope = this.xs[j];
    this.end = this.k === this.n - 1 ? Infinity : this.baseMass + this.caps[j];
  }
  value(s: number): number {
    return this.baseX + this.slope * (s - this.baseMass);
  }
  /** Move past every element that is full at mass s. */
  advance(s: number): void {
    while (this.k < this.n - 1 && this.end <= s) {
      const j = this.at(this.k);
      this.baseMass += this.caps[j];
      this.baseX += this.caps[j] * this.xs[j];
      this.k++;
      this.settle();
    }
  }
}

/** Maximise 2s − ½ d(s)² over s ∈ [0, S]: w*, the mass s* and the active side (see the file comment). */
function optimalW(rows: ClassRows, S: number): { w: number; s: number; side: 0 | 1 | 2 } {
  const { px, pc, np, nx, nc, nn } = rows;
  const posLow = new Fill(px, pc, np, false); // L_pos: positives, smallest x first
  const posHigh = new Fill(px, pc, np, true); // U_pos
  const negLow = new Fill(nx, nc, nn, false); // L_neg
  const negHigh = new Fill(nx, nc, nn, true); // U_neg
  // φ1(s) = L_pos(s) − U_neg(s) = wmin(s);  φ2(s) = L_neg(s) − U_pos(s) = −wmax(s).  φ1 + φ2 ≤ 0.
  let s = 0;
  for (let guard = 0; guard < 4 * (np + nn) + 8; guard++) {
    const phi1 = posLow.value(s) - negHigh.value(s);
    const phi2 = negLow.value(s) - posHigh.value(s);
    const m1 = posLow.slope - negHigh.slope;
    const m2 = negLow.slope - posHigh.slope;
    const end = Math.min(S, posLow.end, posHigh.end, negLow.end, negHigh.end);
    // Active side: the φ that is positive, or zero and rising (convex from φ(0) = 0: once
    // positive it stays positive and increasing).
    // A φ a rounding error below 0 whose crossing point rounds to s counts as active too.
    const rising1 = m1 > 0 && s - phi1 / m1 <= s;
    const rising2 = m2 > 0 && s - phi2 / m2 <= s;
    const active = phi1 > 0 || rising1 ? 1 : phi2 > 0 || rising2 ? 2 : 0;
    if (active === 0) {
      // d = 0 here: the objective rises with slope 2. Walk to the end of the piece or to the
      // first point where a φ becomes positive, whichever comes first.
      let next = end;
      if (m1 > 0) next = Math.min(next, s - phi1 / m1);
      if (m2 > 0) next = Math.min(next, s - phi2 / m2);
      if (next >= S) return wFrom(posLow, posHigh, negLow, negHigh, S);
      s = next;
    } else {
      const phi = Math.max(0, active === 1 ? phi1 : phi2);
      const slope = active === 1 ? m1 : m2;
      const target = 2 / slope; // d·m = 2
      if (phi >= target) return wFrom(posLow, posHigh, negLow, negHigh, s);
      const sStar = s + (target - phi) / slope;
      if (sStar <= end) return wFrom(posLow, posHigh, negLow, negHigh, Math.min(sStar, S));
      if (end >= S) return wFrom(posLow, posHigh, negLow, negHigh, S);
      s = end;
    }
    posLow.advance(s);
    posHigh.advance(s);
    negLow.advance(s);
    negHigh.advance(s);
  }
  throw new Error('solveSvm1d: breakpoint walk did not terminate');
}

function wFrom(
  posLow: Fill,
  posHigh: Fill,
  negLow: Fill,
  negHigh: Fill,
  s: number,
): { w: number; s: number; side: 0 | 1 | 2 } {
  const wmin = posLow.value(s) - negHigh.value(s);
  const wmax = posHigh.value(s) - negLow.value(s);
  return wmin > 0 ? { w: wmin, s, side: 1 } : wmax < 0 ? { w: wmax, s, side: 2 } : { w: 0, s, side: 0 };
}

/**
 * The set of b minimising F(b) = Σ_{y=+1} C_i (a_i − b)₊ + Σ_{y=−1} C_i (b − e_i)₊ with
 * a_i = 1 − w x_i and e_i = −1 − w x_i. F'(b) = −Σ_{a_i > b} C_i + Σ_{e_i < b} C_i rises from −P
 * to +N; the minimisers are where it crosses 0.
 */
function optimalBias(w: number, rows: ClassRows, P: number): { low: number; high: number } {
  // Breakpoints, ascending: a_i and e_i are monotone in x, so each list is sorted by walking x
  // ascending (w < 0) or descending (w ≥ 0).
  const { px, pc, np, nx, nc, nn, a, ac, e, ec } = rows;
  for (let q = 0; q < np; q++) {
    const k = w >= 0 ? np - 1 - q : q;
    a[q] = 1 - w * px[k];
    ac[q] = pc[k];
  }
  for (let q = 0; q < nn; q++) {
    const k = w >= 0 ? nn - 1 - q : q;
    e[q] = -1 - w * nx[k];
    ec[q] = nc[k];
  }
  const tol = 1e-12 * (P + 1);
  let g = -P;
  let i = 0;
  let j = 0;
  let low = NaN;
  while (i < np || j < nn) {
    const v = j >= nn || (i < np && a[i] <= e[j]) ? a[i] : e[j];
    // Every breakpoint at v: positives leave the active set, negatives enter it; g rises.
    while (i < np && a[i] === v) g += ac[i++];
    while (j < nn && e[j] === v) g += ec[j++];
    if (Number.isNaN(low)) {
      if (g > tol) return { low: v, high: v }; // crossed 0 at v: unique minimiser
      if (g >= -tol) low = v; // F' = 0 just right of v: a flat piece starts here
    } else if (g > tol) return { low, high: v };
  }
  // g ends at N > 0, so the loop returns; this is unreachable for valid input.
  return { low: Number.isNaN(low) ? 0 : low, high: Number.isNaN(low) ? 0 : low };
}

function primalObjective(w: number, b: number, { px, pc, np, nx, nc, nn }: ClassRows): number {
  let f = 0.5 * w * w;
  for (let i = 0; i < np; i++) f += pc[i] * Math.max(0, 1 - (w * px[i] + b));
  for (let i = 0; i < nn; i++) f += nc[i] * Math.max(0, 1 + (w * nx[i] + b));
  return f;
}

/**
 * Imbalance weighting of the paper (section 4.2): rows of a class with n1 rows get
 * C1 = C · n2 / (n1 + n2), rows of the other class C2 = C · n1 / (n1 + n2), so the total penalty
 * of each class is the same. `n1`, `n2` are (weighted) class sizes.
 */
export function balancedBoxConstraints(n1: number, n2: number, C: number): [number, number] {
  return [(C * n2) / (n1 + n2), (C * n1) / (n1 + n2)];
}
