/**
 * A fitted tree's nodes read into parallel typed arrays (kinds, features, children, thresholds,
 * category tables, class distributions, shares): what `CompiledTree` predicts from.
 */

import { emptyCategoryBranch, type KnnRegion, majorityClass, type TreeNode } from './node.js';
import type { NodeCounts } from './node-counts.js';
import { branchCount, categoryBranches, NO_BRANCH } from './route.js';
import type { FeatureSchema } from './schema.js';
import type { Split } from './split.js';
import { type NodeSource, TreeStore } from './store.js';

export const LEAF = 0;
export const NUMERIC = 1;
const CATEGORICAL = 2;

type CategoricalSplit = Exclude<Split, { kind: 'numeric' }>;

/** What the constructor collects while reading the nodes: thresholds and category tables to pack. */
interface Params {
  thresholds: number[];
  categorical: Array<[node: number, split: CategoricalSplit]>;
  tableSize: number;
}

/**
 * Node `i`'s class distribution from a store's counts into `out[at..]`: each class's weight over
 * the node's total (`NodeCounts.total`), or uniform when it weighs nothing. `CompiledTree` reads
 * a store through this too, so both give the same bits.
 */
export function storeProbaInto(counts: NodeCounts, i: number, k: number, out: Float64Array, at: number): void {
  const total = counts.total(i);
  if (!(total > 0)) out.fill(1 / k, at, at + k);
  else if (!counts.sparse) {
    const dense = counts.dense;
    for (let c = 0; c < k; c++) out[at + c] = dense[i * k + c] / total;
  } else {
    out.fill(0, at, at + k);
    for (let j = counts.start[i], end = j + counts.len[i]; j < end; j++) out[at + counts.cls[j]] = counts.w[j] / total;
  }
}

/**
 * A tree's nodes as parallel typed arrays. Children of a node have contiguous ids, so branch b of
 * node i is `firstChild[i] + b`.
 */
export class TreeLayout {
  readonly kind: Uint8Array;
  readonly feature: Int32Array;
  readonly firstChild: Int32Array;
  /** Numeric: offset into `thresholds`; categorical: offset into `codeBranch`. */
  readonly paramStart: Int32Array;
  readonly paramCount: Int32Array;
  readonly thresholds: Float64Array;
  /** For a categorical node, its `categoryBranches` table: one entry per category code of its feature. */
  readonly codeBranch: Int32Array;
  /** Number of branches of each split node (0 for a leaf). */
  readonly branches: Int32Array;
  /** proba[i * classes + c]: class distribution at node i (normalised counts). */
  readonly proba: Float64Array;
  readonly classOf: Int32Array;
  /** Branch for a missing value or a category with no branch; -1 = every branch, weighted (C4.5). */
  readonly missingBranch: Int32Array;
  /** Share of its parent's training weight that reached each node (weights of the C4.5 mixture). */
  readonly share: Float64Array;
  /** 1 for a C-MBSV unclassified-region leaf. */
  readonly unclassified: Uint8Array;
  /** Its k-NN data, when the model stores it. */
  readonly knn: (KnnRegion | undefined)[];
  constructor(
    nodes: NodeSource,
    features: FeatureSchema[],
    readonly classes: number,
  ) {
    const m = nodes.size;
    this.kind = new Uint8Array(m);
    this.feature = new Int32Array(m);
    this.firstChild = new Int32Array(m);
    this.paramStart = new Int32Array(m);
    this.paramCount = new Int32Array(m);
    this.proba = new Float64Array(m * classes);
    this.classOf = new Int32Array(m);
    this.missingBranch = new Int32Array(m).fill(NO_BRANCH);
    this.share = new Float64Array(m).fill(1);
    this.unclassified = new Uint8Array(m);
    this.knn = new Array<KnnRegion | undefined>(m);
    this.branches = new Int32Array(m);
    const params: Params = { thresholds: [], categorical: [], tableSize: 0 };
    if (nodes instanceof TreeStore) this.readStore(nodes, features, params);
    else this.readNodes(nodes, features, params);
    const { thresholds, categorical, tableSize } = params;
    this.thresholds = Float64Array.from(thresholds);
    this.codeBranch = new Int32Array(tableSize);
    for (const [i, split] of categorical) {
      const table = this.codeBranch.subarray(this.paramStart[i], this.paramStart[i] + this.paramCount[i]);
      categoryBranches(split, table.length, table);
    }
  }

  /** Nodes as objects (C-MBSV, pruned and loaded trees): counts, splits and regions as they hold them. */
  private readNodes(nodes: NodeSource, features: FeatureSchema[], params: Params): void {
    const m = nodes.size;
    const classes = this.classes;
    // A source may make a node object on each call: one each.
    const list: TreeNode[] = [];
    for (let i = 0; i < m; i++) list.push(nodes.node(i));
    const totals = new Float64Array(m);
    for (let i = 0; i < m; i++) totals[i] = list[i].counts.reduce((a, b) => a + b, 0);
    for (let i = 0; i < m; i++) {
      const node = list[i];
      const total = totals[i];
      for (let c = 0; c < classes; c++) this.proba[i * classes + c] = total > 0 ? node.counts[c] / total : 1 / classes;
      this.classOf[i] = majorityClass(node.counts);
      if (node.unclassified) {
        this.unclassified[i] = 1;
        this.classOf[i] = -1;
        this.proba.fill(0, i * classes, i * classes + classes);
        this.knn[i] = node.knn;
      }
      if (node.split && node.children)
        this.setSplit(
          i,
          node.split,
          node.children[0],
          node.children.length,
          node.missingBranch,
          totals,
          features,
          params,
        );
    }
    for (let i = 0; i < m; i++) {
      const parent = list[i];
      if (!parent.children || parent.split?.kind === 'numeric') continue;
      for (const c of parent.children) if (emptyCategoryBranch(list[c], parent)) this.inherit(c, i);
    }
  }

  /**
   * A grower's store, read from its arrays without node objects: the same numbers as its nodes give
   * (`NodeCounts` adds a node's weights in class order, as `readNodes` does). A store holds no
   * unclassified regions; a child of a categorical split that no weight reached is an
   * `emptyCategoryBranch` (weights are never negative).
   */
  private readStore(store: TreeStore, features: FeatureSchema[], params: Params): void {
    const m = store.size;
    const k = this.classes;
    const counts = store.counts;
    const totals = new Float64Array(m);
    for (let i = 0; i < m; i++) totals[i] = counts.total(i);
    for (let i = 0; i < m; i++) {
      storeProbaInto(counts, i, k, this.proba, i * k);
      this.classOf[i] = counts.majority(i);
      const split = store.splitOf(i);
      if (!split || store.branches[i] === 0) continue;
      const missing = store.missingBranch[i] >= 0 ? store.missingBranch[i] : undefined;
      this.setSplit(i, split, store.firstChild[i], store.branches[i], missing, totals, features, params);
    }
    for (let i = 0; i < m; i++) {
      if (this.kind[i] !== CATEGORICAL) continue;
      const first = this.firstChild[i];
      for (let c = first; c < first + store.branches[i]; c++) if (!(totals[c] > 0)) this.inherit(c, i);
    }
  }

  /** Node i's split: its kind, feature, branches, the shares of its children and its parameters. */
  private setSplit(
    i: number,
    split: Split,
    first: number,
    children: number,
    missingBranch: number | undefined,
    totals: Float64Array,
    features: FeatureSchema[],
    params: Params,
  ): void {
    this.feature[i] = split.feature;
    this.branches[i] = branchCount(split);
    this.firstChild[i] = first;
    if (missingBranch !== undefined) this.missingBranch[i] = missingBranch;
    let sum = 0;
    for (let b = 0; b < children; b++) sum += totals[first + b];
    for (let b = 0; b < children; b++) this.share[first + b] = sum > 0 ? totals[first + b] / sum : 1 / children;
    if (split.kind === 'numeric') {
      this.kind[i] = NUMERIC;
      this.paramStart[i] = params.thresholds.length;
      this.paramCount[i] = split.thresholds.length;
      for (const t of split.thresholds) params.thresholds.push(t);
    } else {
      this.kind[i] = CATEGORICAL;
      params.categorical.push([i, split]);
      this.paramStart[i] = params.tableSize;
      this.paramCount[i] = features[split.feature].categories?.length ?? 0;
      params.tableSize += this.paramCount[i];
    }
  }

  /** An `emptyCategoryBranch` predicts its parent's class distribution (parents come before children). */
  private inherit(child: number, parent: number): void {
    const k = this.classes;
    this.proba.copyWithin(child * k, parent * k, (parent + 1) * k);
    this.classOf[child] = this.classOf[parent];
  }
}
