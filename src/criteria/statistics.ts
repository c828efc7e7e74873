/**
 * Contingency-table statistics: Pearson's chi-square and the G (log-likelihood ratio) statistic.
 * Both grow with the sample size (doubling every count doubles them) and are maximised.
 */

import { EntropySums, type IncrementalForm } from './incremental.js';
import { ZERO_TOLERANCE } from './table.js';
import type { CountTable, Criterion } from './types.js';

/** χ² = n (Σ_c L_c²/n_c / n_L + Σ_c R_c²/n_c / n_R − 1), the class sums kept running. */
class ChiSquareSums implements IncrementalForm {
  private inv = new Float64Array(0);
  private qL = 0;
  private qR = 0;
  private n = 0;

  reset(totals: ArrayLike<number>, k: number): void {
    if (this.inv.length < k) this.inv = new Float64Array(k);
    let n = 0;
    for (let c = 0; c < k; c++) n += totals[c];
    const tol = n * ZERO_TOLERANCE;
    let q = 0;
    for (let c = 0; c < k; c++) {
      this.inv[c] = totals[c] > tol ? 1 / totals[c] : 0;
      q += totals[c] * totals[c] * this.inv[c];
    }
    this.n = n;
    this.qL = 0;
    this.qR = q;
  }

  move(c: number, w: number, l: number, r: number): void {
    const inv = this.inv[c];
    this.qL += w * (2 * l + w) * inv;
    this.qR += w * (w - 2 * r) * inv;
  }

  value(nL: number, nR: number): number {
    const tol = this.n * ZERO_TOLERANCE;
    if (!(nL > tol) || !(nR > tol)) return 0;
    const x2 = this.n * (this.qL / nL + this.qR / nR - 1);
    return x2 > 0 ? x2 : 0;
  }
}

/** A cell's share of a statistic: observed count `o`, branch total `nv`, class total `nk`, table total `n`. */
type CellTerm = (o: number, nv: number, nk: number, n: number, tol: number) => number;

/**
 * Σ `term` over the cells of the table's non-empty branches and non-empty classes (where the
 * expected count n_v n_k / n is positive), with `tol` the table's zero tolerance; 0 for an empty
 * table.
 */
function sumOverCells(t: CountTable, term: CellTerm): number {
  const n = t.total;
  if (!(n > 0)) return 0;
  const { branches, classes, counts, branchTotals, classTotals } = t;
  const tol = n * ZERO_TOLERANCE;
  let sum = 0;
  for (let b = 0; b < branches; b++) {
    const nv = branchTotals[b];
    if (!(nv > tol)) continue;
    const offset = b * classes;
    for (let c = 0; c < classes; c++) {
      const nk = classTotals[c];
      if (!(nk > tol)) continue;
      sum += term(counts[offset + c], nv, nk, n, tol);
    }
  }
  return sum;
}

/** (O − E)² / E. */
const chiSquareTerm: CellTerm = (o, nv, nk, n) => {
  const e = (nv * nk) / n;
  const d = o - e;
  return (d * d) / e;
};

/** O ln(O/E); a cell with O = 0 contributes 0 (lim O ln O = 0). */
const gTerm: CellTerm = (o, nv, nk, n, tol) => (o > tol ? o * Math.log((o * n) / (nv * nk)) : 0);

export const chiSquare: Criterion = {
  name: 'chi-square',
  better: 'higher',
  formula: 'X2 = sum_{v,k} (O_vk - E_vk)^2 / E_vk, E_vk = n_v n_k / n, over non-empty branches and classes',
  source: 'Pearson chi-square (CHAID, Kass 1980); C-MBSV paper (Salehi-Moghaddami et al. 2011) eq. 7',
  incremental: () => new ChiSquareSums(),
  evaluate(t: CountTable): number {
    return sumOverCells(t, chiSquareTerm);
  },
};

/**
 * G = 2 Σ O ln(O/E), natural logarithm. With ln the statistic is asymptotically chi-square
 * distributed with (b-1)(k-1) degrees of freedom and equals 2·N·IG with IG measured in nats
 * (= 2·N·ln(2)·IG_bits); the C-MBSV paper's eq. 8 writes it as G = 2N × I.
 */
export const gStatistic: Criterion = {
  name: 'g-statistic',
  better: 'higher',
  formula: 'G = 2 sum_{v,k} O_vk ln(O_vk / E_vk), E_vk = n_v n_k / n, natural log (= 2 N IG_nats)',
  source: 'Log-likelihood ratio G-test (Mingers 1987); C-MBSV paper (Salehi-Moghaddami et al. 2011) eq. 8',
  // G = 2 (n·H(parent) − Σ_v n_v·H(v)) in nats.
  incremental: () => {
    const e = new EntropySums();
    e.value = (nL: number, nR: number) => {
      const x = e.xlx;
      const g = 2 * (e.parent - (x.of(nL) - e.sumL + (x.of(nR) - e.sumR)));
      return g > 0 ? g : 0;
    };
    return e;
  },
  evaluate(t: CountTable): number {
    const g = 2 * sumOverCells(t, gTerm);
    return g > 0 ? g : 0;
  },
};
