/**
 * The distinct-class measure of Chandra & Varghese (2009), as quoted in the C-MBSV paper eq. 9.
 * The paper writes it for a binary split; for a multiway split it has one term per branch
 * ("the number of terms is equal to the number of distinct values"). Minimised.
 */

import { distinctClasses, distinctClassesOfRow, ZERO_TOLERANCE } from './table.js';
import type { CountTable, Criterion } from './types.js';

export const chandraVarghese: Criterion = {
  name: 'chandra-varghese',
  better: 'lower',
  formula:
    'CV = sum_v (n_v/n) (C_v/C_R) sum_{k present in v} n_vk / n_k(R), ' +
    'C = number of distinct classes, R = the parent node',
  source: 'Chandra & Varghese 2009; C-MBSV paper (Salehi-Moghaddami, Sadoghi Yazdi, Poostchi 2011) eq. 9',
  evaluate(t: CountTable): number {
    const n = t.total;
    if (!(n > 0)) return 0;
    const cr = distinctClasses(t);
    if (cr === 0) return 0;
    const { branches, classes, counts, branchTotals, classTotals } = t;
    const tol = n * ZERO_TOLERANCE;
    let m = 0;
    for (let b = 0; b < branches; b++) {
      const nv = branchTotals[b];
      if (!(nv > tol)) continue;
      const offset = b * classes;
      const cv = distinctClassesOfRow(counts, offset, classes, nv);
      const rowTol = nv * ZERO_TOLERANCE;
      let s = 0;
      for (let c = 0; c < classes; c++) {
        const x = counts[offset + c];
        const nk = classTotals[c];
        if (!(x > rowTol) || !(nk > tol)) continue;
        s += x / nk;
      }
      m += (nv / n) * (cv / cr) * s;
    }
    return m;
  },
};
