import type { TreeNode } from './node.js';
import type { CcpPathEntry } from './pruning-info.js';
import type { TreeStore } from './store.js';
import { shapeOf, type TreeShape } from './tree-shape.js';

/** Relative tolerance under which two α values count as equal. */
export const REL = 1e-9;

/**
 * The weakest-link sequence: per node, the α at which it becomes a leaf (∞ for a leaf, or never by itself),
 * and the path.
 */
export interface WeakestLinks {
  pruneAlpha: Float64Array;
  path: CcpPathEntry[];
}

/** The weakest links of a tree, as node objects or as grown (its class weights read where they are). */
export function weakestLinks(tree: readonly TreeNode[] | TreeStore): WeakestLinks {
  const nodes = shapeOf(tree);
  const m = nodes.size;
  const W = nodes.total(0);
  const scale = W > 0 ? 1 / W : 0;
  const R = new Float64Array(m);
  for (let i = 0; i < m; i++) R[i] = nodes.leafErrors(i);
  const pruneAlpha = new Float64Array(m).fill(Infinity);
  const isLeafNow = (i: number) => nodes.branches(i) === 0 || pruneAlpha[i] !== Infinity;
  const sub = new Float64Array(m);
  const leaves = new Int32Array(m);
  const g = new Float64Array(m);
  const path: CcpPathEntry[] = [];

  /** Bottom-up R(T_t), leaves, g for the current tree; returns the smallest g over reachable internal nodes. */
  const measure = (): number => {
    for (let i = m - 1; i >= 0; i--) {
      if (isLeafNow(i)) {
        sub[i] = R[i];
        leaves[i] = 1;
        g[i] = Infinity;
        continue;
      }
      let s = 0;
      let l = 0;
      for (let b = 0; b < nodes.branches(i); b++) {
        const c = nodes.child(i, b);
        s += sub[c];
        l += leaves[c];
      }
      sub[i] = s;
      leaves[i] = l;
      const gain = R[i] - s;
      g[i] = gain <= 1e-12 * W || l <= 1 ? 0 : (gain * scale) / (l - 1);
    }
    let min = Infinity;
    forReachable(nodes, isLeafNow, (i) => {
      if (g[i] < min) min = g[i];
    });
    return min;
  };
  /** Make a leaf of every reachable node with g ≤ limit (an ancestor first: its subtree goes with it). */
  const cut = (limit: number, alpha: number): void => {
    const stack = [0];
    while (stack.length > 0) {
      const i = stack.pop()!;
      if (isLeafNow(i)) continue;
      if (g[i] <= limit) pruneAlpha[i] = alpha;
      else for (let b = 0; b < nodes.branches(i); b++) stack.push(nodes.child(i, b));
    }
  };
  const record = (alpha: number): void => {
    path.push({ alpha, leaves: leaves[0], trainingError: sub[0] * scale });
  };

  measure();
  cut(0, 0);
  let min = measure();
  record(0);
  let alpha = 0;
  while (!isLeafNow(0) && Number.isFinite(min)) {
    alpha = Math.max(alpha, min);
    cut(min * (1 + REL), alpha);
    min = measure();
    record(alpha);
  }
  return { pruneAlpha, path };
}

/** Calls `visit(i)` for every internal node reachable from the root (not below a node that is a leaf now). */
function forReachable(nodes: TreeShape, isLeaf: (i: number) => boolean, visit: (i: number) => void): void {
  const stack = [0];
  while (stack.length > 0) {
    const i = stack.pop()!;
    if (isLeaf(i)) continue;
    visit(i);
    for (let b = 0; b < nodes.branches(i); b++) stack.push(nodes.child(i, b));
  }
}

/** The α sequence α_0 = 0 < α_1 < … with the leaves and training error R(T(α_k)) of each nested subtree. */
export function costComplexityPath(tree: readonly TreeNode[] | TreeStore): CcpPathEntry[] {
  return weakestLinks(tree).path;
}
