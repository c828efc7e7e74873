import type { Split } from '../split/types.js';

/** One node of a fitted tree, as stored in the model file. */
export interface TreeNode {
  /** Weighted training class counts at the node, one per class. */
  counts: number[];
  /** Number of training entries that reached the node (a row split by C4.5's fractional policy counts in each branch). */
  n: number;
  /** Root = 0. */
  depth: number;
  /** Absent for a leaf. */
  split?: Split;
  /** Node ids, one per branch of `split` (contiguous ids). */
  children?: number[];
  /** The criterion's raw value for the chosen split, as its paper defines it. */
  score?: number;
  /** Oriented improvement of the split over the node seen as one branch (used for importances). */
  improvement?: number;
  /**
   * Branch taken by a missing value (or a category with no branch) under the `majority` and
   * `learned` policies. Absent under `fractional`: such a row goes down every branch, weighted.
   */
  missingBranch?: number;
}

/** Index of the largest count; ties go to the lowest class index. */
export function majorityClass(counts: ArrayLike<number>): number {
  let best = 0;
  for (let c = 1; c < counts.length; c++) if (counts[c] > counts[best]) best = c;
  return best;
}
