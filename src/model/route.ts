import type { Dataset } from '../data/dataset.js';
import type { Split } from './split.js';

/**
 * Which branch a value takes at a split: the one definition that the grower's partition, the
 * predictors, pruning's recount and the exporters share (see `Split` for the branch numbering).
 * A missing value, or a category the split has no branch for, takes `NO_BRANCH`: the caller then
 * applies the tree's missing-value policy (the node's `missingBranch`, or fractional weights).
 */
export const NO_BRANCH = -1;

/**
 * Branch of numeric value `x` at thresholds `t[start .. start + count)`: the first i with
 * x ≤ t[start + i], else `count`; `NO_BRANCH` for NaN. (Packed form: a compiled tree keeps every
 * node's thresholds in one array.)
 */
export function numericBranchAt(t: ArrayLike<number>, start: number, count: number, x: number): number {
  if (Number.isNaN(x)) return NO_BRANCH;
  let b = 0;
  while (b < count && x > t[start + b]) b++;
  return b;
}

/** Branch of numeric value `x` at `thresholds` (`numericBranchAt` over the whole list). */
export function numericBranch(thresholds: ArrayLike<number>, x: number): number {
  return numericBranchAt(thresholds, 0, thresholds.length, x);
}

/**
 * The branch of every category code at a categorical split, as a table: `out[code]` is the
 * branch, `NO_BRANCH` for a code the split has no branch for. Entries from `size` on are left
 * alone, so a caller may append its own (e.g. a histogram's missing-value code).
 */
export function categoryBranches(
  split: Exclude<Split, { kind: 'numeric' }>,
  size: number,
  out: Int32Array = new Int32Array(size),
): Int32Array {
  out.fill(NO_BRANCH, 0, size);
  if (split.kind === 'subset') {
    for (const v of split.left) out[v] = 0;
    for (const v of split.right) out[v] = 1;
  } else {
    const values = split.values;
    for (let b = 0; b < values.length; b++) out[values[b]] = b;
  }
  return out;
}

/** Branch of category `code` in a `categoryBranches` table; `NO_BRANCH` for a missing (< 0) or unknown code. */
export function categoryBranch(table: ArrayLike<number>, code: number): number {
  return categoryBranchAt(table, 0, table.length, code);
}

/**
 * Branch of category `code` in a `categoryBranches` table stored at `table[start .. start + size)`
 * (packed form, as `numericBranchAt`).
 */
export function categoryBranchAt(table: ArrayLike<number>, start: number, size: number, code: number): number {
  return code < 0 || code >= size ? NO_BRANCH : table[start + code];
}

/** Number of branches of a split. */
export function branchCount(split: Split): number {
  switch (split.kind) {
    case 'numeric':
      return split.thresholds.length + 1;
    case 'multiway':
      return split.values.length;
    case 'subset':
      return 2;
  }
}

/** Largest category code a categorical split names, plus one (the size its branch table needs). */
export function categoryTableSize(split: Exclude<Split, { kind: 'numeric' }>): number {
  let max = -1;
  const lists = split.kind === 'subset' ? [split.left, split.right] : [split.values];
  for (const list of lists) for (const v of list) if (v > max) max = v;
  return max + 1;
}

/**
 * The values that take one branch, for describing it: an interval `low < x ≤ high` of a numeric
 * split (`low` absent below the first threshold, `high` absent above the last), or the category
 * codes of a categorical split. Exactly the values `numericBranch` / `categoryBranch` send there.
 */
export type BranchDomain =
  | { kind: 'interval'; low?: number; high?: number }
  | { kind: 'categories'; codes: readonly number[] };

/** Which values take branch `b` of `split` (see `BranchDomain`). */
export function branchDomain(split: Split, b: number): BranchDomain {
  switch (split.kind) {
    case 'numeric': {
      const t = split.thresholds;
      return {
        kind: 'interval',
        ...(b > 0 ? { low: t[b - 1] } : {}),
        ...(b < t.length ? { high: t[b] } : {}),
      };
    }
    case 'multiway':
      return { kind: 'categories', codes: [split.values[b]] };
    case 'subset':
      return { kind: 'categories', codes: b === 0 ? split.left : split.right };
  }
}

/**
 * The branch of each row of `data` at `split` (the rules above, category table built once), or
 * `NO_BRANCH` (−1) when unknown: missing value, a category without a branch, or a column of the
 * other kind.
 */
export function rowRouter(split: Split, data: Dataset): (r: number) => number {
  const col = data.features[split.feature];
  if (split.kind === 'numeric') {
    if (col.kind !== 'numeric') return () => NO_BRANCH;
    const { values } = col;
    const { thresholds } = split;
    return (r) => numericBranch(thresholds, values[r]);
  }
  if (col.kind !== 'categorical') return () => NO_BRANCH;
  const { codes } = col;
  const table = categoryBranches(split, categoryTableSize(split));
  return (r) => categoryBranch(table, codes[r]);
}
