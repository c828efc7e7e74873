import type { Dataset } from '../data/dataset.js';
import type { TreeNode } from '../model/node.js';
import { categoryBranch, categoryBranches, categoryTableSize, NO_BRANCH, numericBranch } from '../model/route.js';
import type { Split } from '../model/split.js';

/*
 * Walks down a fitted tree with the routing of src/model/route.ts (the one definition the grower
 * and the predictors share). `DecisionTree.decisionPath` (another branch) is not on main yet;
 * when it lands, `pathOfRow` can become a call to it.
 */

/** A row's value of one feature: a number (NaN = missing) or a category code (-1 = missing). */
export type RowValue = number;

/** Branch of `value` at `split` (NO_BRANCH: missing, or a category the split has no branch for). */
export function branchOf(split: Split, value: RowValue): number {
  if (split.kind === 'numeric') return numericBranch(split.thresholds, value);
  return categoryBranch(categoryBranches(split, categoryTableSize(split)), value);
}

/** Parent of every node (-1 for the root). */
export function parents(nodes: readonly TreeNode[]): Int32Array {
  const parent = new Int32Array(nodes.length).fill(-1);
  nodes.forEach((node, id) => node.children?.forEach((child) => (parent[child] = id)));
  return parent;
}

/** The node ids from the root down to `target`. */
export function pathTo(nodes: readonly TreeNode[], target: number): number[] {
  const parent = parents(nodes);
  const path: number[] = [];
  for (let id = target; id >= 0; id = parent[id]) path.push(id);
  return path.reverse();
}

/**
 * The training rows that reach node `target`, as the grower sent them: a missing value (or a
 * category with no branch) follows the node's `missingBranch`; under C4.5's fractional policy
 * (no `missingBranch`) such a row goes down every branch, so it is counted at each.
 */
export function rowsReaching(nodes: readonly TreeNode[], data: Dataset, target: number): Int32Array {
  const path = pathTo(nodes, target);
  const tables = path.map((id) => {
    const split = nodes[id].split;
    return split && split.kind !== 'numeric' ? categoryBranches(split, categoryTableSize(split)) : null;
  });
  const out: number[] = [];
  for (let i = 0; i < data.nRows; i++) {
    let ok = true;
    for (let s = 0; s + 1 < path.length && ok; s++) {
      const node = nodes[path[s]];
      const split = node.split!;
      const col = data.features[split.feature];
      const table = tables[s];
      let b =
        col.kind === 'numeric'
          ? numericBranch((split as Extract<Split, { kind: 'numeric' }>).thresholds, col.values[i])
          : categoryBranch(table!, col.codes[i]);
      if (b === NO_BRANCH) b = node.missingBranch ?? NO_BRANCH;
      ok = b === NO_BRANCH || node.children![b] === path[s + 1];
    }
    if (ok) out.push(i);
  }
  return Int32Array.from(out);
}

/** Where one row goes: the nodes it passes, which of them it left by the missing-value branch, and where it stopped. */
export interface RowPath {
  nodes: number[];
  /** Nodes where the row's value was missing (or a category with no branch) and took `missingBranch`. */
  byMissing: number[];
  /**
   * Set when the row stops at an inner node: its value is missing and the node has no
   * `missingBranch` (C4.5's fractional policy: `predict` sends it down every branch, weighted).
   */
  stoppedAt?: { node: number; feature: number };
}

/** The path of one row (`values[f]` per feature), as the compiled predictor routes it (compiled.ts `route`). */
export function pathOfRow(nodes: readonly TreeNode[], values: readonly RowValue[]): RowPath {
  const path = [0];
  const byMissing: number[] = [];
  let id = 0;
  for (;;) {
    const node = nodes[id];
    if (!node.split || !node.children) return { nodes: path, byMissing };
    let b = branchOf(node.split, values[node.split.feature]);
    if (b === NO_BRANCH && node.missingBranch !== undefined) {
      b = node.missingBranch;
      byMissing.push(id);
    }
    if (b === NO_BRANCH) return { nodes: path, byMissing, stoppedAt: { node: id, feature: node.split.feature } };
    id = node.children[b];
    path.push(id);
  }
}
