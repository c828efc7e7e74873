/** DCSM, the distinct class based splitting measure (Chandra, Kothari & Paul 2010). Minimised. */

import type { IncrementalForm } from './incremental.js';
import { distinctClasses, distinctClassesOfRow, ZERO_TOLERANCE } from './table.js';
import type { CountTable, Criterion } from './types.js';

/** e^d for the small integers D(v) takes; the same doubles `Math.exp` returns. */
const EXP_OF_INT = Float64Array.from({ length: 65 }, (_, d) => Math.exp(d));

/**
 * One branch's term of M: (n_v/n) D(v) exp(D(v)) Σ_k a_vk exp(δ_v (1 − a_vk²)), or 0 for an
 * empty branch. `evaluate` and the scan form both call it, so their values are bit-identical.
 */
function branchTerm(
  counts: ArrayLike<number>,
  offset: number,
  classes: number,
  nv: number,
  n: number,
  du: number,
): number {
  if (!(nv > n * ZERO_TOLERANCE)) return 0;
  const dv = distinctClassesOfRow(counts, offset, classes, nv);
  const delta = dv / du;
  const rowTol = nv * ZERO_TOLERANCE;
  let inner = 0;
  for (let c = 0; c < classes; c++) {
    const x = counts[offset + c];
    if (!(x > rowTol)) continue;
    const a = x / nv;
    inner += a * Math.exp(delta * (1 - a * a));
  }
  return (nv / n) * dv * (dv < EXP_OF_INT.length ? EXP_OF_INT[dv] : Math.exp(dv)) * inner;
}

/**
 * A lower bound of `branchTerm` without `exp`: e^z ≥ 1 + z + z²/2 + z³/6 + z⁴/24 for z ≥ 0, and
 * here z = δ_v (1 − a²) lies in [0, 1], where the bound is within 0.4 % of e^z. It multiplies by
 * reciprocals where `branchTerm` divides (a division costs several multiplications); the slack below
 * absorbs the difference in rounding.
 */
function branchBound(
  counts: ArrayLike<number>,
  offset: number,
  classes: number,
  nv: number,
  n: number,
  invDu: number,
): number {
  if (!(nv > n * ZERO_TOLERANCE)) return 0;
  const dv = distinctClassesOfRow(counts, offset, classes, nv);
  const delta = dv * invDu;
  const inv = 1 / nv;
  const rowTol = nv * ZERO_TOLERANCE;
  let inner = 0;
  for (let c = 0; c < classes; c++) {
    const x = counts[offset + c];
    if (!(x > rowTol)) continue;
    const a = x * inv;
    const z = delta * (1 - a * a);
    inner += a * (1 + z * (1 + z * (1 / 2 + z * (1 / 6 + z * (1 / 24)))));
  }
  return nv * dv * (dv < EXP_OF_INT.length ? EXP_OF_INT[dv] : Math.exp(dv)) * inner;
}

/** Kept below the bound so that rounding in either computation cannot lift it above the value. */
const BOUND_SLACK = 1 - 1e-9;

/**
 * The form a two-branch scan uses: it keeps both branches' class weights, so a candidate costs
 * O(classes) `exp` calls without building a table (every class share of both branches changes
 * when one row moves, so DCSM has no O(1) form), and offers an `exp`-free bound that lets the scan
 * skip candidates that cannot beat its best.
 */
export class DcsmCounts implements IncrementalForm {
  private counts = new Float64Array(0);
  private k = 0;
  private n = 0;
  private du = 0;

  reset(totals: ArrayLike<number>, k: number): void {
    if (this.counts.length < 2 * k) this.counts = new Float64Array(2 * k);
    let n = 0;
    for (let c = 0; c < k; c++) {
      this.counts[c] = 0;
      this.counts[k + c] = totals[c];
      n += totals[c];
    }
    const tol = n * ZERO_TOLERANCE;
    let du = 0;
    for (let c = 0; c < k; c++) if (totals[c] > tol) du++;
    this.k = k;
    this.n = n;
    this.du = du;
  }

  move(c: number, w: number, l: number, r: number): void {
    this.counts[c] = l + w;
    this.counts[this.k + c] = r - w;
  }

  value(nL: number, nR: number): number {
    const { n, du, k, counts } = this;
    if (!(n > 0) || du === 0) return 0;
    let m = 0;
    m += branchTerm(counts, 0, k, nL, n, du);
    m += branchTerm(counts, k, k, nR, n, du);
    return m;
  }

  /** At most `value(nL, nR)`, for a few multiplications instead of 2·classes `exp` calls. */
  optimistic(nL: number, nR: number): number {
    const { n, du, k, counts } = this;
    if (!(n > 0) || du === 0) return 0;
    const invDu = 1 / du;
    return ((branchBound(counts, 0, k, nL, n, invDu) + branchBound(counts, k, k, nR, n, invDu)) / n) * BOUND_SLACK;
  }
}

export const dcsm: Criterion = {
  name: 'dcsm',
  better: 'lower',
  formula:
    'M = sum_v (n_v/n) D(v) exp(D(v)) sum_k a_vk exp(delta_v (1 - a_vk^2)), a_vk = n_vk/n_v, ' +
    'delta_v = D(v)/D(u), D = number of distinct classes',
  source:
    'Chandra, Kothari & Paul 2010, "A new node splitting measure for decision tree construction", ' +
    'Pattern Recognition 43, eq. 6',
  incremental: () => new DcsmCounts(),
  evaluate(t: CountTable): number {
    const n = t.total;
    if (!(n > 0)) return 0;
    const du = distinctClasses(t);
    if (du === 0) return 0;
    const { branches, classes, counts, branchTotals } = t;
    let m = 0;
    for (let b = 0; b < branches; b++) m += branchTerm(counts, b * classes, classes, branchTotals[b], n, du);
    return m;
  },
};
