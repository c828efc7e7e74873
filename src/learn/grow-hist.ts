import { GroveError } from '../core/errors.js';
import { argMax } from '../core/extent.js';
import { type Column, type Dataset, hasMissing } from '../data/dataset.js';
import { categoryBranches, numericBranch } from '../model/route.js';
import { TreeStore } from '../model/store.js';
import type { ResolvedOptions } from '../options/options.js';
import type { Candidate } from '../split/candidate.js';
import { CodeSortedRows, SMALL_NODE_ROWS } from '../split/code-sorted.js';
import { EntryPool } from '../split/entries.js';
import { FeatureEvaluator } from '../split/evaluate.js';
import { HistogramPool, subtractSiblings } from '../split/histogram-pool.js';
import { growNodes } from './best-first.js';
import { DepthFirstGrower } from './depth-first.js';
import { type Branches, type GrowEntry, rootGrowEntry } from './expand.js';
import { FeatureDraw } from './feature-draw.js';
import { growFractionalHistogram } from './grow-hist-fractional.js';
import { binAll, type HistLayout } from './hist-layout.js';
import { PartitionScratch, partitionByCode, partitionStable } from './partition.js';
import type { GrowMeter } from './progress.js';
import { type ChosenSplit, chooseSplit, heldSplit } from './split-policy.js';

/** A node waiting to be grown: rows[start..end) of the layout are its rows. */
export interface HistEntry extends GrowEntry {
  /** The node's class histograms, all features (null for a leaf or a small node). */
  hist: Float64Array | null;
  /**
   * A small node inside a small subtree: where that subtree's root starts in `rows`; its rows are
   * then in the grower's `CodeSortedRows`. Absent (or −1): not sorted yet.
   */
  sortedAt?: number;
  /** Best-first growth: `sortGen` when the node's split was found (its sorted rows may since be gone). */
  sortedGen?: number;
}

/**
 * Histogram mode (LightGBM-style): numeric features are quantised once into at most `opts.bins`
 * bins; every node keeps one class histogram per feature, built from its rows for all children but
 * the largest, whose histogram is the parent's minus its siblings'. A split is scanned over bins,
 * not rows, with the same criteria, candidates and selector as exact mode. Subtrees touch
 * disjoint row slices, so several growers (worker threads) can grow different subtrees at once.
 */
export class HistGrower extends DepthFirstGrower<HistEntry, ChosenSplit> {
  readonly d: number;
  readonly k: number;
  readonly stride: number;
  readonly nBins: number[];
  readonly offset: Int32Array;
  readonly histSize: number;
  protected readonly y: Int32Array;
  protected readonly weights: Float64Array;
  protected readonly evaluator: FeatureEvaluator;
  protected readonly cands: Candidate[];
  /** The features each node considers (`maxFeatures`). */
  protected readonly draw: FeatureDraw;
  protected readonly work: PartitionScratch;
  /** The split feature's code → branch table. */
  private readonly codeBranch: Int32Array;
  /** The current small subtree's rows sorted by bin code (see `CodeSortedRows`). */
  protected readonly sorted = new CodeSortedRows();
  /** Where the current node's small subtree starts in `rows` (−1: the node has a histogram). */
  private sortedAt = -1;
  /** Counts the sorts of `sorted`: rows sorted under an older count are gone (best-first growth). */
  private sortGen = 0;
  /** The current node's children's histograms (null: none). */
  private childHist: (Float64Array | null)[] = [];
  /** Histograms no node holds any more, for `buildHist` to reuse. */
  private readonly pool: HistogramPool;
  /**
   * Where the subtree being grown starts in `rows` when the partition scratch is shorter than the
   * rows (a worker's, as long as its largest task): the scratch is indexed from there.
   */
  protected base = 0;

  /** Whether nodes keep every feature's histogram for their children (`DrawnHistGrower` does not). */
  protected readonly keepsHistograms: boolean = true;

  /** `scratchRows`: the most rows one partition handles (default all: the grower splits the root). */
  constructor(
    readonly features: Column[],
    readonly layout: HistLayout,
    labels: Int32Array,
    weights: Float64Array,
    classes: number,
    readonly opts: ResolvedOptions,
    scratchRows = labels.length,
  ) {
    super();
    const d = (this.d = features.length);
    const k = (this.k = classes);
    this.stride = k + 1;
    this.y = labels;
    this.weights = weights;
    const n = labels.length;
    this.nBins = features.map((col, f) => (col.kind === 'numeric' ? layout.binned[f]!.bins : col.categories.length));
    this.offset = new Int32Array(d);
    let histSize = 0;
    this.nBins.forEach((b, f) => {
      this.offset[f] = histSize;
      histSize += (b + 1) * this.stride;
    });
    this.histSize = histSize;
    this.pool = new HistogramPool(histSize);
    // No clones in histogram mode: the pool reads the labels and weights in place. Its row map
    // (entry i = row i) is read only by the row scan of categorical features.
    const identity = new Int32Array(features.some((col) => col.kind === 'categorical') ? n : 0);
    for (let i = 0; i < identity.length; i++) identity[i] = i;
    this.evaluator = new FeatureEvaluator(features, EntryPool.over(identity, labels, weights), k, opts);
    const maxBranches = this.evaluator.maxBranches;
    this.cands = features.map(() => this.evaluator.newCandidate());
    this.draw = new FeatureDraw(d, opts.maxFeatures);
    this.work = new PartitionScratch(layout.branchOf, new Int32Array(scratchRows), new Uint8Array(0), maxBranches);
    let widest = maxBranches;
    for (const b of this.nBins) if (b > widest) widest = b;
    this.codeBranch = new Int32Array(widest + 1);
  }

  /** A node this small is scanned from its sorted rows, and needs no histogram (nor do its children). */
  small(rows: number): boolean {
    return rows < SMALL_NODE_ROWS && rows * Math.log2(rows + 2) < 2 * this.opts.bins! * this.stride;
  }

  /** Histogram of rows[start..end): per feature, per bin, class weights and the row count. */
  buildHist(start: number, end: number): Float64Array {
    const { d, k, stride, offset, y, weights } = this;
    const { rows, codes } = this.layout;
    const h = this.pool.take();
    for (let i = start; i < end; i++) {
      const r = rows[i];
      const c = y[r];
      const w = weights[r];
      const base = r * d;
      for (let f = 0; f < d; f++) {
        const o = offset[f] + codes[base + f] * stride;
        h[o + c] += w;
        h[o + k] += 1;
      }
    }
    return h;
  }

  /** A deferred subtree may be grown after other small subtrees reused the buffers: it sorts anew. */
  override subtreeSteps(entry: HistEntry): Generator<void, TreeStore> {
    const room = this.work.ids.length;
    if (room < this.layout.rows.length) {
      if (entry.end - entry.start > room) throw new Error('a subtree larger than the partition scratch');
      this.base = entry.start;
    }
    return super.subtreeSteps({ ...entry, sortedAt: -1 });
  }

  /** The root's entry, over the layout's rows (its histogram built unless it is a leaf or small). */
  rootEntry(): HistEntry {
    const { rows } = this.layout;
    const n = rows.length;
    const totals = new Float64Array(this.k);
    for (let i = 0; i < n; i++) totals[this.y[rows[i]]] += this.weights[rows[i]];
    const entry = rootGrowEntry(n, totals, this.opts, 0, this.opts.seed) as HistEntry;
    entry.hist = entry.leaf || this.small(n) || !this.keepsHistograms ? null : this.buildHist(0, n);
    entry.sortedAt = -1;
    return entry;
  }

  /**
   * Every feature's best split from the node's histogram, or, for a small node (no histogram),
   * from its rows sorted by bin code (sorted here when the node is a small subtree's root).
   */
  findSplit(entry: HistEntry): ChosenSplit | null {
    const { start, end, hist, excluded } = entry;
    const { d, evaluator, cands, offset, sorted } = this;
    const { binned, codes, rows } = this.layout;
    let sortedAt = entry.sortedAt ?? -1;
    if (!hist && sortedAt < 0) {
      sortedAt = start;
      sorted.sortNode(codes, binned, rows, start, end);
      this.sortGen++;
    }
    this.sortedAt = hist ? -1 : sortedAt;
    evaluator.enterNode(entry.totals);
    const scan = (f: number): void => {
      const cand = cands[f];
      const bf = binned[f];
      if (excluded.includes(f)) cand.reset(f, 'numeric');
      else if (hist) evaluator.fromHistogram(f, bf, hist, offset[f], cand);
      else if (bf) evaluator.fromSortedCodes(f, bf, sorted, start - sortedAt, end - start, cand);
      else evaluator.fromRows(f, rows, start, end, cand);
    };
    if (this.draw.active)
      return chooseSplit(
        this.draw.draw(entry.seed, cands, scan),
        this.opts,
        evaluator.view,
        evaluator.nodeShare(entry.totals),
      );
    for (let f = 0; f < d; f++) scan(f);
    return chooseSplit(cands, this.opts, evaluator.view, evaluator.nodeShare(entry.totals));
  }

  override hold(entry: HistEntry, chosen: ChosenSplit): ChosenSplit {
    entry.sortedAt = this.sortedAt;
    entry.sortedGen = this.sortGen;
    return heldSplit(chosen, this.evaluator.newCandidate());
  }

  /** The node's sorted rows back in place for `partition` (sorted anew when another subtree's replaced them). */
  override resume(entry: HistEntry, _chosen: ChosenSplit): void {
    if (entry.hist) {
      this.sortedAt = -1;
      return;
    }
    if (entry.sortedGen !== this.sortGen) {
      this.sorted.sortNode(this.layout.codes, this.layout.binned, this.layout.rows, entry.start, entry.end);
      this.sortGen++;
      entry.sortedAt = entry.start;
    }
    this.sortedAt = entry.sortedAt ?? -1;
  }

  override keepLeaf(entry: HistEntry): void {
    this.pool.give(entry.hist);
  }

  /** Every row's branch, from the split feature's code → branch table. */
  assign(entry: HistEntry, chosen: ChosenSplit, into: Branches): void {
    const { d, y, weights, codeBranch } = this;
    const { codes, rows, branchOf } = this.layout;
    const { split, missingBranch } = chosen;
    const { sizes, totals } = into;
    const f = split.feature;
    const missingCode = this.nBins[f];
    if (split.kind === 'numeric') {
      // Bins are in value order: bin ≤ the split's last left bin goes left as a value ≤ the threshold does.
      const cut = [chosen.best.splitBin];
      for (let b = 0; b < missingCode; b++) codeBranch[b] = numericBranch(cut, b);
    } else categoryBranches(split, missingCode, codeBranch);
    codeBranch[missingCode] = missingBranch;
    for (let i = entry.start; i < entry.end; i++) {
      const r = rows[i];
      let b = codeBranch[codes[r * d + f]];
      if (b < 0) b = missingBranch;
      branchOf[r] = b;
      sizes[b]++;
      totals[b][y[r]] += weights[r];
    }
  }

  /**
   * Partition the rows (and a small subtree's code-sorted rows) unless every child is a leaf;
   * make the children's histograms: every one from its rows except the largest one's, which is
   * the parent's minus the others' (the subtraction trick), when it is needed at all.
   */
  partition(entry: HistEntry, _chosen: ChosenSplit, branches: Branches, leaf: readonly boolean[]): number {
    const { start, end, hist } = entry;
    const { d, sorted, sortedAt, work } = this;
    const { count, sizes } = branches;
    const { binned, rows } = this.layout;
    const childHist: (Float64Array | null)[] = new Array(count).fill(null);
    this.childHist = childHist;
    if (leaf.some((l) => !l)) {
      const { base } = this;
      partitionStable(base ? rows.subarray(base) : rows, start - base, end - base, branches, work);
      if (!hist) {
        for (let g = 0; g < d; g++)
          if (binned[g]) partitionByCode(sorted, g * sorted.cap + start - sortedAt, end - start, branches, work);
      }
    }
    const needs = (b: number) => !leaf[b] && !this.small(sizes[b]);
    const largest = argMax(sizes, count);
    if (hist && leaf.some((_, b) => needs(b))) {
      let at = start;
      for (let b = 0; b < count; b++) {
        if (b !== largest && (needs(b) || needs(largest))) childHist[b] = this.buildHist(at, at + sizes[b]);
        at += sizes[b];
      }
      if (needs(largest)) {
        // childHist[largest] is still null: the parent's minus every other child's.
        subtractSiblings(hist, childHist);
        childHist[largest] = hist;
      }
    }
    if (hist && !childHist.includes(hist)) this.pool.give(hist);
    childHist.forEach((h, b) => leaf[b] && this.pool.give(h));
    return start;
  }

  child(_parent: HistEntry, b: number, base: GrowEntry): HistEntry {
    const entry = base as HistEntry;
    entry.hist = base.leaf ? null : this.childHist[b];
    entry.sortedAt = this.sortedAt;
    return entry;
  }
}

/** Grow a tree in histogram mode on one thread (src/learn/threads/parallel-grow.ts has the threaded one). */
export function growTreeHistogram(
  data: Dataset,
  opts: ResolvedOptions,
  weights: Float64Array,
  meter?: GrowMeter,
): TreeStore {
  // A row in several nodes at once: entries with their own weights (grow-hist-fractional.ts).
  if (opts.missing === 'fractional' && hasMissing(data)) return growFractionalHistogram(data, opts, weights, meter);
  const { grower } = histStart(data, opts, weights);
  grower.meter = meter;
  const nodes = TreeStore.root(data.classes.length);
  return growNodes(grower, nodes, grower.rootEntry(), opts.maxLeafNodes, opts.criterionImpl);
}

/** A histogram-mode grow on one thread, ready to start: its options checked, its layout binned, its grower. */
export function histStart(
  data: Dataset,
  opts: ResolvedOptions,
  weights: Float64Array,
): { layout: HistLayout; grower: HistGrower } {
  checkHistogramOptions(opts, data);
  const layout = binAll(data, opts.bins!);
  return { layout, grower: new HistGrower(data.features, layout, data.labels, weights, data.classes.length, opts) };
}

/**
 * `HistGrower` keeps one node a row: C4.5's fractional policy, which sends a row with a missing
 * value down every branch, is refused on data with missing values (without any it changes nothing);
 * `growTreeHistogram` grows such a fit with `FractionalHistGrower` instead.
 */
export function checkHistogramOptions(opts: ResolvedOptions, data: Dataset): void {
  if (opts.missing === 'fractional' && hasMissing(data))
    throw new GroveError(
      "histogram mode (bins) supports missing: 'majority' or 'learned', not 'fractional', on data with missing values",
    );
}
