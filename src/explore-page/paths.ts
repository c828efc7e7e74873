import type { DecisionPaths } from '../model/decision-tree.js';
import type { TreeNode } from '../model/node.js';

/*
 * What the page reads off `DecisionTree.decisionPath` (src/model/paths.ts, the walk `predict`
 * routes by): the rows reaching each node, and the path of one typed row.
 */

/** Row ids per node: node v's rows are `rows[offsets[v] .. offsets[v + 1])`, ascending. */
export interface RowsByNode {
  offsets: Int32Array;
  rows: Int32Array;
}

/**
 * The rows reaching each of `nNodes` nodes: `paths` (every row's nodes) turned around. A row that
 * C4.5's fractional policy sends down every branch of a node is at every node it visits.
 */
export function rowsByNode(paths: DecisionPaths, nNodes: number): RowsByNode {
  const offsets = new Int32Array(nNodes + 1);
  for (const v of paths.nodes) offsets[v + 1]++;
  for (let v = 0; v < nNodes; v++) offsets[v + 1] += offsets[v];
  const at = offsets.slice(0, nNodes);
  const rows = new Int32Array(paths.nodes.length);
  const nRows = paths.offsets.length - 1;
  for (let r = 0; r < nRows; r++)
    for (let j = paths.offsets[r]; j < paths.offsets[r + 1]; j++) rows[at[paths.nodes[j]]++] = r;
  return { offsets, rows };
}

/** Node `v`'s rows in `byNode`. */
export function rowsOf(byNode: RowsByNode, v: number): Int32Array {
  return byNode.rows.subarray(byNode.offsets[v], byNode.offsets[v + 1]);
}

/** Where one row goes: the nodes `decisionPath` gives it, and the one path from the root they start with. */
export interface RowPath {
  /** Every node the row visits, ascending (root first). */
  nodes: number[];
  /** The single path from the root: down to the leaf, or to `spreadAt`. */
  chain: number[];
  /**
   * Set when the row goes down several branches of this node (its value is missing and the node
   * has no `missingBranch`: C4.5's fractional policy, `predict` mixes the branches, weighted).
   */
  spreadAt?: number;
}

/** The row path of the node ids `visited` (one row's `decisionPath`, ascending). */
export function rowPath(nodes: readonly TreeNode[], visited: ArrayLike<number>): RowPath {
  const list = Array.from(visited);
  const on = new Set(list);
  const chain = [0];
  for (;;) {
    const kids = nodes[chain[chain.length - 1]].children;
    const next = kids?.filter((c) => on.has(c)) ?? [];
    if (next.length === 1) chain.push(next[0]);
    else
      return {
        nodes: list,
        chain,
        ...(next.length > 1 ? { spreadAt: chain[chain.length - 1] } : {}),
      };
  }
}
