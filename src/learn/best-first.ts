import { gini } from '../criteria/cart.js';
import { infoGain } from '../criteria/gain.js';
import type { Criterion } from '../criteria/types.js';
import { compactTree } from '../model/compact.js';
import type { TreeNode } from '../model/node.js';
import { type GrownTree, TreeStore } from '../model/store.js';
import type { DepthFirstGrower } from './depth-first.js';
import { applySplit, type GrowEntry, type NodeExpansion, searchNode } from './expand.js';
import type { NodeSplit } from './split-policy.js';

/**
 * `maxLeafNodes`: scikit-learn's best-first growth (its `BestFirstTreeBuilder`). A node's split
 * is found when the node is made; open nodes are then split in order of their split's gain,
 * largest first, until the tree has `maxLeafNodes` leaves. Equal gains: the node first in
 * depth-first order (left to right) goes first.
 *
 * The gain is scikit-learn's weighted impurity decrease for the impurity measures (gini,
 * info-gain: the split's improvement × the node's weight; the total weight, the same for every
 * node, is left out), and the measure's own improvement (the node's `improvement`) for every
 * other one. A split of b branches adds b − 1 leaves; one that would pass the limit (multiway)
 * is left unexpanded and the next best is tried.
 *
 * The exact and histogram growers grow best-first (`growNodes`), on one thread. A node's split
 * depends only on its own rows and path (feature draws included, see feature-draw.ts), so the
 * same tree is also the best-first part of the tree grown without the limit: `limitLeaves` cuts
 * it from there for the growers that grow depth-first only (C-MBSV).
 */

/** Whether `criterion`'s gain is weighted by the node's weight (see the file comment). */
function weightedGain(criterion: Criterion): boolean {
  return criterion === gini || criterion === infoGain;
}

/** An open node: its gain and its position in depth-first order (a branch path, or a preorder rank). */
interface Open<T> {
  gain: number;
  order: T;
  item: number;
}

/**
 * Grow `root` (already in `nodes`) with `how`: depth-first when `maxLeafNodes` is undefined,
 * else best-first. Returns the tree numbered as depth-first growth numbers it.
 */
export function growNodes<E extends GrowEntry, S extends NodeSplit>(
  how: DepthFirstGrower<E, S>,
  nodes: TreeStore,
  root: E,
  maxLeafNodes: number | undefined,
  criterion: Criterion,
): TreeStore {
  if (maxLeafNodes === undefined) {
    how.grow(nodes, [root]);
    return nodes;
  }
  growBestFirst(how, nodes, root, maxLeafNodes, criterion);
  return nodes.renumberDepthFirst();
}

/** Best-first growth from `root` (see the file comment); nodes are numbered in the order they are split. */
export function growBestFirst<E extends GrowEntry, S extends NodeSplit>(
  how: NodeExpansion<E, S>,
  nodes: TreeStore,
  root: E,
  maxLeafNodes: number,
  criterion: Criterion,
): void {
  const weighted = weightedGain(criterion);
  const held: Array<{ entry: E; chosen: S } | undefined> = [];
  const open = new OpenNodes<number[]>(comparePaths);
  const consider = (entry: E, path: number[]): void => {
    const chosen = searchNode(entry, how, nodes);
    if (!chosen) return;
    let w = 1;
    if (weighted) {
      w = 0;
      for (let c = 0; c < entry.totals.length; c++) w += entry.totals[c];
    }
    held.push({ entry, chosen: how.hold(entry, chosen) });
    open.push({ gain: chosen.improvement * w, order: path, item: held.length - 1 });
  };
  consider(root, []);
  let leaves = 1;
  const children: E[] = [];
  while (open.size > 0) {
    const { order: path, item } = open.pop();
    const { entry, chosen } = held[item]!;
    held[item] = undefined;
    if (leaves + chosen.branches - 1 > maxLeafNodes) {
      how.keepLeaf(entry);
      continue;
    }
    how.resume(entry, chosen);
    children.length = 0;
    if (!applySplit(entry, chosen, how, nodes, children)) continue;
    leaves += children.length - 1;
    for (let b = 0; b < children.length; b++) consider(children[b], [...path, b]);
  }
}

/** Branch paths in depth-first order (lexicographic; a node's path is a prefix of its children's). */
function comparePaths(a: number[], b: number[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

/**
 * The best-first part of a tree grown without the limit (C-MBSV's trees): its first splits in
 * best-first order until `maxLeafNodes` leaves, the rest cut, numbered as depth-first growth
 * numbers it.
 */
export function limitLeaves<T extends GrownTree>(tree: T, maxLeafNodes: number, criterion: Criterion): T {
  const read = tree instanceof TreeStore ? storeReader(tree) : nodesReader(tree as TreeNode[]);
  const weighted = weightedGain(criterion);
  const gain = (v: number): number => (weighted ? read.improvement(v) * read.weight(v) : read.improvement(v));
  const rank = preorder(read);
  const open = new OpenNodes<number>((a, b) => a - b);
  const expanded = new Uint8Array(read.size);
  const push = (v: number) => open.push({ gain: gain(v), order: rank[v], item: v });
  if (read.branches(0) > 0) push(0);
  let leaves = 1;
  while (open.size > 0) {
    const v = open.pop().item;
    const b = read.branches(v);
    if (leaves + b - 1 > maxLeafNodes) continue;
    expanded[v] = 1;
    leaves += b - 1;
    const first = read.firstChild(v);
    for (let i = 0; i < b; i++) if (read.branches(first + i) > 0) push(first + i);
  }
  if (tree instanceof TreeStore) return tree.cutAndRenumber((v) => expanded[v] === 1) as T;
  return compactTree(tree as TreeNode[], (v) => expanded[v] === 0) as T;
}

/** Each node's rank in depth-first preorder, branches left to right. */
function preorder(read: NodeReader): Int32Array {
  const rank = new Int32Array(read.size);
  const stack = [0];
  let next = 0;
  while (stack.length > 0) {
    const v = stack.pop()!;
    rank[v] = next++;
    const first = read.firstChild(v);
    for (let b = read.branches(v) - 1; b >= 0; b--) stack.push(first + b);
  }
  return rank;
}

/** What best-first order reads of a node. */
interface NodeReader {
  size: number;
  branches(v: number): number;
  firstChild(v: number): number;
  improvement(v: number): number;
  weight(v: number): number;
}

function storeReader(tree: TreeStore): NodeReader {
  return {
    size: tree.size,
    branches: (v) => tree.branches[v],
    firstChild: (v) => tree.firstChild[v],
    improvement: (v) => tree.improvement[v],
    weight: (v) => tree.counts.total(v),
  };
}

function nodesReader(nodes: TreeNode[]): NodeReader {
  return {
    size: nodes.length,
    branches: (v) => (nodes[v].split ? (nodes[v].children?.length ?? 0) : 0),
    firstChild: (v) => nodes[v].children?.[0] ?? -1,
    improvement: (v) => nodes[v].improvement ?? 0,
    weight: (v) => nodes[v].counts.reduce((a, b) => a + b, 0),
  };
}

/** A binary heap of open nodes: the largest gain first; equal gains in depth-first order. */
class OpenNodes<T> {
  private readonly heap: Open<T>[] = [];

  constructor(private readonly compareOrder: (a: T, b: T) => number) {}

  get size(): number {
    return this.heap.length;
  }

  private before(a: Open<T>, b: Open<T>): boolean {
    return a.gain > b.gain || (a.gain === b.gain && this.compareOrder(a.order, b.order) < 0);
  }

  push(node: Open<T>): void {
    const heap = this.heap;
    heap.push(node);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(heap[i], heap[parent])) break;
      [heap[i], heap[parent]] = [heap[parent], heap[i]];
      i = parent;
    }
  }

  pop(): Open<T> {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop()!;
    const n = heap.length;
    if (n === 0) return top;
    heap[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < n && this.before(heap[l], heap[m])) m = l;
      if (r < n && this.before(heap[r], heap[m])) m = r;
      if (m === i) return top;
      [heap[i], heap[m]] = [heap[m], heap[i]];
      i = m;
    }
  }
}
