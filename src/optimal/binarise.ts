import type { Dataset } from '../data/dataset.js';
import { binFeature } from '../split/histogram.js';
import { midpoint } from '../split/numeric.js';
import { SortWork } from '../split/sort-work.js';

/**
 * The binary tests the optimal search chooses among, held per feature as one small integer code
 * per row rather than one bitset per test: a numeric feature's code is its bin (each distinct
 * value, or each of `bins` quantiles), and the tests are `code ≤ a`; a categorical feature's code
 * is its category, and the tests are `code ∈ S` (subsets, SUBSET_CAP). The bitset of any test is a
 * comparison away, and ordered codes let the depth-2 solver sweep every threshold of a feature in
 * one pass (prefix sums) instead of intersecting bitsets pair by pair. Missing values get the code
 * `bins` and are sent left or right by the search itself (each test comes in both directions).
 */
export interface BinFeature {
  readonly kind: 'ordinal' | 'category';
  /** Codes in use are 0 .. bins - 1; `bins` is the missing value's code. */
  readonly bins: number;
  readonly codes: Int32Array;
  /** Ordinal features: the smallest and largest value of each bin (thresholds go between them). */
  readonly lo?: Float64Array;
  readonly hi?: Float64Array;
}

/** The training rows as the search sees them. */
export interface Binarised {
  readonly n: number;
  /** Classes. */
  readonly k: number;
  readonly labels: Int32Array;
  readonly weights: Float64Array;
  readonly features: BinFeature[];
}

/**
 * Most categories a node may see on a feature for the search to try every subset of them
 * (2^(m-1) - 1 tests); a node that sees more tries each category against the rest. The same
 * bound as the greedy grower's exhaustive binary subsets (`maxSubset: 'auto'`).
 */
export const SUBSET_CAP = 10;

/** Largest number of bins a numeric feature may have (a 16-bit bin code, as the histogram grower). */
export const MAX_BINS = 65535;

/**
 * Codes for every feature of `data`: numeric features binned into at most `bins` quantile bins
 * (grove's histogram binning, so the thresholds are those the histogram grower considers) or,
 * without `bins`, one bin per distinct value (every midpoint is a test).
 */
export function binarise(data: Dataset, weights: Float64Array, bins?: number): Binarised {
  // One sort scratch for every feature: a new one each would be garbage per feature.
  const work = new SortWork();
  const features = data.features.map((col): BinFeature => {
    if (col.kind === 'categorical') {
      const m = col.categories.length;
      const codes = Int32Array.from(col.codes, (c) => (c < 0 ? m : c));
      return { kind: 'category', bins: m, codes };
    }
    const b = binFeature(col, bins ?? MAX_BINS, work);
    return { kind: 'ordinal', bins: b.bins, codes: Int32Array.from(b.codes), lo: b.lo, hi: b.hi };
  });
  work.release();
  return { n: data.nRows, k: data.classes.length, labels: data.labels, weights, features };
}

/**
 * The number of distinct binary tests at the root over all features (each threshold between two
 * bins; each subset of the categories up to complement, or each category against the rest above
 * SUBSET_CAP categories), not counting the missing values' two directions.
 */
export function countTests(b: Binarised): number {
  let tests = 0;
  for (const f of b.features) {
    if (f.kind === 'ordinal') tests += Math.max(0, f.bins - 1);
    else if (f.bins <= 2) tests += 1;
    else tests += f.bins <= SUBSET_CAP ? 2 ** (f.bins - 1) - 1 : f.bins;
  }
  return tests;
}

/** Categorical features with more than SUBSET_CAP categories (their nodes may try one-vs-rest only). */
export function wideCategories(b: Binarised): number[] {
  const wide: number[] = [];
  b.features.forEach((f, g) => {
    if (f.kind === 'category' && f.bins > SUBSET_CAP) wide.push(g);
  });
  return wide;
}

/** The codes of the buckets set in `mask` (bucket i holds code occ[o + i]). */
export function maskCodes(mask: number, occ: Int32Array, o: number): number[] {
  const codes: number[] = [];
  for (let i = 0; mask >> i !== 0; i++) if ((mask >> i) & 1) codes.push(occ[o + i]);
  return codes;
}

/**
 * The threshold of the test that sends bins ≤ `a` left and bins ≥ `b` right (a < b): between the
 * two bins' values; `b` = -1 (every known value of the node left, its missing rows right): bin a's largest value.
 */
export function thresholdBetween(f: BinFeature, a: number, b: number): number {
  return b < 0 ? f.hi![a] : midpoint(f.hi![a], f.lo![b]);
}
