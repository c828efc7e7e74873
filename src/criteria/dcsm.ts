/** DCSM, the distinct class based splitting measure (Chandra, Kothari & Paul 2010). Minimised. */
import type { CountTable, Criterion } from './types.js';
import { ZERO_TOLERANCE, distinctClasses, distinctClassesOfRow } from './table.js';

export const dcsm: Criterion = {
  name: 'dcsm',
  better: 'lower',
  formula:
    'M = sum_v (n_v/n) D(v) exp(D(v)) sum_k a_vk exp(delta_v (1 - a_vk^2)), a_vk = n_vk/n_v, delta_v = D(v)/D(u), D = number of distinct classes',
  source: 'Chandra, Kothari & Paul 2010, "A new node splitting measure for decision tree construction", Pattern Recognition 43, eq. 6',
  evaluate(t: CountTable): number {
    const n = t.total;
    if (!(n > 0)) return 0;
    const du = distinctClasses(t);
    if (du === 0) return 0;
    const { branches, classes, counts, branchTotals } = t;
    const tol = n * ZERO_TOLERANCE;
    let m = 0;
    for (let b = 0; b < branches; b++) {
      const nv = branchTotals[b];
      if (!(nv > tol)) continue;
      const offset = b * classes;
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
      m += (nv / n) * dv * Math.exp(dv) * inner;
    }
    return m;
  },
};
