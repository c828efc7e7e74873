import { badArgument, checkNumber } from './args.js';

/**
 * Special functions behind the p-values: log-gamma, the regularized incomplete gamma and beta
 * functions, and the normal distribution. Pure TypeScript, double precision; the continued
 * fractions follow Numerical Recipes (Press et al., 3rd ed., §6.1–6.4, modified Lentz method).
 * Checked against scipy.special / R in test/eval/stats.test.ts (scripts/stats-reference.py, .R).
 */

const EPS = 1e-16;
const FPMIN = 1e-300;
const MAX_ITER = 10_000;

/** Lanczos coefficients (g = 7, n = 9): |relative error| < 2e-15 for x > 0. */
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

/** ln Γ(x) for x > 0. */
export function lnGamma(x: number): number {
  if (typeof x !== 'number' || !(x > 0)) badArgument('lnGamma', 'x', 'a number > 0', x);
  if (x < 0.5) {
    // Reflection: Γ(x)Γ(1−x) = π / sin(πx); keeps the Lanczos sum in its accurate range.
    return Math.log(Math.PI / Math.sin(Math.PI * x)) - lnGamma(1 - x);
  }
  const z = x - 1;
  let a = LANCZOS[0];
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += LANCZOS[i] / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

/**
 * Regularized lower and upper incomplete gamma: P(a, x) and Q(a, x) = 1 − P, each computed directly
 * where it is small.
 */
export function incompleteGamma(a: number, x: number): { lower: number; upper: number } {
  if (typeof a !== 'number' || !(a > 0)) badArgument('incompleteGamma', 'a', 'a number > 0', a);
  if (typeof x !== 'number' || !(x >= 0)) badArgument('incompleteGamma', 'x', 'a number ≥ 0', x);
  if (x === 0) return { lower: 0, upper: 1 };
  if (x === Infinity) return { lower: 1, upper: 0 };
  const front = Math.exp(-x + a * Math.log(x) - lnGamma(a));
  if (x < a + 1) {
    // Series: P = e^{-x} x^a / Γ(a) · Σ x^n / (a (a+1) … (a+n)).
    let ap = a;
    let del = 1 / a;
    let sum = del;
    for (let n = 0; n < MAX_ITER; n++) {
      ap += 1;
      del *= x / ap;
      sum += del;
      if (Math.abs(del) < Math.abs(sum) * EPS) break;
    }
    const lower = Math.min(1, sum * front);
    return { lower, upper: 1 - lower };
  }
  // Continued fraction for Q (NR gcf), modified Lentz.
  let b = x + 1 - a;
  let c = 1 / FPMIN;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < MAX_ITER; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < FPMIN) d = FPMIN;
    c = b + an / c;
    if (Math.abs(c) < FPMIN) c = FPMIN;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < EPS) break;
  }
  const upper = Math.min(1, front * h);
  return { lower: 1 - upper, upper };
}

/** Continued fraction of the incomplete beta function (NR betacf). */
function betaContinuedFraction(a: number, b: number, x: number): number {
  const qab = a + b;
  const qap = a + 1;
  const qam = a - 1;
  let c = 1;
  let d = 1 - (qab * x) / qap;
  if (Math.abs(d) < FPMIN) d = FPMIN;
  d = 1 / d;
  let h = d;
  for (let m = 1; m < MAX_ITER; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < FPMIN) d = FPMIN;
    c = 1 + aa / c;
    if (Math.abs(c) < FPMIN) c = FPMIN;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < FPMIN) d = FPMIN;
    c = 1 + aa / c;
    if (Math.abs(c) < FPMIN) c = FPMIN;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < EPS) break;
  }
  return h;
}

/**
 * Regularized incomplete beta I_x(a, b) (`lower`) and 1 − I_x(a, b) = I_{1−x}(b, a) (`upper`),
 * the smaller of the two computed directly from the continued fraction (no cancellation).
 */
export function incompleteBeta(x: number, a: number, b: number): { lower: number; upper: number } {
  if (typeof x !== 'number' || !(x >= 0 && x <= 1)) badArgument('incompleteBeta', 'x', 'a number in [0, 1]', x);
  if (typeof a !== 'number' || !(a > 0)) badArgument('incompleteBeta', 'a', 'a number > 0', a);
  if (typeof b !== 'number' || !(b > 0)) badArgument('incompleteBeta', 'b', 'a number > 0', b);
  if (x === 0) return { lower: 0, upper: 1 };
  if (x === 1) return { lower: 1, upper: 0 };
  const front = Math.exp(lnGamma(a + b) - lnGamma(a) - lnGamma(b) + a * Math.log(x) + b * Math.log1p(-x));
  if (x < (a + 1) / (a + b + 2)) {
    const lower = (front * betaContinuedFraction(a, b, x)) / a;
    return { lower, upper: 1 - lower };
  }
  const upper = (front * betaContinuedFraction(b, a, 1 - x)) / b;
  return { lower: 1 - upper, upper };
}

/** Standard normal CDF Φ(z), accurate in both tails (via erfc(t) = Q(1/2, t²)). */
export function normalCdf(z: number): number {
  checkNumber('normalCdf', 'z', z);
  if (Number.isNaN(z)) return NaN;
  const q = 0.5 * incompleteGamma(0.5, (z * z) / 2).upper; // P(Z > |z|)
  return z >= 0 ? 1 - q : q;
}

/**
 * Standard normal quantile Φ⁻¹(p), 0 < p < 1: Newton's method on `normalCdf` from 0, which
 * approaches the root monotonically from the centre (Φ is concave right of 0), to full precision.
 */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`normalQuantile needs 0 < p < 1, got ${p}`);
  if (p < 0.5) return -normalQuantile(1 - p);
  let z = 0;
  for (let i = 0; i < 100; i++) {
    const step = (p - normalCdf(z)) / normalPdf(z);
    z += step;
    if (Math.abs(step) <= 1e-15 * Math.max(1, z)) break;
  }
  return z;
}

/** Standard normal survival function 1 − Φ(z) = Φ(−z). */
export function normalSf(z: number): number {
  checkNumber('normalSf', 'z', z);
  return normalCdf(-z);
}

/** Standard normal density φ(z). */
export function normalPdf(z: number): number {
  checkNumber('normalPdf', 'z', z);
  return Math.exp(-0.5 * z * z) / Math.sqrt(2 * Math.PI);
}
