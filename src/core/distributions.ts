import { badArgument, checkInteger, checkNumber, checkPositive } from './args.js';
import { incompleteBeta, incompleteGamma, normalCdf, normalPdf } from './special.js';

/** P(X > x) for X ~ χ²(df). */
export function chiSquareSf(x: number, df: number): number {
  checkNumber('chiSquareSf', 'x', x);
  checkPositive('chiSquareSf', 'df', df);
  return x <= 0 ? 1 : incompleteGamma(df / 2, x / 2).upper;
}

/** P(X ≤ x) for X ~ χ²(df). */
export function chiSquareCdf(x: number, df: number): number {
  checkNumber('chiSquareCdf', 'x', x);
  checkPositive('chiSquareCdf', 'df', df);
  return x <= 0 ? 0 : incompleteGamma(df / 2, x / 2).lower;
}

/** Largest k the quantile is computed for (its search doubles q until the CDF reaches p). */
export const MAX_GROUPS = 2 ** 20;

/** The F distribution's arguments: x a number, d1 and d2 finite and > 0. */
function checkF(caller: string, x: number, d1: number, d2: number): void {
  checkNumber(caller, 'x', x);
  checkPositive(caller, 'd1', d1);
  checkPositive(caller, 'd2', d2);
}

/** P(X > x) for X ~ F(d1, d2): I_{d2/(d2 + d1 x)}(d2/2, d1/2). */
export function fSf(x: number, d1: number, d2: number): number {
  checkF('fSf', x, d1, d2);
  if (x <= 0) return 1;
  if (x === Infinity) return 0;
  return incompleteBeta(d2 / (d2 + d1 * x), d2 / 2, d1 / 2).lower;
}

/** P(X ≤ x) for X ~ F(d1, d2). */
export function fCdf(x: number, d1: number, d2: number): number {
  checkF('fCdf', x, d1, d2);
  if (x <= 0) return 0;
  if (x === Infinity) return 1;
  return incompleteBeta(d2 / (d2 + d1 * x), d2 / 2, d1 / 2).upper;
}

/**
 * CDF of the studentized range of k independent standard normals (infinite degrees of freedom):
 * P(R ≤ q) = k ∫ φ(z) [Φ(z + q) − Φ(z)]^{k−1} dz, by composite Simpson on [−9, 9] (h = 0.005;
 * the integrand is smooth and negligible outside). Matches R's ptukey(q, k, Inf) to ~1e-9.
 */
export function studentizedRangeCdf(q: number, k: number): number {
  checkNumber('studentizedRangeCdf', 'q', q);
  checkInteger('studentizedRangeCdf', 'k', k, 2);
  if (q <= 0) return 0;
  if (q === Infinity) return 1;
  const lo = -9;
  const hi = 9;
  const n = 3600; // even
  const h = (hi - lo) / n;
  let sum = 0;
  for (let i = 0; i <= n; i++) {
    const z = lo + i * h;
    const f = normalPdf(z) * Math.pow(normalCdf(z + q) - normalCdf(z), k - 1);
    sum += (i === 0 || i === n ? 1 : i % 2 === 1 ? 4 : 2) * f;
  }
  return Math.min(1, Math.max(0, (k * sum * h) / 3));
}

/** The q with P(R ≤ q) = p for the studentized range with infinite df (R's qtukey(p, k, Inf)), by bisection. */
export function studentizedRangeQuantile(p: number, k: number): number {
  if (typeof p !== 'number' || !(p > 0 && p < 1)) badArgument('studentizedRangeQuantile', 'p', 'a number in (0, 1)', p);
  checkInteger('studentizedRangeQuantile', 'k', k, 2, MAX_GROUPS);
  let lo = 0;
  let hi = 1;
  while (studentizedRangeCdf(hi, k) < p) hi *= 2;
  for (let i = 0; i < 60 && hi - lo > 1e-12; i++) {
    const mid = (lo + hi) / 2;
    if (studentizedRangeCdf(mid, k) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}
