/**
 * One binary test: on an ordinal feature, rows with code ≤ `a` go left and the threshold lies
 * between bin `a` and bin `b` (the next bin the node's rows occupy); on a categorical feature,
 * rows whose code is in `left` go left (a subset test), or without `left` rows with code `a`
 * (one-vs-rest). Rows missing the feature go left when `missingLeft`.
 */
export interface Test {
  readonly feature: number;
  readonly a: number;
  readonly b: number;
  readonly missingLeft: boolean;
  readonly left?: readonly number[];
}

/**
 * An optimal (sub)tree: its objective value (misclassified weight plus the leaf penalty of each
 * leaf), its leaves, and for a split its test and two subtrees. Subtrees are shared between the
 * solutions that use them (the cache holds each once).
 */
export interface Solution {
  readonly cost: number;
  readonly leaves: number;
  readonly test?: Test;
  readonly left?: Solution;
  readonly right?: Solution;
}

/** A leaf of objective value `cost`. */
export function leafSolution(cost: number): Solution {
  return { cost, leaves: 1 };
}

/** A split on `test` over two subtrees. */
export function splitSolution(test: Test, left: Solution, right: Solution): Solution {
  return { cost: left.cost + right.cost, leaves: left.leaves + right.leaves, test, left, right };
}

/** Misclassified weight of a leaf holding class weights `w[o .. o + k)`: all but the heaviest class. */
export function leafError(w: Float64Array, o: number, k: number): number {
  let sum = 0;
  let max = 0;
  for (let c = 0; c < k; c++) {
    const x = w[o + c];
    sum += x;
    if (x > max) max = x;
  }
  return sum - max;
}
