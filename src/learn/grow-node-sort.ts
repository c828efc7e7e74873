import { SquareSums } from '../criteria/incremental.js';
import type { Dataset, NumericValues } from '../data/dataset.js';
import { TreeStore } from '../model/store.js';
import type { ResolvedOptions } from '../options/options.js';
import type { Candidate } from '../split/candidate.js';
import type { NodeBuffers } from '../split/context.js';
import { EntryPool } from '../split/entries.js';
import { FeatureEvaluator } from '../split/evaluate.js';
import { countSortWithIds, type RadixWork, radixSortWithIds, sortWithIds } from '../split/node-sort.js';
import { RankBins } from '../split/numeric-node-sort.js';
import { type LabelCodes, labelCodes, NEW_VALUE, type SortedSlice } from '../split/sorted-slice.js';
import { growNodes } from './best-first.js';
import { DepthFirstGrower } from './depth-first.js';
import { type Branches, expandNode, type GrowEntry, rootGrowEntry } from './expand.js';
import { FeatureDraw } from './feature-draw.js';
import { type RankColumn, rankTables } from './node-ranks.js';
import { giveScratch, NodeScratch, takeScratch } from './node-scratch.js';
import type { GrowMeter } from './progress.js';
import { type ChosenSplit, chooseSplit, heldSplit } from './split-policy.js';

/**
 * The exact grower with scikit-learn's layout (its BestSplitter), for numeric features without
 * missing values when nodes draw a few of them (`nodeSortApplies`): one array of the tree's rows
 * (`samples`), a node being a range [start, end) of it. At each node each drawn feature's ranks
 * (`ranksOf`) are gathered into a scratch array and sorted there with the rows alongside (counting,
 * radix or comparison sort by the node's size and span), then scanned: Gini straight from the
 * sorted ranks (`scanGiniSorted`), any other measure through the same scanner as the presorted
 * grower (`FeatureEvaluator`, from a slice marked where the value changes); the winner, chosen
 * as there, partitions the node's rows in place. Nothing is kept sorted between nodes, so a node
 * costs its own rows only, not the upkeep of every feature's sorted slices (grow.ts,
 * lazy-slices.ts) (docs/performance.md, "Per-node sorting").
 *
 * Rows of weight 0 are left out (not in `samples`), so a forest grows on all of its data with the
 * bootstrap counts as weights, without copying the drawn rows. The trees equal the presorted
 * grower's: the same draws, scans and choice, and sums that are exact whatever the order of equal
 * values (`nodeSortApplies`).
 */
export class NodeSortGrower extends DepthFirstGrower<GrowEntry, ChosenSplit> {
  /** False: `growTree` uses the presorted grower everywhere (tests compare the two). */
  static enabled = true;
  /**
   * Gini scans bin a node's rows by rank when its span of ranks times its classes is at most this
   * many times its rows, else sort them (0: always sort; tests compare the two).
   */
  static binsPerRow = 8;
  readonly k: number;
  readonly evaluator: FeatureEvaluator;
  /** Rows of non-zero weight (the first `size`); each node a range of them. */
  readonly samples: Int32Array;
  readonly size: number;
  /** Their class totals, summed in row order (the root's). */
  private readonly totals: Float64Array;
  private readonly cands: Candidate[];
  private readonly draw: FeatureDraw;
  private readonly columns: NumericValues[];
  /** A node's ranks of one feature, sorted with `samples`. */
  private readonly xs: Float64Array;
  /** A node's ranks of one feature, gathered in the order of `samples` (`gatherRanks`). */
  private readonly keys: Int32Array;
  /** The scanner's view of the sorted range (one slice for every feature: one is scanned at a time). */
  private readonly slice: SortedSlice;
  private readonly buf: NodeBuffers;
  /** The class and the weight of the row at each position of `samples`, moved with it. */
  private readonly labelAt: Int32Array;
  private readonly weightAt: Int32Array;
  /** A node's rows copied from `samples` to be sorted (`samples` keeps its order for `labelAt`, `weightAt`). */
  private readonly sorted: Int32Array;
  private readonly labs: LabelCodes;
  private readonly count: Int32Array;
  private readonly tmp: Int32Array;
  /** Each feature's values as ranks among its distinct values (0, 1, ...): the sorts' keys. */
  private readonly ranks: RankColumn[];
  /** Each feature's distinct values, by rank. */
  private readonly distinct: Float64Array[];
  /** Scratch of the Gini scan by rank (`scanGiniRanks`): zero between nodes. */
  private readonly bins: RankBins;
  /** The smallest rank of the node's rows that `gatherRanks` saw last. */
  private min = 0;
  private readonly radix: RadixWork;
  /** The scan measure is Gini: scanned straight from the sorted values (`scanGiniSorted`). */
  private readonly gini: boolean;

  constructor(
    data: Dataset,
    readonly opts: ResolvedOptions,
    weights: Float64Array,
    scratch: NodeScratch = new NodeScratch(),
  ) {
    super();
    const n = data.nRows;
    const k = data.classes.length;
    this.k = k;
    this.columns = data.features.map((col) => (col as { values: NumericValues }).values);
    const pool = new EntryPool(data.labels, weights);
    this.evaluator = new FeatureEvaluator(data.features, pool, k, opts);
    this.samples = scratch.int32('samples', n);
    this.totals = new Float64Array(k);
    const unit = collectRows(weights, data.labels, this.samples, this.totals);
    this.size = unit.size;
    this.labelAt = scratch.int32('labelAt', n);
    this.weightAt = scratch.int32('weightAt', n); // integer weights (`nodeSortApplies`), total under 2^26
    for (let p = 0; p < unit.size; p++) {
      const s = this.samples[p];
      this.labelAt[p] = data.labels[s];
      this.weightAt[p] = weights[s];
    }
    this.sorted = scratch.int32('sorted', n);
    this.evaluator.ctx.unitWeights = unit.unit;
    this.gini = this.evaluator.ctx.inc?.constructor === SquareSums;
    this.cands = data.features.map(() => this.evaluator.newCandidate());
    this.draw = new FeatureDraw(data.features.length, opts.maxFeatures);
    this.xs = scratch.float64('xs', n);
    this.keys = scratch.int32('keys', n);
    const labs = { uint8: (m: number) => scratch.uint8('labs', m), uint16: (m: number) => scratch.uint16('labs', m) };
    this.labs = labelCodes(labs, n, k);
    this.slice = { order: scratch.int32('order', n), labs: this.labs };
    this.buf = { ids: this.sorted, sorted: data.features.map(() => this.slice) };
    this.count = scratch.int32('count', 2 * n + 1);
    const ranked = rankTables(this.columns);
    this.ranks = ranked.ranks;
    this.distinct = ranked.distinct;
    let most = 0;
    for (const d of this.distinct) most = Math.max(most, d.length);
    this.bins = new RankBins(scratch.zeroed('rankWeights', most * k), scratch.zeroed('rankRows', most));
    this.radix = scratch.radix(n);
    this.tmp = scratch.int32('tmp', n);
  }

  /** The root's entry: every row of non-zero weight. */
  root(): GrowEntry {
    return rootGrowEntry(this.size, this.totals, this.opts, 0, this.opts.seed);
  }

  findSplit(entry: GrowEntry): ChosenSplit | null {
    const { cands, draw, evaluator } = this;
    evaluator.leaveNode(); // `entry.totals` may be a spent node's array handed out again (`childTotals`)
    if (draw.active) {
      this.entry = entry;
      const drawn = draw.draw(entry.seed, cands, this.evaluateDrawn);
      return chooseSplit(drawn, this.opts, evaluator.view, evaluator.nodeShare(entry.totals));
    }
    for (let f = 0; f < cands.length; f++) this.evaluateFeature(f, entry, cands[f]);
    return chooseSplit(cands, this.opts, evaluator.view, evaluator.nodeShare(entry.totals));
  }

  /** The node being searched, for `evaluateDrawn`. */
  private entry: GrowEntry | null = null;
  /** Evaluate feature `f` of `entry` into its candidate (the draws call it: one function for every node). */
  private readonly evaluateDrawn = (f: number): void => this.evaluateFeature(f, this.entry!, this.cands[f]);

  /**
   * Scan the node's rows by feature `f`: under Gini binned by rank where the node's span of ranks
   * times its classes is at most `binsPerRow` times its rows, else sorted.
   */
  private evaluateFeature(f: number, entry: GrowEntry, out: Candidate): void {
    const { start, end } = entry;
    const { xs, sorted, labs, evaluator } = this;
    if (this.gini) {
      evaluator.enterNode(entry.totals);
      const { k, local, minLeaf } = evaluator.ctx;
      const most = NodeSortGrower.binsPerRow * (end - start);
      // A column whose every span is binned here is gathered and binned in one pass; any other is
      // binned only once its span says so (a continuous column's rows scattered over its whole
      // table of ranks would cost two random passes at every sorted node).
      if (this.distinct[f].length * k <= most) {
        const span = this.gatherBinned(f, start, end, local, k, minLeaf > 1);
        evaluator.fromNodeRanks(f, this.distinct[f], end - start, this.min, span, this.bins, out);
        return;
      }
      const span = this.gatherRanks(f, start, end);
      if (span * k <= most) {
        this.binGathered(start, end, local, k, minLeaf > 1);
        evaluator.fromNodeRanks(f, this.distinct[f], end - start, this.min, span, this.bins, out);
        return;
      }
      this.sortNode(start, end, span);
      evaluator.fromNodeSorted(f, xs, sorted, entry, out);
      return;
    }
    this.sortNode(start, end, this.gatherRanks(f, start, end));
    const order = this.slice.order;
    const label = this.evaluator.ctx.pool.label;
    let prev = xs[start];
    for (let p = start; p < end; p++) {
      const s = sorted[p];
      const x = xs[p];
      order[p] = x === prev ? s : s | NEW_VALUE;
      labs[p] = label[s];
      prev = x;
    }
    this.evaluator.evaluate(f, this.buf, entry, out);
  }

  /** The ranks of feature `f` of `samples[start, end)` into `keys`, their smallest into `min`; their span. */
  private gatherRanks(f: number, start: number, end: number): number {
    const { keys, samples } = this;
    const ranks = this.ranks[f];
    let min = ranks[samples[start]];
    let max = min;
    for (let p = start; p < end; p++) {
      const x = ranks[samples[p]];
      keys[p] = x;
      if (x < min) min = x;
      else if (x > max) max = x;
    }
    this.min = min;
    return max - min + 1;
  }

  /**
   * `gatherRanks` under Gini, each row's weight added into `bins` at its rank and class on the way
   * (`local`: class code → the node's column, of `k`), and each rank's rows counted when
   * `counted`: one pass over the rows, where gathering then binning took two.
   */
  private gatherBinned(f: number, start: number, end: number, local: Int32Array, k: number, counted: boolean): number {
    const { keys, samples, labelAt, weightAt } = this;
    const cw = this.bins.classWeights;
    const ranks = this.ranks[f];
    let min = ranks[samples[start]];
    let max = min;
    if (k === this.k) {
      // Every class at the node (a two-class node that is not pure): its columns are the classes.
      for (let p = start; p < end; p++) {
        const x = ranks[samples[p]];
        keys[p] = x;
        cw[x * k + labelAt[p]] += weightAt[p];
        if (x < min) min = x;
        else if (x > max) max = x;
      }
    } else
      for (let p = start; p < end; p++) {
        const x = ranks[samples[p]];
        keys[p] = x;
        cw[x * k + local[labelAt[p]]] += weightAt[p];
        if (x < min) min = x;
        else if (x > max) max = x;
      }
    if (counted) {
      const rows = this.bins.rows;
      for (let p = start; p < end; p++) rows[keys[p]]++;
    }
    this.min = min;
    return max - min + 1;
  }

  /** The rows' weights gathered by `gatherRanks` added into `bins`, as `gatherBinned` adds them. */
  private binGathered(start: number, end: number, local: Int32Array, k: number, counted: boolean): void {
    const { keys, labelAt, weightAt } = this;
    const cw = this.bins.classWeights;
    if (k === this.k) for (let p = start; p < end; p++) cw[keys[p] * k + labelAt[p]] += weightAt[p];
    else for (let p = start; p < end; p++) cw[keys[p] * k + local[labelAt[p]]] += weightAt[p];
    if (counted) {
      const rows = this.bins.rows;
      for (let p = start; p < end; p++) rows[keys[p]]++;
    }
  }

  /**
   * `samples[start, end)` into `sorted` in the order of the ranks gathered in `keys` (`gatherRanks`),
   * sorted alongside in `xs`: by counting where the node's ranks span at most twice its rows, else by radix or
   * comparison; nothing to do when they are all equal.
   */
  private sortNode(start: number, end: number, span: number): void {
    const { xs, sorted: samples, keys, min } = this;
    const n = end - start;
    samples.set(this.samples.subarray(start, end), start);
    for (let p = start; p < end; p++) xs[p] = keys[p];
    if (span === 1) return;
    if (n > COUNT_FROM && span <= 2 * n) countSortWithIds(xs, samples, start, end, min, span, this.count, this.tmp);
    else if (n > RADIX_FROM) radixSortWithIds(xs, samples, start, end, min, span, this.radix);
    else sortWithIds(xs, samples, start, end);
  }

  /** Class-weight arrays of nodes already expanded, for children to come (`childTotals`). */
  private readonly spentTotals: Float64Array[] = [];

  /** `DepthFirstGrower.grow`, each expanded node's class weights kept for a child to come. */
  override grow(nodes: TreeStore, stack: GrowEntry[], defer?: (entry: GrowEntry) => boolean): void {
    const spent = this.spentTotals;
    while (stack.length > 0) {
      const entry = stack.pop()!;
      if (defer?.(entry)) continue;
      expandNode(entry, this, nodes, stack);
      spent.push(entry.totals); // recorded in the store, read by nothing else
    }
  }

  /** A spent node's class weights zeroed, or a new array (a typed array per child is a costly allocation). */
  childTotals(): Float64Array {
    const spent = this.spentTotals.pop();
    if (spent === undefined) return new Float64Array(this.k);
    spent.fill(0);
    return spent;
  }

  override hold(_entry: GrowEntry, chosen: ChosenSplit): ChosenSplit {
    return heldSplit(chosen, this.evaluator.newCandidate());
  }

  /**
   * Partition the node's rows in place by the split's threshold (≤: branch 0), summing each
   * branch's class weights on the way. Gini's scans give the largest rank on the left
   * (`splitBin`): ranks are fewer bytes to fetch than values.
   */
  assign(entry: GrowEntry, chosen: ChosenSplit, into: Branches): void {
    const split = chosen.split;
    const rank = chosen.best.splitBin;
    if (rank >= 0) this.partitionBy(entry, this.ranks[split.feature], rank, into);
    else this.partitionBy(entry, this.columns[split.feature], (split as { thresholds: number[] }).thresholds[0], into);
  }

  /** `assign` by `keys[row] <= t`. */
  private partitionBy(entry: GrowEntry, values: RankColumn | NumericValues, t: number, into: Branches): void {
    const { samples, labelAt, weightAt } = this;
    const left = into.totals[0];
    const right = into.totals[1];
    let p = entry.start;
    let e = entry.end;
    while (p < e) {
      const s = samples[p];
      const c = labelAt[p];
      const w = weightAt[p];
      if (values[s] <= t) {
        left[c] += w;
        p++;
      } else {
        e--;
        right[c] += w;
        samples[p] = samples[e];
        labelAt[p] = labelAt[e];
        weightAt[p] = weightAt[e];
        samples[e] = s;
        labelAt[e] = c;
        weightAt[e] = w;
      }
    }
    into.sizes[0] = p - entry.start;
    into.sizes[1] = entry.end - p;
  }

  /** The rows were partitioned by `assign`. */
  partition(entry: GrowEntry): number {
    return entry.start;
  }

  child(_parent: GrowEntry, _b: number, base: GrowEntry): GrowEntry {
    return base;
  }
}

/**
 * The rows of non-zero weight into `samples` in row order, their class totals into `totals`; their
 * count, and whether each weighs 1. One pass: it runs once per tree, in the interpreter at first.
 */
function collectRows(
  weights: Float64Array,
  labels: Int32Array,
  samples: Int32Array,
  totals: Float64Array,
): { size: number; unit: boolean } {
  let size = 0;
  let unit = true;
  for (let r = 0; r < weights.length; r++) {
    const w = weights[r];
    if (w === 0) continue;
    samples[size++] = r;
    totals[labels[r]] += w;
    if (w !== 1) unit = false;
  }
  return { size, unit };
}

/** Nodes with at most this many rows are sorted by comparison, whatever their values. */
const COUNT_FROM = 32;
/** Nodes with more rows than this whose ranks span more than twice their rows are radix-sorted. */
const RADIX_FROM = 64;

/** Grow `data`'s tree with `NodeSortGrower` (when `nodeSortApplies`), depth-first or best-first. */
export function growNodeSort(
  data: Dataset,
  opts: ResolvedOptions,
  weights: Float64Array,
  meter: GrowMeter | undefined,
): TreeStore {
  const scratch = takeScratch();
  const grower = new NodeSortGrower(data, opts, weights, scratch);
  grower.meter = meter;
  // Room for a node per two rows (spambase's and letter-recognition's forests grow one per 4 and
  // 2.6): fewer copies as the store grows.
  const store = TreeStore.root(data.classes.length, 0, Math.max(64, grower.size >> 1));
  const grown = growNodes(grower, store, grower.root(), opts.maxLeafNodes, opts.criterionImpl);
  giveScratch(scratch);
  return grown;
}
