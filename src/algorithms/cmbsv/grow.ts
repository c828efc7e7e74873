/**
 * The C-MBSV grower: Algorithm 1 of Salehi-Moghaddami, Sadoghi Yazdi & Poostchi (2011).
 *
 *   BUILD TREE(D):
 *     all rows of D in one class            → leaf
 *     f = feature of largest |correlation|   (select.ts, eq. 10; Cramér's V for unordered categorical)
 *     T = distinct pairwise SVM thresholds   (thresholds.ts, eqs. 11–14)  → b = |T| + 1 branches
 *     only one branch has rows              → the node is a leaf with its majority class
 *     an empty branch between non-empty ones → an *unclassified region* leaf
 *     every other branch                    → BUILD TREE(branch)
 *
 * An unordered categorical feature splits multiway (one branch per value seen at the node) and is
 * not reused below, as in ID3. grove's stopping options still apply (`maxDepth`, `minSamplesSplit`,
 * `purity`; their defaults do not stop anything Algorithm 1 would grow); `minSamplesLeaf`,
 * `minGain` and the criterion are not used. Missing values (the paper has none): the score and
 * the SVMs use the rows whose value is known; rows with a missing value then follow the heaviest
 * branch, in training and in prediction (`missingBranch`).
 *
 * Node fields: `score` = the selected feature's |r| (or V); `improvement` = the decrease of Gini
 * impurity from the node to its branches (weighted), used only for feature importances.
 */
import { GroveError } from '../../core/errors.js';
import type { Column, Dataset, NumericValues } from '../../data/dataset.js';
import { DepthFirstGrower } from '../../learn/depth-first.js';
import { type Branches, type GrowEntry, rootGrowEntry } from '../../learn/expand.js';
import { PartitionScratch, partitionStable } from '../../learn/partition.js';
import type { GrowMeter } from '../../learn/progress.js';
import type { NodeSplit } from '../../learn/split-policy.js';
import type { KnnRegion, TreeNode } from '../../model/node.js';
import { branchCount, categoryBranch, categoryBranches, numericBranch } from '../../model/route.js';
import type { Split } from '../../model/split.js';
import { TreeStore } from '../../model/store.js';
import { columnOrder } from '../../split/column-order.js';
import { type ColumnRanks, columnRanks } from './known-order.js';
import { bestFeature, featureScores, type SelectionOptions } from './select.js';
import { nodeThresholds, type ThresholdOptions } from './thresholds.js';

/** Everything the C-MBSV grower reads (a subset of grove's ResolvedOptions). */
export interface CmbsvGrowOptions extends SelectionOptions, ThresholdOptions {
  unclassified: 'none' | 'knn';
  maxDepth: number;
  minSamplesSplit: number;
  purity: number;
}

/**
 * Grow a C-MBSV tree on `data` with row weights `weights`; returns grove's flat node list.
 * `grown`: the tree this grower grows, grown elsewhere in pieces (the explore page's two workers,
 * `growsCmbsvInTasks`); its unclassified regions are its empty nodes.
 */
export function growCmbsv(
  data: Dataset,
  opts: CmbsvGrowOptions,
  weights: Float64Array,
  grown?: TreeStore,
  meter?: GrowMeter,
): TreeNode[] {
  if (grown) {
    if (!growsCmbsvInTasks(opts))
      throw new GroveError("internal: a C-MBSV tree grown in pieces with unclassified 'knn'", { code: 'E_MODEL' });
    const nodes = grown.toNodes();
    // Only an empty branch between non-empty ones has no rows (`child`): exactly the regions.
    for (const node of nodes) if (node.n === 0) node.unclassified = true;
    return nodes;
  }
  const grower = new CmbsvGrower(data, opts, weights);
  grower.meter = meter;
  const store = TreeStore.root(data.classes.length);
  grower.grow(store, [grower.rootEntry()]);
  const nodes = store.toNodes();
  for (const [id, knn] of grower.unclassified) {
    nodes[id].unclassified = true;
    if (knn) nodes[id].knn = knn;
  }
  return nodes;
}

/**
 * Whether a C-MBSV tree can be grown in pieces (subtrees grown apart, then joined): not with
 * unclassified 'knn', whose regions keep their parents' rows by node id.
 */
export function growsCmbsvInTasks(opts: Pick<CmbsvGrowOptions, 'unclassified'>): boolean {
  return opts.unclassified === 'none';
}

/**
 * Algorithm 1 as the pieces of `expandNode` (src/learn/expand.ts): the node's rows are a slice of
 * one row buffer (the rows of positive weight), partitioned stably as the tree grows.
 */
export class CmbsvGrower extends DepthFirstGrower<GrowEntry> {
  readonly k: number;
  /** The rows of positive weight, each node's a slice [start, end) (a subtree grown elsewhere is sent its slice). */
  readonly rows: Int32Array;
  private readonly work: PartitionScratch;
  /** `assign`'s class weights per branch, reused from node to node. */
  private known = new Float64Array(0);
  /** Unclassified regions: leaf id → the k-NN data of its parent's rows (with `unclassified: 'knn'`). */
  readonly unclassified = new Map<number, KnnRegion | undefined>();
  /** The k-NN data of the node being split, for its unclassified regions. */
  private knn: KnnRegion | undefined;
  /** Each numeric feature's order, made when the feature is first chosen (its nodes' rows are sorted by it). */
  private readonly ranks: (ColumnRanks | undefined)[] = [];

  constructor(
    private readonly data: Dataset,
    readonly opts: CmbsvGrowOptions,
    private readonly weights: Float64Array,
  ) {
    super();
    const k = (this.k = data.classes.length);
    const all: number[] = [];
    for (let i = 0; i < data.nRows; i++) if (weights[i] > 0) all.push(i);
    this.rows = Int32Array.from(all);
    const maxCategories = data.features.reduce(
      (m, c) => (c.kind === 'categorical' ? Math.max(m, c.categories.length) : m),
      2,
    );
    const maxBranches = Math.max(maxCategories, (k * (k - 1)) / 2 + 1);
    this.work = new PartitionScratch(
      new Int32Array(data.nRows),
      new Int32Array(all.length),
      new Uint8Array(0),
      maxBranches,
    );
  }

  rootEntry(): GrowEntry {
    const { rows, weights } = this;
    const labels = this.data.labels;
    const totals = new Float64Array(this.k);
    for (let i = 0; i < rows.length; i++) totals[labels[rows[i]]] += weights[rows[i]];
    return rootGrowEntry(rows.length, totals, this.opts);
  }

  /** The feature of largest |correlation| and its SVM thresholds, or every value seen (unordered categorical). */
  findSplit(entry: GrowEntry): NodeSplit | null {
    const { data, opts, weights, k } = this;
    const rows = this.rows.subarray(entry.start, entry.end);
    const scores = featureScores(data.features, data.labels, k, rows, weights, opts, entry.excluded);
    const f = bestFeature(scores);
    if (f < 0) return null;
    const col = data.features[f];
    let split: Split;
    if (col.kind === 'numeric') {
      this.ranks[f] ??= columnRanks(columnOrder(data, f));
      const { thresholds } = nodeThresholds(col.values, data.labels, k, rows, weights, opts, this.ranks[f]);
      if (thresholds.length === 0) return null; // Algorithm 1, line 12: only one branch has data → leaf
      split = { kind: 'numeric', feature: f, thresholds };
    } else {
      const seen = new Set<number>();
      for (const r of rows) if (col.codes[r] >= 0) seen.add(col.codes[r]);
      split = { kind: 'multiway', feature: f, values: [...seen].sort((a, b) => a - b) };
    }
    // The missing branch and the improvement depend on the rows' branches: `assign` settles them.
    return { split, branches: branchCount(split), missingBranch: -1, score: scores[f], improvement: 0 };
  }

  /**
   * Each row's branch; missing values follow the heaviest branch (by the known rows' weight). The
   * improvement is the Gini decrease from the node to its known rows' branches.
   */
  assign(entry: GrowEntry, chosen: NodeSplit, into: Branches): void {
    const { data, weights, rows, k } = this;
    const { labels } = data;
    const { branchOf } = this.work;
    const { split } = chosen;
    const { count: branches, sizes, totals } = into;
    const col = data.features[split.feature];
    // The class weights of each branch's rows of known value: known[b · k + c].
    if (this.known.length < branches * k) this.known = new Float64Array(branches * k);
    const known = this.known.subarray(0, branches * k).fill(0);
    const table =
      split.kind !== 'numeric' && col.kind === 'categorical' ? categoryBranches(split, col.categories.length) : null;
    const missing = branchRows(rows, entry, split, col, table, labels, weights, branchOf, known, k, sizes);
    let heaviest = 0;
    for (let b = 1; b < branches; b++) if (sumOf(known, b * k, k) > sumOf(known, heaviest * k, k)) heaviest = b;
    if (missing === 0) {
      // Every row's branch is known: the totals are the known weights (the same sums, in the same order).
      for (let b = 0; b < branches; b++) totals[b].set(known.subarray(b * k, b * k + k));
    } else {
      sizes.fill(0);
      followHeaviest(rows, entry, heaviest, labels, weights, branchOf, sizes, totals);
    }
    chosen.missingBranch = heaviest;
    chosen.improvement = giniDecrease(entry.totals, known, branches, k);
  }

  /** The k-NN data of the node's rows when an inner branch is empty (an unclassified region); then the partition. */
  partition(entry: GrowEntry, _chosen: NodeSplit, branches: Branches, leaf: readonly boolean[]): number {
    const { count, sizes } = branches;
    const { start, end } = entry;
    let first = 0;
    while (sizes[first] === 0) first++;
    let last = count - 1;
    while (sizes[last] === 0) last--;
    let inner = false;
    for (let b = first + 1; b < last; b++) if (sizes[b] === 0) inner = true;
    this.knn =
      this.opts.unclassified === 'knn' && inner ? knnRegion(this.data, this.rows.subarray(start, end)) : undefined;
    if (leaf.some((l) => !l)) partitionStable(this.rows, start, end, branches, this.work);
    return start;
  }

  /**
   * An empty branch (only inner ones can be: thresholds.ts drops those that empty an outer one) is an
   * unclassified region.
   */
  child(_parent: GrowEntry, _b: number, base: GrowEntry): GrowEntry {
    if (base.end === base.start) this.unclassified.set(base.id, this.knn);
    return base;
  }
}

/*
 * The passes over a node's rows below return right after their loops (docs/performance.md, "V8's
 * on-stack compilation").
 */

/**
 * Each row's branch into `branchOf` (-1: a missing value), the class weights of the rows of known
 * value into `known` and their number into `sizes`; returns the number of rows with a missing value.
 */
function branchRows(
  rows: Int32Array,
  { start, end }: GrowEntry,
  split: Split,
  col: Column,
  table: Int32Array | null,
  labels: Int32Array,
  weights: Float64Array,
  branchOf: Int32Array,
  known: Float64Array,
  k: number,
  sizes: Int32Array,
): number {
  let missing = 0;
  for (let i = start; i < end; i++) {
    const r = rows[i];
    const b =
      split.kind === 'numeric' && col.kind === 'numeric'
        ? numericBranch(split.thresholds, col.values[r])
        : col.kind === 'categorical'
          ? categoryBranch(table!, col.codes[r])
          : -1;
    branchOf[r] = b;
    if (b >= 0) {
      known[b * k + labels[r]] += weights[r];
      sizes[b]++;
    } else missing++;
  }
  return missing;
}

/**
 * Rows of a missing value to the heaviest branch, and every row counted in its branch's size and totals in
 * row order.
 */
function followHeaviest(
  rows: Int32Array,
  { start, end }: GrowEntry,
  heaviest: number,
  labels: Int32Array,
  weights: Float64Array,
  branchOf: Int32Array,
  sizes: Int32Array,
  totals: Float64Array[],
): void {
  for (let i = start; i < end; i++) {
    const r = rows[i];
    if (branchOf[r] < 0) branchOf[r] = heaviest;
    const b = branchOf[r];
    sizes[b]++;
    totals[b][labels[r]] += weights[r];
  }
}

/** Σ of `counts[start .. start + k)`. */
function sumOf(counts: Float64Array, start: number, k: number): number {
  let t = 0;
  for (let c = start; c < start + k; c++) t += counts[c];
  return t;
}

/** Gini impurity of the class weights `counts[start .. start + k)`. */
function gini(counts: Float64Array, start: number, k: number): number {
  let t = 0;
  let s = 0;
  for (let c = start; c < start + k; c++) {
    t += counts[c];
    s += counts[c] * counts[c];
  }
  return t > 0 ? 1 - s / (t * t) : 0;
}

/** Gini of the class weights `parent` less that of the branches' `children[b · k + c]`, weighted. */
function giniDecrease(parent: Float64Array, children: Float64Array, branches: number, k: number): number {
  const total = sumOf(parent, 0, k);
  if (!(total > 0)) return 0;
  let after = 0;
  for (let b = 0; b < branches; b++) after += (sumOf(children, b * k, k) / total) * gini(children, b * k, k);
  return gini(parent, 0, k) - after;
}

/** The rows reaching a node, as the k-NN data of its unclassified regions. */
export function knnRegion(data: Dataset, rows: ArrayLike<number>): KnnRegion {
  const d = data.features.length;
  const center = new Array<number>(d).fill(0);
  const scale = new Array<number>(d).fill(1);
  data.features.forEach((col, f) => {
    if (col.kind !== 'numeric') return;
    const n = knownCount(col.values, rows);
    if (n === 0) return;
    const mean = knownTotal / n;
    const ss = squaredDeviations(col.values, rows, mean);
    center[f] = mean;
    const sd = Math.sqrt(ss / n);
    scale[f] = sd > 0 ? sd : 1;
  });
  const out: (number | null)[][] = [];
  const labels: number[] = [];
  regionRows(data, rows, out, labels);
  return { rows: out, labels, center, scale };
}

/** `knownCount`'s Σ of the known values. */
let knownTotal = 0;

/** The number of known values at the rows (`knownTotal`: their sum). */
function knownCount(values: NumericValues, rows: ArrayLike<number>): number {
  let n = 0;
  let s = 0;
  for (let j = 0; j < rows.length; j++) {
    const v = values[rows[j]];
    if (!Number.isNaN(v)) {
      n++;
      s += v;
    }
  }
  knownTotal = s;
  return n;
}

/** Σ (v − mean)² over the known values at the rows. */
function squaredDeviations(values: NumericValues, rows: ArrayLike<number>, mean: number): number {
  let ss = 0;
  for (let j = 0; j < rows.length; j++) {
    const v = values[rows[j]];
    if (!Number.isNaN(v)) ss += (v - mean) ** 2;
  }
  return ss;
}

/** Each row's values (null: missing) into `out` and its label into `labels`. */
function regionRows(data: Dataset, rows: ArrayLike<number>, out: (number | null)[][], labels: number[]): void {
  for (let j = 0; j < rows.length; j++) {
    const r = rows[j];
    out.push(
      data.features.map((col) => {
        if (col.kind === 'numeric') return Number.isNaN(col.values[r]) ? null : col.values[r];
        return col.codes[r] < 0 ? null : col.codes[r];
      }),
    );
    labels.push(data.labels[r]);
  }
}
