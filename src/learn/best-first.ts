import { gini } from '../criteria/cart.js';
import { infoGain } from '../criteria/gain.js';
import type { Criterion } from '../criteria/types.js';
import { compactTree } from '../model/compact.js';
import type { TreeNode } from '../model/node.js';
import { type GrownTree, TreeStore } from '../model/store.js';

/**
 * `maxLeafNodes`: scikit-learn's best-first growth (its `BestFirstTreeBuilder`). Open nodes are
 * expanded in order of the gain of their split, largest first (ties: the lower depth-first id),
 * until the tree has `maxLeafNodes` leaves.
 *
 * A node's split depends only on its own rows and path (feature draws included, see
 * feature-draw.ts), never on which other nodes were expanded before it. So the order is applied
 * to the tree grown under the other options, by every grower alike (exact, histogram, threads,
 * C-MBSV): the splits best-first growth makes are kept, the others cut, and the result is the
 * tree best-first growth gives. Its cost is the plain fit's.
 *
 * The gain is scikit-learn's weighted impurity decrease for the impurity measures (gini,
 * info-gain: the node's improvement × its weight; the total weight, the same for every node, is
 * left out), and the measure's own improvement (the node's `improvement`) for every other one.
 * A split of b branches adds b − 1 leaves; one that would pass the limit (multiway) is left
 * unexpanded and the next best is tried.
 */
export function limitLeaves<T extends GrownTree>(tree: T, maxLeafNodes: number, criterion: Criterion): T {
  const read = tree instanceof TreeStore ? storeReader(tree) : nodesReader(tree as TreeNode[]);
  const weighted = criterion === gini || criterion === infoGain;
  const gain = (v: number): number => (weighted ? read.improvement(v) * read.weight(v) : read.improvement(v));
  const open = new OpenNodes();
  const expanded = new Uint8Array(read.size);
  if (read.branches(0) > 0) open.push(0, gain(0));
  let leaves = 1;
  while (open.size > 0) {
    const v = open.pop();
    const b = read.branches(v);
    if (leaves + b - 1 > maxLeafNodes) continue;
    expanded[v] = 1;
    leaves += b - 1;
    const first = read.firstChild(v);
    for (let i = 0; i < b; i++) if (read.branches(first + i) > 0) open.push(first + i, gain(first + i));
  }
  if (tree instanceof TreeStore) return tree.cutAndRenumber((v) => expanded[v] === 1) as T;
  return compactTree(tree as TreeNode[], (v) => expanded[v] === 0) as T;
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
  const k = tree.classes;
  return {
    size: tree.size,
    branches: (v) => tree.branches[v],
    firstChild: (v) => tree.firstChild[v],
    improvement: (v) => tree.improvement[v],
    weight: (v) => {
      let w = 0;
      for (let c = 0; c < k; c++) w += tree.counts[v * k + c];
      return w;
    },
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

/** A binary max-heap of node ids by gain; equal gains: the lower id first. */
class OpenNodes {
  private readonly ids: number[] = [];
  private readonly gains: number[] = [];

  get size(): number {
    return this.ids.length;
  }

  private before(i: number, j: number): boolean {
    const { gains, ids } = this;
    return gains[i] > gains[j] || (gains[i] === gains[j] && ids[i] < ids[j]);
  }

  private swap(i: number, j: number): void {
    const { gains, ids } = this;
    [ids[i], ids[j]] = [ids[j], ids[i]];
    [gains[i], gains[j]] = [gains[j], gains[i]];
  }

  push(id: number, gain: number): void {
    this.ids.push(id);
    this.gains.push(gain);
    let i = this.ids.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  pop(): number {
    const top = this.ids[0];
    const lastId = this.ids.pop()!;
    const lastGain = this.gains.pop()!;
    const n = this.ids.length;
    if (n === 0) return top;
    this.ids[0] = lastId;
    this.gains[0] = lastGain;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < n && this.before(l, m)) m = l;
      if (r < n && this.before(r, m)) m = r;
      if (m === i) return top;
      this.swap(i, m);
      i = m;
    }
  }
}
