/**
 * A split decision stored in a tree node. Branch numbering is part of the model format:
 * - `numeric`: branch i is the first i with x ≤ thresholds[i], else thresholds.length
 *   (one threshold = the binary split `x ≤ v`; several = C-MBSV's multi-branch node);
 * - `multiway`: branch i holds rows with category code `values[i]` (codes seen at the node);
 * - `subset`: branch 0 holds `x ∈ left` (Zaki's `X ∈ V`), branch 1 `x ∈ right`; together they are
 *   the values seen at the node, `left` the side with fewer values (on a tie, the lowest code).
 * A missing value, or a category the split has no branch for, is handled by the tree's missing
 * policy (the node's `missingBranch`, or fractional weights).
 */
export type Split =
  | { kind: 'numeric'; feature: number; thresholds: number[] }
  | { kind: 'multiway'; feature: number; values: number[] }
  | { kind: 'subset'; feature: number; left: number[]; right: number[] };
