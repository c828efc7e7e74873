import { badArgument, checkInteger, checkNumber, checkNumbers } from '../../core/args.js';
import { MAX_GROUPS, studentizedRangeCdf, studentizedRangeQuantile } from '../../core/distributions.js';

/**
 * Critical values q_α of the two-tailed Nemenyi test for k = 2..10 competitors, from Demšar,
 * "Statistical comparisons of classifiers over multiple data sets", JMLR 7 (2006), Table 5(a):
 * the studentized range statistic (infinite df) divided by √2.
 */
export const NEMENYI_Q: Readonly<Record<'0.05' | '0.1', readonly number[]>> = {
  //      k = 2      3      4      5      6      7      8      9     10
  '0.05': [1.96, 2.343, 2.569, 2.728, 2.85, 2.949, 3.031, 3.102, 3.164],
  '0.1': [1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.78, 2.855, 2.92],
};

export type NemenyiAlpha = 0.05 | 0.1;

/**
 * q_α for k competitors: Demšar's table for k ≤ 10; beyond it the same quantity computed,
 * qtukey(1 − α, k, ∞)/√2 (which reproduces the table to its three decimals).
 */
export function nemenyiQ(k: number, alpha: NemenyiAlpha = 0.05): number {
  checkInteger('nemenyiQ', 'k', k, 2, MAX_GROUPS);
  if (alpha !== 0.05 && alpha !== 0.1) badArgument('nemenyiQ', 'alpha', '0.05 or 0.1', alpha);
  const table = NEMENYI_Q[alpha === 0.05 ? '0.05' : '0.1'];
  return k <= 10 ? table[k - 2] : studentizedRangeQuantile(1 - alpha, k) / Math.SQRT2;
}

/** Nemenyi critical difference of average ranks: CD = q_α √(k(k+1) / (6N)). */
export function criticalDifference(k: number, N: number, alpha: NemenyiAlpha = 0.05): number {
  checkInteger('criticalDifference', 'N', N, 1);
  return nemenyiQ(k, alpha) * Math.sqrt((k * (k + 1)) / (6 * N));
}

/**
 * Nemenyi p-value for one pair of average ranks: z = |R_i − R_j| / √(k(k+1)/(6N)), and
 * p = P(studentized range of k > z√2) (as PMCMRplus::frdAllPairsNemenyiTest in R).
 */
export function nemenyiPValue(rankI: number, rankJ: number, k: number, N: number): number {
  checkNumber('nemenyiPValue', 'rankI', rankI);
  checkNumber('nemenyiPValue', 'rankJ', rankJ);
  checkInteger('nemenyiPValue', 'k', k, 2);
  checkInteger('nemenyiPValue', 'N', N, 1);
  const z = Math.abs(rankI - rankJ) / Math.sqrt((k * (k + 1)) / (6 * N));
  return 1 - studentizedRangeCdf(z * Math.SQRT2, k);
}

/**
 * Groups of competitors whose average ranks are within CD of each other (not significantly
 * different): maximal runs of the rank-sorted list, as the bars of a critical-difference diagram.
 * Returns indices into `ranks`; runs of one are left out.
 */
export function cliques(ranks: readonly number[], cd: number): number[][] {
  checkNumbers('cliques', 'ranks', ranks);
  checkNumber('cliques', 'cd', cd);
  const order = ranks.map((_, i) => i).sort((a, b) => ranks[a] - ranks[b] || a - b);
  const groups: number[][] = [];
  let lastEnd = -1;
  for (let i = 0; i < order.length; i++) {
    let j = i;
    while (j + 1 < order.length && ranks[order[j + 1]] - ranks[order[i]] < cd) j++;
    if (j > i && j > lastEnd) {
      groups.push(order.slice(i, j + 1));
      lastEnd = j;
    }
  }
  return groups;
}
