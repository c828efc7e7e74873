import { checkBoolean, checkObject } from '../../core/args.js';
import { chiSquareSf, fSf } from '../../core/distributions.js';
import { GroveError } from '../../core/errors.js';
import { checkMatrix, rankWithTies } from './ranks.js';

export interface FriedmanResult {
  /** Data sets (rows) and competitors (columns). */
  N: number;
  k: number;
  /** Mean rank per competitor, 1 = best. */
  averageRanks: number[];
  /**
   * Friedman's χ²_F, by default corrected for ties within rows (as R's friedman.test and
   * scipy.stats.friedmanchisquare).
   */
  chiSquare: number;
  df: number;
  pValue: number;
  /**
   * Iman & Davenport (1980): F_F = (N−1) χ²_F / (N(k−1) − χ²_F) on (k−1, (k−1)(N−1)) degrees of
   * freedom.
   */
  imanDavenport: { F: number; df1: number; df2: number; pValue: number };
}

/**
 * Friedman's test over `matrix` (rows = data sets, columns = competitors), with the Iman–Davenport
 * correction recommended by Demšar, "Statistical comparisons of classifiers over multiple data
 * sets", JMLR 7 (2006) 1–30, §3.2.2. Without ties χ²_F = 12N/(k(k+1)) [Σ R_j² − k(k+1)²/4]
 * (Demšar's formula); with ties it is divided by 1 − Σ(t³ − t)/(N k (k² − 1)), as R and scipy do
 * (`tieCorrection: false` gives Demšar's formula whatever the ties).
 */
export function friedmanTest(
  matrix: readonly (readonly number[])[],
  higherIsBetter = true,
  options: { tieCorrection?: boolean } = {},
): FriedmanResult {
  const k = checkMatrix('friedmanTest', matrix);
  checkBoolean('friedmanTest', 'higherIsBetter', higherIsBetter);
  checkObject('friedmanTest', 'options', options);
  checkBoolean('friedmanTest', 'options.tieCorrection', options.tieCorrection);
  const tieCorrection = options.tieCorrection ?? true;
  const N = matrix.length;
  if (N < 2 || k < 2)
    throw new GroveError(`friedmanTest needs at least 2 data sets and 2 competitors, got ${N} × ${k}`);
  const rankSums = new Array<number>(k).fill(0);
  let ties = 0;
  for (const row of matrix) {
    const { ranks, tieSizes } = rankWithTies(row, higherIsBetter);
    ranks.forEach((r, j) => (rankSums[j] += r));
    for (const t of tieSizes) ties += t * t * t - t;
  }
  const center = (N * (k + 1)) / 2;
  const ss = rankSums.reduce((s, r) => s + (r - center) ** 2, 0);
  const denominator = N * k * (k + 1) - (tieCorrection ? ties / (k - 1) : 0);
  // Every row entirely tied: no information; the statistic is 0 by convention.
  const chiSquare = denominator > 0 ? (12 * ss) / denominator : 0;
  const df = k - 1;
  const df1 = k - 1;
  const df2 = (k - 1) * (N - 1);
  const rest = N * (k - 1) - chiSquare;
  const F = rest > 1e-12 * N * k ? ((N - 1) * chiSquare) / rest : Infinity;
  return {
    N,
    k,
    averageRanks: rankSums.map((s) => s / N),
    chiSquare,
    df,
    pValue: chiSquareSf(chiSquare, df),
    imanDavenport: { F, df1, df2, pValue: fSf(F, df1, df2) },
  };
}
