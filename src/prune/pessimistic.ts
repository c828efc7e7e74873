import { compactTree, leafErrors, total } from '../model/compact.js';
import type { TreeNode } from '../model/node.js';
import type { Pruner } from './pruner.js';

/**
 * Pessimistic error pruning (Quinlan 1987; metrics tutorial, "Pessimistic approach"):
 * each leaf t costs e'(t) = e(t) + 0.5, where e(t) = weighted training errors at t
 * (total − largest class count), so a tree T costs e'(T) = e(T) + 0.5 · leaves(T).
 */

/** The tutorial's generalisation error estimate e'(T) / N = (Σ_leaves e(t) + 0.5 · leaves) / (root weight). */
export function pessimisticError(nodes: readonly TreeNode[]): number {
  let errors = 0;
  for (const node of nodes) if (!node.split || !node.children) errors += leafErrors(node.counts) + 0.5;
  const n = total(nodes[0].counts);
  return n > 0 ? errors / n : 0;
}

export interface PessimisticOptions {
  /**
   * Quinlan's (1987) rule: prune when e'(t) ≤ e'(T_t) + SE, SE = √(e'(T_t) · (N(t) − e'(T_t)) / N(t)).
   * Default false: the tutorial's rule, prune when e'(t) ≤ e'(T_t).
   */
  standardError?: boolean;
}

/**
 * Bottom-up: once a node's subtrees are pruned, the node becomes a leaf when its pessimistic error
 * as a leaf, e(t) + 0.5, is no worse than its subtree's Σ_leaves (e(leaf) + 0.5) (plus one
 * standard error with `standardError`). Returns a new tree; the input is not modified.
 */
export function prunePessimistic(nodes: readonly TreeNode[], options: PessimisticOptions = {}): TreeNode[] {
  const m = nodes.length;
  const subtreeCost = new Float64Array(m);
  const collapse = new Uint8Array(m);
  // Children have larger ids than their parent: a descending sweep visits children first.
  for (let i = m - 1; i >= 0; i--) {
    const node = nodes[i];
    const asLeaf = leafErrors(node.counts) + 0.5;
    if (!node.split || !node.children) {
      subtreeCost[i] = asLeaf;
      continue;
    }
    let sub = 0;
    for (const c of node.children) sub += subtreeCost[c];
    let bound = sub;
    if (options.standardError) {
      const n = total(node.counts);
      bound += n > 0 ? Math.sqrt(Math.max(0, (sub * (n - sub)) / n)) : 0;
    }
    if (asLeaf <= bound + 1e-9 * Math.max(1, bound)) {
      collapse[i] = 1;
      subtreeCost[i] = asLeaf;
    } else subtreeCost[i] = sub;
  }
  return compactTree(nodes, (id) => collapse[id] === 1);
}

/** Table entry (src/prune/registry.ts): the tutorial's rule, without the standard error. */
export const pessimisticPruner: Pruner = {
  name: 'pessimistic',
  description: "pessimistic error pruning, e'(t) = e(t) + ½ (Quinlan 1987; metrics tutorial)",
  reads: [],
  prune: ({ nodes }) => ({ nodes: prunePessimistic(nodes) }),
};
