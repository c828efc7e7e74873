import type { TreeNode } from './node.js';

/**
 * Tree surgery shared by the pruners. Pruners never mutate their input: they mark nodes that become
 * leaves, or edit a copy of the array (leaving slots unreachable), and call `compactTree`.
 *
 * Copies are node objects of their own sharing the input's arrays and objects (counts, split,
 * knn): nothing in grove writes into a node's arrays once it is built (pruners and recounting give
 * a node new counts), so a deep copy of every node would only cost time on large trees.
 *
 * Numbering is the grower's: the root is 0; when a node is reached its children get the next
 * free ids as one consecutive block; then its first child's subtree is numbered, then the
 * second's, and so on. So `compactTree(nodes, () => false)` returns a copy with the same ids.
 */

/**
 * A new node object for `node` as a leaf: counts and n kept; split, children, score, improvement
 * and missingBranch dropped. Its arrays are `node`'s (see the file comment).
 */
export function asLeaf(node: TreeNode): TreeNode {
  const {
    split: _split,
    children: _children,
    score: _score,
    improvement: _improvement,
    missingBranch: _missing,
    ...rest
  } = node;
  return rest;
}

/** A new node object for `node` without its children; its arrays are `node`'s. */
function copyNode(node: TreeNode): TreeNode {
  const { children: _children, ...rest } = node;
  return rest;
}

/**
 * Rebuild `nodes` keeping only what is reachable when every internal node with `makeLeaf(id)`
 * true becomes a leaf (leaves lose their split fields). Ids are renumbered in the grower's
 * numbering and depths recomputed; the input is not modified.
 */
export function compactTree(nodes: readonly TreeNode[], makeLeaf: (id: number) => boolean): TreeNode[] {
  const out: TreeNode[] = [{ counts: [], n: 0, depth: 0 }];
  const stack: Array<[from: number, to: number, depth: number]> = [[0, 0, 0]];
  while (stack.length > 0) {
    const [from, to, depth] = stack.pop()!;
    const node = nodes[from];
    const below = !node.split || !node.children || makeLeaf(from) ? null : node.children;
    const copy = below === null ? asLeaf(node) : copyNode(node);
    copy.depth = depth;
    out[to] = copy;
    if (below === null) continue;
    const first = out.length;
    copy.children = below.map((_, b) => first + b);
    for (let b = 0; b < below.length; b++) out.push({ counts: [], n: 0, depth: depth + 1 });
    for (let b = below.length - 1; b >= 0; b--) stack.push([below[b], first + b, depth + 1]);
  }
  return out;
}

/** Number of leaves. */
export function countLeaves(nodes: readonly TreeNode[]): number {
  let leaves = 0;
  for (const node of nodes) if (!node.split || !node.children) leaves++;
  return leaves;
}

/** Sum of a node's class counts. */
export function total(counts: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < counts.length; i++) s += counts[i];
  return s;
}

/** Weighted training errors of a node seen as a leaf: total − largest class count. */
export function leafErrors(counts: ArrayLike<number>): number {
  let s = 0;
  let max = 0;
  for (let i = 0; i < counts.length; i++) {
    s += counts[i];
    if (counts[i] > max) max = counts[i];
  }
  return Math.max(0, s - max);
}
