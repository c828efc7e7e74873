/**
 * Hellinger distance between the class-conditional distributions over a split's branches
 * (Cieslak & Chawla 2008, ECML PKDD; Cieslak, Hoens, Chawla & Kegelmeyer 2012, Data Mining and
 * Knowledge Discovery 24: "Hellinger distance decision trees are robust and skew-insensitive").
 * It reads `n_vk / n_k` only, never the class priors, hence skew-insensitive. Maximised.
 *
 * The papers define it for two classes. With more, grove takes the mean over the classes present
 * at the node of the one-vs-rest value (class `k` against all the others), the one-against-all
 * scheme of multi-class Hellinger trees (Dong, Liu & Jing 2022, FITEE 23): it equals the
 * two-class value when two classes are present, costs O(branches × classes) like the other
 * measures (all class pairs would cost O(branches × classes²)), and the mean, unlike the maximum,
 * credits a split for every class it separates.
 */

import { ZERO_TOLERANCE } from './table.js';
import type { CountTable, Criterion } from './types.js';

/**
 * One-vs-rest Hellinger distance of class `c` (total `nc`, the rest `n - nc`, both above `tol`).
 * Cells at or below `tol` count as 0: in-place scans leave residues (and `branch - x` can cancel
 * to one) whose square roots would otherwise weigh ~1e-8.
 */
function oneVsRest(t: CountTable, c: number, nc: number, tol: number): number {
  const { branches, classes, counts, branchTotals } = t;
  const rest = t.total - nc;
  let s = 0;
  for (let b = 0; b < branches; b++) {
    const x = counts[b * classes + c];
    const others = branchTotals[b] - x;
    const d = Math.sqrt(x > tol ? x / nc : 0) - Math.sqrt(others > tol ? others / rest : 0);
    s += d * d;
  }
  return Math.sqrt(s);
}

export const hellinger: Criterion = {
  name: 'hellinger',
  better: 'higher',
  formula:
    'HD = sqrt(sum_v (sqrt(n_v+/n_+) - sqrt(n_v-/n_-))^2) for two classes; ' +
    'with more, the mean over present classes k of HD(k vs the rest)',
  source:
    'Cieslak & Chawla 2008 (ECML PKDD); Cieslak et al. 2012, Data Min. Knowl. Disc. 24; ' +
    'one-vs-rest: Dong, Liu & Jing 2022 (FITEE 23)',
  evaluate(t: CountTable): number {
    const n = t.total;
    if (!(n > 0)) return 0;
    const tol = n * ZERO_TOLERANCE;
    let sum = 0;
    let present = 0;
    for (let c = 0; c < t.classes; c++) {
      const nc = t.classTotals[c];
      if (!(nc > tol) || !(n - nc > tol)) continue;
      sum += oneVsRest(t, c, nc, tol);
      present++;
    }
    return present > 0 ? sum / present : 0;
  },
};
