import { grown } from '../core/arrays.js';
import { type NodeInts, narrowInts } from './narrow-ints.js';
import type { TreeNode } from './node.js';
import { NodeCounts, type NodeCountsData } from './node-counts.js';
import type { Split } from './split.js';

export type { NodeInts } from './narrow-ints.js';

/** Read access to a tree's nodes by id: a node array, or a `TreeStore` that makes them on demand. */
export interface NodeSource {
  readonly size: number;
  /** Node `id` as a `TreeNode` (a store makes a fresh object on each call). */
  node(id: number): TreeNode;
}

/** A node array as a `NodeSource`. */
export function arraySource(nodes: TreeNode[]): NodeSource {
  return { size: nodes.length, node: (id) => nodes[id] };
}

/** A tree as growers make it: a `TreeStore`, or (C-MBSV, pruning) an array of nodes. */
export type GrownTree = TreeStore | TreeNode[];

/** The tree's nodes as objects (a store's are made now). */
export function nodesOf(tree: GrownTree): TreeNode[] {
  return Array.isArray(tree) ? tree : tree.toNodes();
}

/** A `TreeStore`'s arrays, for posting between threads (a class instance loses its methods there). */
export type StoreData = { counts: NodeCountsData } & Pick<
  TreeStore,
  | 'classes'
  | 'size'
  | 'n'
  | 'depth'
  | 'firstChild'
  | 'branches'
  | 'score'
  | 'improvement'
  | 'missingBranch'
  | 'feature'
  | 'threshold'
  | 'splits'
>;

/**
 * The nodes of a growing tree in typed arrays, one entry per node: a big fit makes hundreds of
 * thousands of nodes, and as objects they would be most of its heap and of the garbage collector's
 * work (figures in docs/performance.md, "Memory"). `toNodes` (or `node(id)`) gives the `TreeNode`
 * objects, key for key as the model file holds them; a model keeps the store and makes them only
 * when asked for (`DecisionTree.nodes`).
 *
 * A binary numeric split is kept as feature + threshold; any other split object as it is. The
 * children of a node are contiguous ids (`firstChild`, `branches`; -1 and 0 for a leaf), as in
 * the model format. The class weights are a `NodeCounts`, sparse above `TreeStore.sparseAbove`
 * classes.
 */
export class TreeStore implements NodeSource {
  /**
   * Stores over more classes than this keep each node's class weights sparse (`NodeCounts`); the
   * trees are the same either way (tests lower it to compare the layouts).
   */
  static sparseAbove = 32;
  size = 0;
  counts: NodeCounts;
  n: Int32Array;
  depth: NodeInts;
  firstChild: Int32Array;
  branches: NodeInts;
  score: Float64Array;
  improvement: Float64Array;
  /** -1: none (the node has no `missingBranch`). */
  missingBranch: NodeInts;
  /** Split feature of a binary numeric split (-1 otherwise); its threshold in `threshold`. */
  feature: NodeInts;
  /**
   * By node id; after `compact`, when every split is binary, by split node only (`scoreOf`,
   * `improvementOf` and `splitOf` read them either way).
   */
  threshold: Float64Array;
  /** Splits that are not binary numeric, by node id. */
  splits = new Map<number, Split>();

  constructor(
    readonly classes: number,
    capacity = 64,
    sparse = classes > TreeStore.sparseAbove,
  ) {
    const c = Math.max(1, capacity);
    this.counts = new NodeCounts(classes, sparse, c);
    this.n = new Int32Array(c);
    this.depth = new Int32Array(c);
    this.firstChild = new Int32Array(c);
    this.branches = new Int32Array(c);
    this.score = new Float64Array(c);
    this.improvement = new Float64Array(c);
    this.missingBranch = new Int32Array(c);
    this.feature = new Int32Array(c);
    this.threshold = new Float64Array(c);
  }

  /** A store holding one blank node (the root of a tree or subtree) at `depth`, with room for `capacity`. */
  static root(classes: number, depth = 0, capacity = 64): TreeStore {
    const store = new TreeStore(classes, capacity);
    store.add(depth);
    return store;
  }

  /** Rebuild a store from its posted arrays. */
  static fromData(d: StoreData): TreeStore {
    const store = new TreeStore(d.classes, 1);
    Object.assign(store, d);
    store.counts = NodeCounts.fromData(d.counts);
    return store;
  }

  /** The arrays, trimmed to `size` (copies; one entry per node), for posting to another thread. */
  data(): StoreData {
    const m = this.size;
    if (this.pairs) {
      const full = (get: (id: number) => number) => Float64Array.from({ length: m }, (_, id) => get(id));
      return {
        ...this.fullData(),
        score: full((id) => this.scoreOf(id)),
        improvement: full((id) => this.improvementOf(id)),
        threshold: full((id) => this.thresholdOf(id)),
      };
    }
    return this.fullData();
  }

  private fullData(): StoreData {
    const m = this.size;
    return {
      classes: this.classes,
      size: m,
      counts: this.counts.data(m),
      n: this.n.slice(0, m),
      depth: this.depth.slice(0, m),
      firstChild: this.firstChild.slice(0, m),
      branches: this.branches.slice(0, m),
      score: this.score.slice(0, m),
      improvement: this.improvement.slice(0, m),
      missingBranch: this.missingBranch.slice(0, m),
      feature: this.feature.slice(0, m),
      threshold: this.threshold.slice(0, m),
      splits: this.splits,
    };
  }

  /**
   * This tree, finished, in less memory: every array trimmed to `size`, the integer fields (depth,
   * branches, missing branch, feature) in the narrowest of 8, 16 or 32 bits that holds their values,
   * and the class weights in float32 when each of them is a float32 (bootstrap counts are). Every
   * reading gives the same numbers. A forest keeps millions of nodes, 40 % fewer bytes each for two
   * classes. The store cannot grow afterwards.
   */
  compact(): this {
    const m = this.size;
    this.n = trim(this.n, m);
    this.firstChild = trim(this.firstChild, m);
    if (this.pairable()) {
      // Split node v's score, improvement and threshold at (firstChild[v] - 1) / 2: leaves' are all 0.
      const splits = (m - 1) / 2;
      const score = new Float64Array(splits);
      const improvement = new Float64Array(splits);
      const threshold = new Float64Array(splits);
      for (let id = 0; id < m; id++) {
        if (this.branches[id] === 0) continue;
        const j = (this.firstChild[id] - 1) / 2;
        score[j] = this.score[id];
        improvement[j] = this.improvement[id];
        threshold[j] = this.threshold[id];
      }
      this.score = score;
      this.improvement = improvement;
      this.threshold = threshold;
      this.pairs = true;
    } else {
      this.score = trim(this.score, m);
      this.improvement = trim(this.improvement, m);
      this.threshold = trim(this.threshold, m);
    }
    this.depth = narrowInts(this.depth, m);
    this.branches = narrowInts(this.branches, m);
    this.missingBranch = narrowInts(this.missingBranch, m);
    this.feature = narrowInts(this.feature, m);
    this.counts.compact(m);
    this.compacted = true;
    return this;
  }

  /** Set by `compact`: the arrays have no room to grow into. */
  private compacted = false;
  /** Set by `compact`: `score`, `improvement` and `threshold` hold split nodes' only (`at`). */
  private pairs = false;

  /**
   * True when every split has two branches and every leaf's score, improvement and threshold is
   * 0: children then come in pairs from id 1 (each node but the root is one node's child), so
   * split node v's entries can sit at (firstChild[v] - 1) / 2 and leaves need none.
   */
  private pairable(): boolean {
    const m = this.size;
    if (m % 2 !== 1) return false;
    for (let id = 0; id < m; id++) {
      const b = this.branches[id];
      if (b === 0) {
        const zero = Object.is(this.score[id], 0) && Object.is(this.improvement[id], 0);
        if (!zero || !Object.is(this.threshold[id], 0)) return false;
      } else if (b !== 2 || this.firstChild[id] % 2 !== 1) return false;
    }
    return true;
  }

  /** Where split node `id`'s score, improvement and threshold are in their arrays. */
  splitIndex(id: number): number {
    return this.pairs ? (this.firstChild[id] - 1) / 2 : id;
  }

  /** Node `id`'s score (0 for a leaf). */
  scoreOf(id: number): number {
    return this.pairs && this.branches[id] === 0 ? 0 : this.score[this.splitIndex(id)];
  }

  /** Node `id`'s improvement (0 for a leaf). */
  improvementOf(id: number): number {
    return this.pairs && this.branches[id] === 0 ? 0 : this.improvement[this.splitIndex(id)];
  }

  /** Node `id`'s threshold (a binary numeric split's; 0 for a leaf). */
  thresholdOf(id: number): number {
    return this.pairs && this.branches[id] === 0 ? 0 : this.threshold[this.splitIndex(id)];
  }

  /** Append a blank node (a leaf with no counts yet) at `depth`; returns its id. */
  add(depth: number): number {
    if (this.size === this.n.length) this.grow(2 * this.size);
    const id = this.size++;
    this.counts.clear(id);
    this.n[id] = 0;
    this.depth[id] = depth;
    this.firstChild[id] = -1;
    this.branches[id] = 0;
    this.score[id] = 0;
    this.improvement[id] = 0;
    this.missingBranch[id] = -1;
    this.feature[id] = -1;
    this.threshold[id] = 0;
    return id;
  }

  /** The node's class totals, entry count and depth. */
  setStats(id: number, totals: ArrayLike<number>, n: number, depth: number): void {
    this.counts.set(id, totals);
    this.n[id] = n;
    this.depth[id] = depth;
  }

  /** Make node `id` a split with `branches` new children (contiguous ids, at depth + 1); returns the first. */
  split(id: number, split: Split, score: number, improvement: number, missingBranch: number, branches: number): number {
    if (split.kind === 'numeric' && split.thresholds.length === 1) {
      this.feature[id] = split.feature;
      this.threshold[id] = split.thresholds[0];
    } else this.splits.set(id, split);
    this.score[id] = score;
    this.improvement[id] = improvement;
    this.missingBranch[id] = missingBranch >= 0 ? missingBranch : -1;
    const first = this.size;
    for (let b = 0; b < branches; b++) this.add(this.depth[id] + 1);
    this.firstChild[id] = first;
    this.branches[id] = branches;
    return first;
  }

  /** The split of node `id`, or undefined for a leaf. */
  splitOf(id: number): Split | undefined {
    if (this.feature[id] >= 0)
      return { kind: 'numeric', feature: this.feature[id], thresholds: [this.thresholdOf(id)] };
    return this.splits.get(id);
  }

  node(id: number): TreeNode {
    const node: TreeNode = { counts: this.counts.vector(id), n: this.n[id], depth: this.depth[id] };
    const split = this.splitOf(id);
    if (!split) return node;
    node.split = split;
    node.score = this.scoreOf(id);
    node.improvement = this.improvementOf(id);
    if (this.missingBranch[id] >= 0) node.missingBranch = this.missingBranch[id];
    const first = this.firstChild[id];
    const children: number[] = [];
    for (let b = 0; b < this.branches[id]; b++) children.push(first + b);
    node.children = children;
    return node;
  }

  toNodes(): TreeNode[] {
    return Array.from({ length: this.size }, (_, id) => this.node(id));
  }

  /**
   * Put a subtree grown on its own (ids local, its root 0) in place of node `id`: its root takes
   * `id`, the rest are appended.
   */
  place(id: number, sub: TreeStore): void {
    const base = this.size;
    const map = (j: number): number => (j === 0 ? id : base + j - 1);
    for (let j = 1; j < sub.size; j++) this.copyFrom(sub, j, this.add(0), map);
    this.copyFrom(sub, 0, id, map);
  }

  /**
   * The same tree numbered as the single-thread grower numbers it: the root is 0 and a node's
   * children get the next free ids when it is split, nodes being split depth-first, left to
   * right. Trees grown in pieces (worker threads) then equal, id for id, the one-thread tree.
   */
  renumberDepthFirst(): TreeStore {
    return this.cutAndRenumber(() => true);
  }

  /**
   * The tree with every split node for which `keep(id)` is false turned into a leaf (its subtree
   * dropped), numbered as `renumberDepthFirst` numbers.
   */
  cutAndRenumber(keep: (id: number) => boolean): TreeStore {
    const m = this.size;
    const newId = new Int32Array(m);
    const out = new TreeStore(this.classes, m, this.counts.sparse);
    const order: number[] = [];
    const stack = [0];
    order.push(0);
    while (stack.length > 0) {
      const v = stack.pop()!;
      const first = this.firstChild[v];
      const b = keep(v) ? this.branches[v] : 0;
      for (let i = 0; i < b; i++) {
        newId[first + i] = order.length;
        order.push(first + i);
      }
      for (let i = b - 1; i >= 0; i--) stack.push(first + i);
    }
    for (const old of order) {
      const id = out.add(0);
      if (this.branches[old] === 0 || keep(old)) out.copyFrom(this, old, id, (j) => newId[j]);
      else out.copyStats(this, old, id);
    }
    return out;
  }

  /** Node `j` of `src` as leaf `id` of this store: its counts, n and depth only. */
  private copyStats(src: TreeStore, j: number, id: number): void {
    this.counts.copy(id, src.counts, j);
    this.n[id] = src.n[j];
    this.depth[id] = src.depth[j];
  }

  private copyFrom(src: TreeStore, j: number, id: number, map: (j: number) => number): void {
    this.counts.copy(id, src.counts, j);
    this.n[id] = src.n[j];
    this.depth[id] = src.depth[j];
    this.firstChild[id] = src.branches[j] > 0 ? map(src.firstChild[j]) : -1;
    this.branches[id] = src.branches[j];
    this.score[id] = src.scoreOf(j);
    this.improvement[id] = src.improvementOf(j);
    this.missingBranch[id] = src.missingBranch[j];
    this.feature[id] = src.feature[j];
    this.threshold[id] = src.thresholdOf(j);
    const split = src.splits.get(j);
    if (split) this.splits.set(id, split);
  }

  private grow(capacity: number): void {
    if (this.compacted) throw new Error('a compacted TreeStore cannot grow');
    const more = <T extends Float64Array | NodeInts>(a: T): T => grown(a, capacity);
    this.counts.resize(capacity);
    this.n = more(this.n);
    this.depth = more(this.depth);
    this.firstChild = more(this.firstChild);
    this.branches = more(this.branches);
    this.score = more(this.score);
    this.improvement = more(this.improvement);
    this.missingBranch = more(this.missingBranch);
    this.feature = more(this.feature);
    this.threshold = more(this.threshold);
  }
}

/** `a`'s first `m` entries: `a` itself when it has no more (else a copy). */
function trim<T extends Float64Array | Int32Array>(a: T, m: number): T {
  return a.length === m ? a : (a.slice(0, m) as T);
}
