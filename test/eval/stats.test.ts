/**
 * Statistics against reference values printed by scipy 1.10.1 (scripts/stats-reference.py, run with
 * Debian's /usr/bin/python3) and R 4.2.2 (scripts/stats-reference.R). The numbers are pasted here,
 * so npm test needs neither.
 */
import { describe, expect, it } from 'vitest';
import {
  averageRanks,
  chiSquareSf,
  cliques,
  criticalDifference,
  friedmanTest,
  fSf,
  incompleteBeta,
  incompleteGamma,
  lnGamma,
  NEMENYI_Q,
  nemenyiPValue,
  nemenyiQ,
  normalCdf,
  rankWithTies,
  signedRankCdf,
  studentizedRangeCdf,
  studentizedRangeQuantile,
  wilcoxonSignedRank,
} from '../../src/eval/stats/index.js';

/** |a − b| ≤ rel·|b| (+ a tiny absolute floor for values near 0). */
function close(a: number, b: number, rel = 1e-10, abs = 1e-300): void {
  expect(Math.abs(a - b), `${a} vs ${b}`).toBeLessThanOrEqual(rel * Math.abs(b) + abs);
}

// A 14 × 4 matrix with ties (rows = data sets), shaped like Demšar (2006) Table 6; fixed inputs only.
const M14x4 = [
  [0.763, 0.768, 0.771, 0.798],
  [0.599, 0.591, 0.59, 0.569],
  [0.954, 0.971, 0.968, 0.967],
  [0.628, 0.661, 0.654, 0.657],
  [0.882, 0.888, 0.886, 0.898],
  [0.936, 0.931, 0.916, 0.931],
  [0.661, 0.668, 0.609, 0.685],
  [0.583, 0.583, 0.563, 0.625],
  [0.775, 0.838, 0.866, 0.875],
  [1, 1, 1, 1],
  [0.94, 0.962, 0.965, 0.962],
  [0.619, 0.666, 0.614, 0.669],
  [0.972, 0.981, 0.975, 0.975],
  [0.957, 0.978, 0.946, 0.97],
];
const TIE_FREE = [
  [0.81, 0.79, 0.84, 0.8, 0.77],
  [0.62, 0.66, 0.64, 0.61, 0.6],
  [0.91, 0.93, 0.95, 0.92, 0.9],
  [0.7, 0.72, 0.69, 0.75, 0.71],
  [0.55, 0.58, 0.61, 0.57, 0.52],
  [0.88, 0.86, 0.89, 0.87, 0.85],
  [0.97, 0.96, 0.98, 0.95, 0.94],
  [0.73, 0.77, 0.79, 0.74, 0.72],
];

describe('special functions (scipy.special)', () => {
  it('ln Γ', () => {
    close(lnGamma(0.5), 0.5723649429247, 1e-13);
    expect(Math.abs(lnGamma(1))).toBeLessThan(1e-14);
    close(lnGamma(3.5), 1.2009736023470743, 1e-13);
    close(lnGamma(10), 12.801827480081469, 1e-13);
    close(lnGamma(100.5), 361.43554046777757, 1e-13);
  });

  it('regularized incomplete gamma P and Q, both tails', () => {
    const cases: Array<[number, number, number, number]> = [
      [0.5, 0.1, 0.34527915398142317, 0.6547208460185768],
      [1, 2, 0.8646647167633873, 0.1353352832366127],
      [2.5, 1, 0.15085496391539038, 0.8491450360846096],
      [5, 20, 0.9999830552560699, 1.694474393006737e-5],
      [10, 3, 0.0011024881301154815, 0.9988975118698845],
      [30, 31, 0.5953478209656109, 0.40465217903438916],
      [0.5, 40, 1, 3.744097384202887e-19],
    ];
    for (const [a, x, p, q] of cases) {
      const r = incompleteGamma(a, x);
      close(r.lower, p, 1e-12);
      close(r.upper, q, 1e-11);
    }
  });

  it('regularized incomplete beta', () => {
    close(incompleteBeta(0.2, 2, 3).lower, 0.18080000000000004, 1e-12);
    close(incompleteBeta(0.5, 0.5, 0.5).lower, 0.5, 1e-12);
    close(incompleteBeta(0.9, 10, 2).lower, 0.6973568802000001, 1e-12);
    close(incompleteBeta(0.01, 1.5, 40).lower, 0.15269206115199874, 1e-12);
    close(incompleteBeta(0.999, 3, 0.5).lower, 0.9407468104840537, 1e-12);
  });

  it('normal CDF, far into both tails', () => {
    close(normalCdf(-8), 6.22096057427174e-16, 1e-10);
    close(normalCdf(-3), 0.0013498980316300933, 1e-12);
    close(normalCdf(-1), 0.15865525393145707, 1e-12);
    expect(normalCdf(0)).toBe(0.5);
    close(normalCdf(0.5), 0.6914624612740131, 1e-12);
    close(normalCdf(2), 0.9772498680518208, 1e-12);
    close(normalCdf(6), 0.9999999990134123, 1e-14);
  });
});

describe('distributions (scipy.stats / R)', () => {
  it('chi-square survival', () => {
    close(chiSquareSf(0.5, 1), 0.47950012218695337, 1e-11);
    close(chiSquareSf(3.84, 1), 0.05004352124870519, 1e-11);
    close(chiSquareSf(9.28, 3), 0.025790724198756772, 1e-11);
    close(chiSquareSf(20, 5), 0.0012497305630313773, 1e-11);
    close(chiSquareSf(100, 10), 5.4497019829205215e-17, 1e-9);
    close(chiSquareSf(0.001, 2), 0.9995001249791693, 1e-12);
  });

  it('F survival', () => {
    close(fSf(3.69, 3, 39), 0.019744099689488835, 1e-10);
    close(fSf(1, 2, 10), 0.401877572016461, 1e-11);
    close(fSf(10, 5, 50), 1.128506310290627e-6, 1e-9);
    close(fSf(0.2, 7, 63), 0.9843502675758344, 1e-11);
    close(fSf(40, 2, 54), 2.201922145691331e-11, 1e-9);
  });

  it('studentized range (df = ∞) against R ptukey/qtukey', () => {
    close(studentizedRangeCdf(3, 4), 0.85372851895234292, 1e-8);
    close(studentizedRangeCdf(4.5, 8), 0.96836516378782389, 1e-8);
    close(studentizedRangeQuantile(0.95, 11) / Math.SQRT2, 3.218653607, 1e-7);
    close(studentizedRangeQuantile(0.9, 12) / Math.SQRT2, 3.029694184, 1e-7);
  });
});

describe('ranks', () => {
  it('rank 1 = best, ties share the mean rank, direction respected', () => {
    expect(rankWithTies([0.9, 0.8, 0.9, 0.7]).ranks).toEqual([1.5, 3, 1.5, 4]);
    expect(rankWithTies([10, 3, 3, 3], false).ranks).toEqual([4, 2, 2, 2]);
    expect(rankWithTies([0.9, 0.8, 0.9, 0.7]).tieSizes).toEqual([2, 1, 1]);
    // Float noise is a tie: 0.1 + 0.2 vs 0.3.
    expect(rankWithTies([0.1 + 0.2, 0.3]).ranks).toEqual([1.5, 1.5]);
  });

  it('average ranks match R (colMeans of rank(-x) per row)', () => {
    const r = averageRanks(M14x4);
    [3.1428571428571428, 2, 2.9285714285714284, 1.9285714285714286].forEach((v, i) => close(r[i], v, 1e-14));
  });
});

describe('Friedman and Iman–Davenport', () => {
  it('tie-corrected statistic and p match R friedman.test and scipy friedmanchisquare', () => {
    const f = friedmanTest(M14x4);
    close(f.chiSquare, 10.952380952380953, 1e-12);
    close(f.pValue, 0.011986176325417815, 1e-9);
    expect(f.df).toBe(3);
    close(f.imanDavenport.F, 4.585889570552149, 1e-12);
    close(f.imanDavenport.pValue, 0.007628838730725733, 1e-9);
    expect([f.imanDavenport.df1, f.imanDavenport.df2]).toEqual([3, 39]);
  });

  it("without tie correction: Demšar's formula 12N/(k(k+1))[ΣR² − k(k+1)²/4] (R)", () => {
    const f = friedmanTest(M14x4, true, { tieCorrection: false });
    close(f.chiSquare, 9.8571428571428541, 1e-12);
    close(f.pValue, 0.019820334037904848, 1e-9);
    close(f.imanDavenport.F, 3.9866666666666655, 1e-12);
    close(f.imanDavenport.pValue, 0.014352446216023749, 1e-9);
  });

  it('tie-free matrix: corrected and uncorrected agree with R and scipy', () => {
    for (const tieCorrection of [true, false]) {
      const f = friedmanTest(TIE_FREE, true, { tieCorrection });
      close(f.chiSquare, 16.7, 1e-12);
      close(f.pValue, 0.002210307447307791, 1e-9);
      close(f.imanDavenport.F, 7.640522875816993, 1e-12);
      close(f.imanDavenport.pValue, 0.00027101001063905606, 1e-9);
    }
  });

  it('lower-is-better reverses the ranks; identical competitors give χ² = 0 and p = 1', () => {
    const f = friedmanTest(
      TIE_FREE.map((r) => r.map((v) => -v)),
      false,
    );
    close(f.chiSquare, 16.7, 1e-12);
    const same = friedmanTest([
      [1, 1],
      [2, 2],
      [3, 3],
    ]);
    expect(same.chiSquare).toBe(0);
    expect(same.pValue).toBe(1);
    expect(() => friedmanTest([[1, 2]])).toThrow(/at least 2 data sets/);
  });
});

describe('Nemenyi', () => {
  it("Demšar's Table 5(a) equals qtukey(1 − α, k, ∞)/√2 (R) within its last printed digit", () => {
    const r05 = [
      1.959963985, 2.343700588, 2.569031777, 2.727774383, 2.849705443, 2.948320061, 3.030878523, 3.101730458,
      3.163683754,
    ];
    const r10 = [
      1.644853627, 2.052292731, 2.291341497, 2.459515764, 2.588520602, 2.692732101, 2.779883609, 2.854606432,
      2.919888841,
    ];
    // (The table is printed to three decimals, some rounded, some cut: 2.3437 appears as 2.343.)
    r05.forEach((q, i) => expect(Math.abs(NEMENYI_Q['0.05'][i] - q)).toBeLessThan(0.001));
    r10.forEach((q, i) => expect(Math.abs(NEMENYI_Q['0.1'][i] - q)).toBeLessThan(0.001));
    // Our own quantile reproduces R's value for a k inside the table too.
    close(studentizedRangeQuantile(0.95, 5) / Math.SQRT2, r05[3], 1e-7);
  });

  it('CD = q_α √(k(k+1)/(6N)); beyond k = 10 q is computed', () => {
    close(criticalDifference(4, 14), 2.569 * Math.sqrt(20 / 84), 1e-14);
    close(criticalDifference(4, 14, 0.1), 2.291 * Math.sqrt(20 / 84), 1e-14);
    close(nemenyiQ(11), 3.218653607, 1e-7);
  });

  it('pair p-value crosses 0.05 exactly at the critical difference; cliques join ranks closer than CD', () => {
    const cd = criticalDifference(4, 14);
    expect(nemenyiPValue(1, 1 + cd * 1.01, 4, 14)).toBeLessThan(0.05);
    expect(nemenyiPValue(1, 1 + cd * 0.99, 4, 14)).toBeGreaterThan(0.05);
    expect(cliques([1.0, 1.5, 3.0, 3.2], 1.0)).toEqual([
      [0, 1],
      [2, 3],
    ]);
    expect(cliques([1.0, 1.6, 2.2, 3.5], 1.3)).toEqual([
      [0, 1, 2],
      [2, 3],
    ]);
    expect(cliques([1, 2, 3], 0.5)).toEqual([]);
  });
});

describe('Wilcoxon signed-rank (R wilcox.test(paired = TRUE) defaults)', () => {
  it('exact when n < 50 without ties or zeros', () => {
    const x = [1.83, 0.5, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.3];
    const y = [0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29];
    const w = wilcoxonSignedRank(x, y);
    expect(w.method).toBe('exact');
    expect(w.statistic).toBe(40);
    close(w.pValue, 0.0390625, 1e-12);
    const d = [0.3, -0.1, 0.7, 1.2, 0.5, -0.4, 0.9, 1.1, 0.2, 0.8, 1.5, -0.6];
    const w12 = wilcoxonSignedRank(
      d,
      d.map(() => 0),
    );
    expect(w12.statistic).toBe(67);
    close(w12.pValue, 0.026855468750000017, 1e-12);
    close(signedRankCdf(10, 12), 0.010498046875000007, 1e-12);
  });

  it('normal approximation with tie and continuity correction when there are ties or zeros (scipy with correction=True agrees)', () => {
    const w = wilcoxonSignedRank(
      M14x4.map((r) => r[0]),
      M14x4.map((r) => r[1]),
    );
    expect(w.method).toBe('normal');
    expect(w.zeros).toBe(2);
    expect(w.statistic).toBe(6.5);
    close(w.pValue, 0.012030358470209069, 1e-9);
    expect(w.description).toMatch(/tie and continuity/);
  });

  it('normal approximation for n ≥ 50', () => {
    const i = Array.from({ length: 60 }, (_, j) => j);
    const w = wilcoxonSignedRank(
      i.map((j) => (j * 7) % 11),
      i.map((j) => (j * 5) % 13),
    );
    expect(w.method).toBe('normal');
    expect(w.zeros).toBe(8);
    expect(w.statistic).toBe(523);
    close(w.pValue, 0.13049000643559822, 1e-9);
  });

  it('all differences zero → p = 1', () => {
    expect(wilcoxonSignedRank([1, 2], [1, 2]).pValue).toBe(1);
  });
});
