import { leafErrors, total } from './compact.js';
import { majorityClass, type TreeNode } from './node.js';
import type { Split } from './split.js';
import { TreeStore } from './store.js';

/**
 * What weakest-link pruning and routing read of a tree, from a `TreeStore` (its class weights
 * read where they are, dense or sparse) or from a node array, without making node objects.
 */
export interface TreeShape {
  readonly size: number;
  /** Number of children; 0 for a leaf. */
  branches(id: number): number;
  /** Id of child `b` of node `id`. */
  child(id: number, b: number): number;
  split(id: number): Split | undefined;
  missingBranch(id: number): number | undefined;
  /** Sum of the node's class weights. */
  total(id: number): number;
  /** The node's weighted errors as a leaf (`leafErrors`). */
  leafErrors(id: number): number;
  /** The node's majority class (`majorityClass`). */
  majority(id: number): number;
}

/** A tree's `TreeShape`. */
export function shapeOf(tree: TreeStore | readonly TreeNode[]): TreeShape {
  return tree instanceof TreeStore ? storeShape(tree) : nodesShape(tree);
}

function storeShape(s: TreeStore): TreeShape {
  return {
    size: s.size,
    branches: (id) => s.branches[id],
    child: (id, b) => s.firstChild[id] + b,
    split: (id) => s.splitOf(id),
    missingBranch: (id) => (s.missingBranch[id] >= 0 ? s.missingBranch[id] : undefined),
    total: (id) => s.counts.total(id),
    leafErrors: (id) => s.counts.leafErrors(id),
    majority: (id) => s.counts.majority(id),
  };
}

function nodesShape(nodes: readonly TreeNode[]): TreeShape {
  return {
    size: nodes.length,
    branches: (id) => (nodes[id].split && nodes[id].children ? nodes[id].children!.length : 0),
    child: (id, b) => nodes[id].children![b],
    split: (id) => nodes[id].split,
    missingBranch: (id) => nodes[id].missingBranch,
    total: (id) => total(nodes[id].counts),
    leafErrors: (id) => leafErrors(nodes[id].counts),
    majority: (id) => majorityClass(nodes[id].counts),
  };
}
