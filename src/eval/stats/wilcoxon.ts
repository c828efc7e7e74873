import { badArgument, checkInteger, checkNumber, checkNumbers } from '../../core/args.js';
import { normalCdf } from '../../core/special.js';
import { nearlyEqual } from './ranks.js';

export interface WilcoxonResult {
  /** Pairs whose difference is not zero (zeros are dropped, as R and scipy's default do). */
  n: number;
  zeros: number;
  /** V: the sum of the ranks of the positive differences x − y. */
  statistic: number;
  /** Two-sided p-value. */
  pValue: number;
  method: 'exact' | 'normal';
  /** True when some |differences| tie (their ranks are averaged). */
  ties: boolean;
  /** z of the normal approximation (after the continuity correction), when used. */
  z?: number;
  /** One line saying how p was computed. */
  description: string;
}

/** Largest n for the exact distribution: its table holds n(n + 1)/2 + 1 counts, filled in O(n³). */
export const MAX_EXACT_N = 1000;

/** P(V ≤ v) for the signed-rank statistic of n untied, non-zero differences (exact, by counting subsets of 1..n). */
export function signedRankCdf(v: number, n: number): number {
  checkNumber('signedRankCdf', 'v', v);
  checkInteger('signedRankCdf', 'n', n, 0, MAX_EXACT_N);
  const max = (n * (n + 1)) / 2;
  const counts = new Float64Array(max + 1);
  counts[0] = 1;
  for (let r = 1; r <= n; r++) for (let s = max; s >= r; s--) counts[s] += counts[s - r];
  let below = 0;
  for (let s = 0; s <= Math.min(max, Math.floor(v)); s++) below += counts[s];
  return v < 0 ? 0 : below / 2 ** n;
}

/**
 * Wilcoxon signed-rank test of paired samples, two-sided, exactly as R's
 * `wilcox.test(x, y, paired = TRUE)` with its defaults: zero differences are dropped; the exact
 * null distribution is used when fewer than 50 differences remain and there are neither ties nor
 * zeros; otherwise the normal approximation with the tie correction of the variance and a
 * continuity correction of 0.5. (scipy.stats.wilcoxon gives the same p with `correction=True`;
 * its default is without the continuity correction.) Differences equal within 1e-12 (relative)
 * count as tied, so float noise in accuracies does not break ties.
 */
export function wilcoxonSignedRank(x: readonly number[], y: readonly number[]): WilcoxonResult {
  checkNumbers('wilcoxonSignedRank', 'x', x);
  checkNumbers('wilcoxonSignedRank', 'y', y);
  if (x.length !== y.length) badArgument('wilcoxonSignedRank', 'y', `${x.length} values, as many as x`, y.length);
  const diffsAll = Array.from(x, (xi, i) => xi - y[i]);
  const diffs = diffsAll.filter((d, i) => !nearlyEqual(x[i], y[i]) && d !== 0);
  const zeros = diffsAll.length - diffs.length;
  const n = diffs.length;
  if (n === 0) {
    return {
      n,
      zeros,
      statistic: 0,
      pValue: 1,
      method: 'exact',
      ties: false,
      description: 'all differences are zero: no evidence either way (p = 1)',
    };
  }
  // Average ranks of |d| (1 = smallest).
  const order = diffs.map((_, i) => i).sort((a, b) => Math.abs(diffs[a]) - Math.abs(diffs[b]));
  const ranks = new Array<number>(n);
  const tieSizes: number[] = [];
  for (let start = 0; start < n; ) {
    let end = start + 1;
    while (end < n && nearlyEqual(Math.abs(diffs[order[end]]), Math.abs(diffs[order[start]]))) end++;
    for (let j = start; j < end; j++) ranks[order[j]] = (start + 1 + end) / 2;
    tieSizes.push(end - start);
    start = end;
  }
  const ties = tieSizes.some((t) => t > 1);
  const statistic = diffs.reduce((s, d, i) => (d > 0 ? s + ranks[i] : s), 0);
  if (n < 50 && !ties && zeros === 0) {
    const p = statistic > (n * (n + 1)) / 4 ? 1 - signedRankCdf(statistic - 1, n) : signedRankCdf(statistic, n);
    return {
      n,
      zeros,
      statistic,
      pValue: Math.min(1, 2 * p),
      method: 'exact',
      ties,
      description: `exact null distribution (n = ${n}, no ties, no zero differences)`,
    };
  }
  const mean = (n * (n + 1)) / 4;
  const sigma = Math.sqrt((n * (n + 1) * (2 * n + 1)) / 24 - tieSizes.reduce((s, t) => s + t ** 3 - t, 0) / 48);
  const centred = statistic - mean;
  const z = sigma > 0 ? (centred - Math.sign(centred) * 0.5) / sigma : 0;
  const pValue = Math.min(1, 2 * Math.min(normalCdf(z), normalCdf(-z)));
  const why = [
    n >= 50 ? `n = ${n} ≥ 50` : '',
    ties ? 'tied differences' : '',
    zeros ? `${zeros} zero difference${zeros > 1 ? 's' : ''} dropped` : '',
  ]
    .filter(Boolean)
    .join(', ');
  return {
    n,
    zeros,
    statistic,
    pValue,
    method: 'normal',
    ties,
    z,
    description: `normal approximation with tie and continuity correction (${why})`,
  };
}
