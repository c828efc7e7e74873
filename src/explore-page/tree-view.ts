import { branchCondition, formatNumber, unclassifiedLabel } from '../export/conditions.js';
import type { DecisionTree } from '../model/decision-tree.js';
import type { Split } from '../model/split.js';

/**
 * A tree's nodes as the page draws them, one entry per node in typed arrays that the worker moves
 * to the page (transferred, not copied): a tree of thousands of nodes as objects took longer to
 * clone, post and read than to draw. The texts (conditions, split summaries) are made by the page
 * for the nodes it shows (`conditionOf`, `splitTextOf`).
 */
export interface ViewNodes {
  size: number;
  /** Class weights, `classes.length` per node. */
  counts: Float64Array;
  n: Float64Array;
  depth: Int32Array;
  /** -1 at the root. */
  parent: Int32Array;
  /** The first child's id (a node's children have consecutive ids), -1 for a leaf; `branches` of them. */
  firstChild: Int32Array;
  branches: Int32Array;
  /** The split's kind (`SPLIT_KINDS[kind - 1]`; 0: a leaf) and feature. */
  splitKind: Uint8Array;
  splitFeature: Int32Array;
  /**
   * The split's numbers, `splitValues[splitAt[id] .. splitAt[id + 1])`: its thresholds, its
   * values, or a subset's left values then its right ones (`splitLeft[id]` of them left).
   */
  splitAt: Int32Array;
  splitValues: Float64Array;
  splitLeft: Int32Array;
  /** A C-MBSV unclassified region: -2 not one; -1 one; k ≥ 0 one with k-NN over k rows. */
  unclassified: Int32Array;
  /** Each node's place across the drawing, in leaf slots (`layout`). */
  x: Float64Array;
}

/** A grown tree as the page needs it: its nodes (`ViewNodes`), names and numbers. */
export interface TreeView {
  classes: string[];
  features: { name: string; kind: 'numeric' | 'categorical'; categories?: string[] }[];
  nodes: ViewNodes;
  stats: { nodes: number; leaves: number; height: number };
  criterion: string;
  algorithm: string;
  /** Time of `fit` in the worker. */
  growMs: number;
  /** Time of building this view in the worker. */
  viewMs: number;
  /** Workers that grew the tree: 2 when the helper grew some of its subtrees (grow-in-two.ts). */
  workers: 1 | 2;
  pruning?: string;
}

const SPLIT_KINDS = ['numeric', 'multiway', 'subset'] as const;

/**
 * x (leaf slots) of every node: leaves in depth-first order one slot apart, an inner node centred
 * over its first and last child. Iterative (no recursion over the tree's depth).
 */
export function layout(nodes: Pick<ViewNodes, 'size' | 'firstChild' | 'branches'>): Float64Array {
  const { size, firstChild, branches } = nodes;
  const x = new Float64Array(size);
  let next = 0;
  // Pre-order visit to place leaves, then children before parents (ids grow downwards) to centre.
  const stack = [0];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (firstChild[id] < 0) x[id] = next++;
    else for (let b = branches[id] - 1; b >= 0; b--) stack.push(firstChild[id] + b);
  }
  const order: number[] = [];
  const walk = [0];
  while (walk.length > 0) {
    const id = walk.pop()!;
    order.push(id);
    for (let b = 0; b < branches[id]; b++) walk.push(firstChild[id] + b);
  }
  for (let i = order.length - 1; i >= 0; i--) {
    const id = order[i];
    if (firstChild[id] >= 0) x[id] = (x[firstChild[id]] + x[firstChild[id] + branches[id] - 1]) / 2;
  }
  return x;
}

/** The page's view of `tree` (grown in `growMs`). */
export function treeView(tree: DecisionTree, growMs: number): TreeView {
  const all = tree.nodes;
  const m = all.length;
  const k = tree.classes.length;
  const nodes: ViewNodes = {
    size: m,
    counts: new Float64Array(m * k),
    n: new Float64Array(m),
    depth: new Int32Array(m),
    parent: new Int32Array(m).fill(-1),
    firstChild: new Int32Array(m).fill(-1),
    branches: new Int32Array(m),
    splitKind: new Uint8Array(m),
    splitFeature: new Int32Array(m).fill(-1),
    splitAt: new Int32Array(m + 1),
    splitValues: new Float64Array(0),
    splitLeft: new Int32Array(m),
    unclassified: new Int32Array(m).fill(-2),
    x: new Float64Array(0),
  };
  const values: number[] = [];
  for (let id = 0; id < m; id++) {
    const node = all[id];
    nodes.counts.set(node.counts, id * k);
    nodes.n[id] = node.n;
    nodes.depth[id] = node.depth;
    nodes.splitAt[id] = values.length;
    if (node.unclassified) nodes.unclassified[id] = node.knn ? node.knn.rows.length : -1;
    const { split, children } = node;
    if (!split || !children) continue;
    nodes.firstChild[id] = children[0];
    nodes.branches[id] = children.length;
    for (const c of children) nodes.parent[c] = id;
    nodes.splitKind[id] = SPLIT_KINDS.indexOf(split.kind) + 1;
    nodes.splitFeature[id] = split.feature;
    if (split.kind === 'numeric') for (const t of split.thresholds) values.push(t);
    else if (split.kind === 'multiway') for (const v of split.values) values.push(v);
    else {
      for (const v of split.left) values.push(v);
      for (const v of split.right) values.push(v);
      nodes.splitLeft[id] = split.left.length;
    }
  }
  nodes.splitAt[m] = values.length;
  nodes.splitValues = Float64Array.from(values);
  nodes.x = layout(nodes);
  const s = tree.stats();
  const p = tree.pruning;
  return {
    classes: tree.classes.map(String),
    features: tree.features.map((f) => ({
      name: f.name,
      kind: f.kind,
      ...(f.categories ? { categories: f.categories } : {}),
    })),
    nodes,
    stats: { nodes: s.nodes, leaves: s.leaves, height: s.height },
    criterion: tree.options.criterion,
    algorithm: tree.options.algorithm,
    growMs,
    viewMs: 0,
    workers: 1,
    ...(p ? { pruning: `${p.method}: ${p.leavesBefore} → ${p.leavesAfter} leaves` } : {}),
  };
}

/** The buffers of `view`'s nodes, to move with the message that posts it (the sender loses them). */
export function viewBuffers(view: TreeView): ArrayBuffer[] {
  const v = view.nodes;
  return [
    v.counts,
    v.n,
    v.depth,
    v.parent,
    v.firstChild,
    v.branches,
    v.splitKind,
    v.splitFeature,
    v.splitAt,
    v.splitValues,
    v.splitLeft,
    v.unclassified,
    v.x,
  ].map((a) => a.buffer as ArrayBuffer);
}

/** Node `id`'s split (a fresh object, as the model holds it), or undefined for a leaf. */
export function splitOf(v: TreeView, id: number): Split | undefined {
  const nodes = v.nodes;
  const kind = SPLIT_KINDS[nodes.splitKind[id] - 1];
  if (kind === undefined) return undefined;
  const feature = nodes.splitFeature[id];
  const list = Array.from(nodes.splitValues.subarray(nodes.splitAt[id], nodes.splitAt[id + 1]));
  if (kind === 'numeric') return { kind, feature, thresholds: list };
  if (kind === 'multiway') return { kind, feature, values: list };
  const left = nodes.splitLeft[id];
  return { kind, feature, left: list.slice(0, left), right: list.slice(left) };
}

/** Node `id`'s children's ids (none for a leaf). */
export function childrenOf(v: TreeView, id: number): number[] {
  const out: number[] = [];
  const first = v.nodes.firstChild[id];
  for (let b = 0; b < v.nodes.branches[id]; b++) out.push(first + b);
  return out;
}

/** Node `id`'s class weights. */
export function countsOf(v: TreeView, id: number): number[] {
  const k = v.classes.length;
  return Array.from(v.nodes.counts.subarray(id * k, id * k + k));
}

/** The test on the branch into node `id` ('' at the root), in `grove show`'s words. */
export function conditionOf(v: TreeView, id: number): string {
  const p = v.nodes.parent[id];
  return p < 0 ? '' : branchCondition(splitOf(v, p)!, id - v.nodes.firstChild[p], v.features);
}

/** `petal_length <= 2.45` style summary of node `id`'s split, with the feature's name (undefined for a leaf). */
export function splitTextOf(v: TreeView, id: number): string | undefined {
  const split = splitOf(v, id);
  if (!split) return undefined;
  const f = v.features[split.feature];
  if (split.kind === 'numeric') return `${f.name} <= ${split.thresholds.map(formatNumber).join(' | ')}`;
  if (split.kind === 'multiway') return `${f.name}: one branch per value`;
  return branchCondition(split, 0, v.features);
}

/** How node `id` reads when it is a C-MBSV unclassified region (undefined when it is not one). */
export function unclassifiedOf(v: TreeView, id: number): string | undefined {
  const u = v.nodes.unclassified[id];
  return u === -2 ? undefined : unclassifiedLabel(u >= 0 ? u : undefined);
}
