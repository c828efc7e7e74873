import { GroveError } from '../core/errors.js';
import type { CountTable } from './types.js';

/**
 * Relative tolerance under which a (weighted) count is treated as zero.
 *
 * Scanners update tables in place by adding and subtracting sample weights, so with fractional
 * weights a branch or class that is really empty can be left holding a rounding residue such as
 * 2.8e-17 instead of 0. Measures that count things (non-empty branches, distinct classes) would
 * jump on such a residue, so every "is this present?" test compares against `scale * ZERO_TOLERANCE`
 * where `scale` is the relevant total (the table total for branches and classes, the row total for
 * cells). Being relative, the test does not change when every count is multiplied by a constant.
 */
export const ZERO_TOLERANCE = 1e-12;

/** A zeroed table with `branches` rows and `classes` columns. */
export function createTable(branches: number, classes: number): CountTable {
  if (!Number.isInteger(branches) || branches < 0) {
    throw new GroveError(`count table: branches must be a non-negative integer, got ${branches}`);
  }
  if (!Number.isInteger(classes) || classes < 0) {
    throw new GroveError(`count table: classes must be a non-negative integer, got ${classes}`);
  }
  return {
    branches,
    classes,
    counts: new Float64Array(branches * classes),
    branchTotals: new Float64Array(branches),
    classTotals: new Float64Array(classes),
    total: 0,
  };
}

/**
 * A table from a matrix of counts: one row per branch, one column per class. Totals are computed.
 * Rows must all have the same length; counts must be finite and non-negative (fractions allowed).
 */
export function tableFromCounts(rows: ReadonlyArray<ArrayLike<number>>): CountTable {
  const classes = rows.length > 0 ? rows[0].length : 0;
  const t = createTable(rows.length, classes);
  for (let b = 0; b < rows.length; b++) {
    const row = rows[b];
    if (row.length !== classes) {
      throw new GroveError(`count table: row ${b + 1} has ${row.length} counts, expected ${classes} (one per class)`);
    }
    for (let c = 0; c < classes; c++) {
      const x = row[c];
      if (typeof x !== 'number' || !Number.isFinite(x) || x < 0) {
        throw new GroveError(
          `count table: row ${b + 1}, class ${c + 1}: count must be a finite number >= 0, got ${String(x)}`,
        );
      }
      t.counts[b * classes + c] = x;
    }
  }
  recomputeTotals(t);
  return t;
}

/** Recompute `branchTotals`, `classTotals` and `total` from `counts`, in place. */
export function recomputeTotals(t: CountTable): void {
  const { branches, classes, counts, branchTotals, classTotals } = t;
  classTotals.fill(0);
  let total = 0;
  for (let b = 0; b < branches; b++) {
    const offset = b * classes;
    let rowTotal = 0;
    for (let c = 0; c < classes; c++) {
      const x = counts[offset + c];
      rowTotal += x;
      classTotals[c] += x;
    }
    branchTotals[b] = rowTotal;
    total += rowTotal;
  }
  t.total = total;
}

/**
 * The parent node seen as a table with a single branch holding every sample. Evaluating a
 * criterion on it gives the "no split" value (0 for the gain family, the node impurity for gini,
 * the node's own M for DCSM, ...).
 */
export function singleBranchTable(classTotals: ArrayLike<number>): CountTable {
  return tableFromCounts([classTotals]);
}

/**
 * Shannon entropy in bits (log base 2) of one row of counts:
 * `-Σ_k (c_k/total) log2(c_k/total)` over `counts[offset .. offset + classes)`.
 * Cells that are zero (or a rounding residue of zero) contribute nothing; an empty row has entropy 0.
 */
export function entropyOfRow(counts: ArrayLike<number>, offset: number, classes: number, total: number): number {
  if (!(total > 0)) return 0;
  const tol = total * ZERO_TOLERANCE;
  let h = 0;
  for (let c = 0; c < classes; c++) {
    const x = counts[offset + c];
    if (x > tol) {
      const p = x / total;
      h -= p * Math.log2(p);
    }
  }
  // Guard against -0 and tiny negative rounding for pure rows.
  return h > 0 ? h : 0;
}

/** Entropy in bits of the class distribution of the whole table (the parent node). */
export function parentEntropy(t: CountTable): number {
  return entropyOfRow(t.classTotals, 0, t.classes, t.total);
}

/** An impurity of one branch of the table: `row(counts, offset, classes, total)`. */
export type RowImpurity = (counts: Float64Array, offset: number, classes: number, total: number) => number;

/**
 * `Σ_v (n_v/n) · impurity(v)` over the non-empty branches: the weighted impurity of the children
 * (split entropy with `entropyOfRow`, weighted Gini with `giniOfRow`).
 */
export function weightedChildImpurity(t: CountTable, impurity: RowImpurity): number {
  const n = t.total;
  if (!(n > 0)) return 0;
  const { branches, classes, counts, branchTotals } = t;
  const tol = n * ZERO_TOLERANCE;
  let h = 0;
  for (let b = 0; b < branches; b++) {
    const nv = branchTotals[b];
    if (nv > tol) h += (nv / n) * impurity(counts, b * classes, classes, nv);
  }
  return h;
}

/**
 * Weighted entropy of the children in bits, `Σ_v (n_v/n) H(v)` (Zaki's "split entropy",
 * Quinlan's expected information). Empty branches contribute nothing.
 */
export function childEntropy(t: CountTable): number {
  return weightedChildImpurity(t, entropyOfRow);
}

/** Number of branches holding at least one sample (weight above the zero tolerance). */
export function nonEmptyBranches(t: CountTable): number {
  const tol = t.total * ZERO_TOLERANCE;
  let k = 0;
  for (let b = 0; b < t.branches; b++) if (t.branchTotals[b] > tol) k++;
  return k;
}

/** Number of classes present in the whole table (D(u) in DCSM, C_R in Chandra-Varghese). */
export function distinctClasses(t: CountTable): number {
  const tol = t.total * ZERO_TOLERANCE;
  let k = 0;
  for (let c = 0; c < t.classes; c++) if (t.classTotals[c] > tol) k++;
  return k;
}

/** Number of classes present in one row (D(v) / C_v); `total` sets the zero tolerance. */
export function distinctClassesOfRow(
  counts: ArrayLike<number>,
  offset: number,
  classes: number,
  total: number,
): number {
  const tol = total * ZERO_TOLERANCE;
  let k = 0;
  for (let c = 0; c < classes; c++) if (counts[offset + c] > tol) k++;
  return k;
}

/** Information gain in bits: `H(parent) - Σ_v (n_v/n) H(v)`; never below 0. */
export function informationGain(t: CountTable): number {
  const g = parentEntropy(t) - childEntropy(t);
  // Gain is >= 0 mathematically; clamp rounding noise (e.g. -1e-17 for an uninformative split).
  return g > 0 ? g : 0;
}
