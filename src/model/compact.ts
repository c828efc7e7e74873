import type { TreeNode } from './node.js';

/**
 * Tree surgery shared by the pruners. Pruners never mutate their input: they either mark nodes
 * that become leaves and call `compactTree`, or edit a linked copy (`toLinked` … `fromLinked`).
 *
 * Numbering is the grower's: the root is 0; when a node is reached its children get the next
 * free ids as one consecutive block; then its first child's subtree is numbered, then the
 * second's, and so on. So `compactTree(nodes, () => false)` returns a copy with the same ids.
 */

/** A copy of `node` as a leaf: counts and n kept; split, children, score, improvement and missingBranch dropped. */
export function asLeaf(node: TreeNode): TreeNode {
  const {
    split: _split,
    children: _children,
    score: _score,
    improvement: _improvement,
    missingBranch: _missing,
    ...rest
  } = node;
  return { ...structuredClone(rest), counts: node.counts.slice() };
}

function copyNode(node: TreeNode): TreeNode {
  const { children: _children, ...rest } = node;
  return structuredClone(rest);
}

/**
 * Rebuild `nodes` keeping only what is reachable when every internal node with `makeLeaf(id)`
 * true becomes a leaf. Ids are renumbered (children consecutive, after their parent) and depths
 * recomputed; the input is not modified.
 */
export function compactTree(nodes: readonly TreeNode[], makeLeaf: (id: number) => boolean): TreeNode[] {
  return flatten(
    0,
    (id) => nodes[id],
    (id) => {
      const node = nodes[id];
      return !node.split || !node.children || makeLeaf(id) ? null : node.children;
    },
  );
}

/**
 * Copy a tree given by its root, each node's fields and its children (null for a leaf) into a new
 * flat array in the grower's numbering, depths recomputed; leaves lose their split fields.
 */
function flatten<T>(root: T, fields: (t: T) => TreeNode, kids: (t: T) => readonly T[] | null): TreeNode[] {
  const out: TreeNode[] = [{ counts: [], n: 0, depth: 0 }];
  const stack: Array<[T, number, number]> = [[root, 0, 0]];
  while (stack.length > 0) {
    const [t, id, depth] = stack.pop()!;
    const below = kids(t);
    const copy = below === null ? asLeaf(fields(t)) : copyNode(fields(t));
    copy.depth = depth;
    out[id] = copy;
    if (below === null) continue;
    const first = out.length;
    copy.children = below.map((_, b) => first + b);
    for (let b = 0; b < below.length; b++) out.push({ counts: [], n: 0, depth: depth + 1 });
    for (let b = below.length - 1; b >= 0; b--) stack.push([below[b], first + b, depth + 1]);
  }
  return out;
}

/** A node of an object tree: easier to edit (subtree raising) than the flat array. */
export interface LinkedNode {
  /** The node's own fields (no `children`); `counts` and `n` may be rewritten. */
  node: TreeNode;
  /** Null for a leaf. */
  kids: LinkedNode[] | null;
}

/** Deep copy of a flat tree (the subtree of `id`) as linked nodes. */
export function toLinked(nodes: readonly TreeNode[], id = 0): LinkedNode {
  const linked = (i: number): LinkedNode => {
    const node = nodes[i];
    return !node.split || !node.children ? { node: asLeaf(node), kids: null } : { node: copyNode(node), kids: [] };
  };
  const root = linked(id);
  const pending: Array<[id: number, linked: LinkedNode]> = [[id, root]];
  while (pending.length > 0) {
    const [i, ln] = pending.pop()!;
    if (ln.kids === null) continue;
    for (const c of nodes[i].children!) {
      const kid = linked(c);
      ln.kids.push(kid);
      pending.push([c, kid]);
    }
  }
  return root;
}

/** Flatten a linked tree (grower's numbering, depths recomputed). */
export function fromLinked(root: LinkedNode): TreeNode[] {
  return flatten(
    root,
    (ln) => ln.node,
    (ln) => ln.kids,
  );
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
