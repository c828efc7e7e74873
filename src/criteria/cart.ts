/** CART's measures: weighted Gini impurity (minimised) and the twoing / CART measure (maximised). */

import { SquareSums } from './incremental.js';
import { weightedChildImpurity, ZERO_TOLERANCE } from './table.js';
import type { CountTable, Criterion } from './types.js';

/** Gini impurity `1 - Σ_k (c_k/total)²` of one row; 0 for an empty row. */
export function giniOfRow(counts: ArrayLike<number>, offset: number, classes: number, total: number): number {
  if (!(total > 0)) return 0;
  let sq = 0;
  for (let c = 0; c < classes; c++) {
    const p = counts[offset + c] / total;
    sq += p * p;
  }
  const g = 1 - sq;
  return g > 0 ? g : 0;
}

export const gini: Criterion = {
  name: 'gini',
  better: 'lower',
  formula: 'G = sum_v (n_v/n) (1 - sum_k p_vk^2), p_vk = n_vk/n_v (weighted Gini impurity of the children)',
  source: 'Breiman et al. 1984 (CART); Zaki & Meira ch. 19 (weighted Gini index); DCSM paper eq. 5',
  incremental: () => new SquareSums(),
  evaluate(t: CountTable): number {
    return weightedChildImpurity(t, giniOfRow);
  },
};

export const twoing: Criterion = {
  name: 'twoing',
  better: 'higher',
  binaryOnly: true,
  formula: 'CART = 2 (n_Y/n)(n_N/n) sum_k |P(c_k|D_Y) - P(c_k|D_N)|; binary splits only',
  source: 'Breiman et al. 1984 (twoing); Zaki & Meira ch. 19 (CART measure)',
  evaluate(t: CountTable): number {
    // A one-branch table is the unsplit parent, i.e. a binary split with an empty side: 0.
    if (t.branches === 1) return 0;
    if (t.branches !== 2) return NaN;
    const n = t.total;
    const { classes, counts, branchTotals } = t;
    const tol = n * ZERO_TOLERANCE;
    const nY = branchTotals[0];
    const nN = branchTotals[1];
    if (!(nY > tol) || !(nN > tol)) return 0;
    let diff = 0;
    for (let c = 0; c < classes; c++) {
      diff += Math.abs(counts[c] / nY - counts[classes + c] / nN);
    }
    return 2 * (nY / n) * (nN / n) * diff;
  },
};
