import type { Column } from '../data/dataset.js';
import type { ResolvedOptions } from '../options/options.js';
import type { Branches, GrowEntry } from './expand.js';
import { type HistEntry, HistGrower } from './grow-hist.js';
import { assignFromHistogram, codeBranches } from './hist-branches.js';
import type { HistLayout } from './hist-layout.js';
import { partitionByTable, partitionStable } from './partition.js';
import { type ChosenSplit, chooseSplit, heldSplit } from './split-policy.js';

/**
 * Histogram mode when each node draws a few of the features (`maxFeatures`, a random forest's
 * sqrt(d)): a node builds the histogram of each feature it draws from its own rows, or, when it is
 * small, sorts its rows by that feature's code, and keeps nothing for its children. Every feature's
 * histogram with the subtraction trick (`HistGrower`) pays when a node scans every feature; here
 * it would build, zero and subtract d histograms to scan sqrt(d) of them, and partition every
 * feature's sorted rows below a small node where each node reads a few. Each feature's bins and
 * counts are the ones `HistGrower` has, so are the splits (ties in the same row order; class
 * weights summed in another order when they are not whole numbers). A node that built its
 * histograms takes its children's sizes and class weights from the split feature's, and routes
 * its rows by their codes in the partition itself.
 */
export class DrawnHistGrower extends HistGrower {
  protected override readonly keepsHistograms = false;
  /** Numbers of one feature's histogram: per code, k class weights and the row count. */
  private readonly slot: number;
  /** Feature f's histogram at f · slot, valid at the current node where `built[f]` is set. */
  private readonly hists: Float64Array;
  private readonly built: Uint8Array;
  /** The node whose histograms `hists` holds (null: none, or a small node). */
  private histNode: HistEntry | null = null;
  /** The split feature's code → branch table when `assign` read the histogram (null: it read the rows). */
  private routeTable: Int32Array | null = null;
  private readonly table: Int32Array;
  /** The features a node draws first, and the code offsets of those built in one pass. */
  private readonly firstDrawn: Int32Array;
  private readonly pass: Int32Array;

  constructor(
    features: Column[],
    layout: HistLayout,
    labels: Int32Array,
    weights: Float64Array,
    classes: number,
    opts: ResolvedOptions,
    scratchRows = labels.length,
  ) {
    super(features, layout, labels, weights, classes, opts, scratchRows);
    let widest = 0;
    for (const b of this.nBins) if (b > widest) widest = b;
    this.slot = (widest + 1) * this.stride;
    this.hists = new Float64Array(this.d * this.slot);
    this.built = new Uint8Array(this.d);
    this.firstDrawn = new Int32Array(this.d);
    this.pass = new Int32Array(this.d);
    this.table = new Int32Array(widest + 1);
  }

  /**
   * The histograms of `features` (minus `excluded`) over rows[start..end), in one pass over the
   * rows: each row's label, weight and codes are read once for all of them.
   */
  private buildHists(features: Int32Array, excluded: readonly number[], start: number, end: number): void {
    const { d, k, stride, slot, y, weights, hists: h, built, pass } = this;
    const { rows, codes } = this.layout;
    let n = 0;
    for (const f of features) {
      if (excluded.includes(f)) continue;
      h.fill(0, f * slot, f * slot + (this.nBins[f] + 1) * stride);
      built[f] = 1;
      pass[n++] = f;
    }
    for (let i = start; i < end; i++) {
      const r = rows[i];
      const c = y[r];
      const w = weights[r];
      const base = r * d;
      for (let j = 0; j < n; j++) {
        const f = pass[j];
        const o = f * slot + codes[base + f] * stride;
        h[o + c] += w;
        h[o + k] += 1;
      }
    }
  }

  /** Feature `f`'s histogram at the current node rows[start..end) (built now unless it was). */
  private featureHist(f: number, start: number, end: number): Float64Array {
    if (!this.built[f]) this.buildHists(Int32Array.of(f), [], start, end);
    return this.hists;
  }

  /** The drawn features' best split, each from its histogram or, at a small node, its sorted rows. */
  override findSplit(entry: HistEntry): ChosenSplit | null {
    const { start, end, excluded } = entry;
    const { d, evaluator, cands, sorted } = this;
    const { binned, codes, rows } = this.layout;
    const m = end - start;
    const small = this.small(m);
    if (small) sorted.reserve(m, d);
    this.histNode = small ? null : entry;
    if (!small) {
      this.built.fill(0);
      this.buildHists(this.draw.first(entry.seed, this.firstDrawn), excluded, start, end);
    }
    evaluator.enterNode(entry.totals);
    const scan = (f: number): void => {
      const cand = cands[f];
      const bf = binned[f];
      if (excluded.includes(f)) cand.reset(f, 'numeric');
      else if (!small) evaluator.fromHistogram(f, bf, this.featureHist(f, start, end), f * this.slot, cand);
      else if (bf) {
        sorted.sortFeature(codes, d, f, rows, start, end, this.nBins[f] + 1);
        evaluator.fromSortedCodes(f, bf, sorted, 0, m, cand);
      } else evaluator.fromRows(f, rows, start, end, cand);
    };
    const drawn = this.draw.draw(entry.seed, cands, scan);
    return chooseSplit(drawn, this.opts, evaluator.view, evaluator.nodeShare(entry.totals));
  }

  override hold(_entry: HistEntry, chosen: ChosenSplit): ChosenSplit {
    return heldSplit(chosen, this.evaluator.newCandidate());
  }

  override resume(_entry: HistEntry, _chosen: ChosenSplit): void {}

  /**
   * The children's sizes and class weights from the split feature's histogram when the node just
   * built it (its rows are then routed by `partition`); from the rows otherwise.
   */
  override assign(entry: HistEntry, chosen: ChosenSplit, into: Branches): void {
    const f = chosen.split.feature;
    this.routeTable = null;
    if (entry !== this.histNode || !this.built[f]) {
      super.assign(entry, chosen, into);
      return;
    }
    const table = codeBranches(chosen, this.nBins[f], this.table);
    assignFromHistogram(this.hists, f * this.slot, this.k, this.nBins[f], table, chosen, into);
    this.routeTable = table;
  }

  /** The rows partitioned by branch (unless every child is a leaf); no histograms to hand down. */
  override partition(entry: HistEntry, chosen: ChosenSplit, branches: Branches, leaf: readonly boolean[]): number {
    const { start, end } = entry;
    const { base, routeTable, work } = this;
    const { rows, codes } = this.layout;
    if (leaf.every((l) => l)) return start;
    const slice = base ? rows.subarray(base) : rows;
    if (routeTable)
      partitionByTable(
        slice,
        start - base,
        end - base,
        branches,
        work,
        codes,
        this.d,
        chosen.split.feature,
        routeTable,
      );
    else partitionStable(slice, start - base, end - base, branches, work);
    return start;
  }

  override child(_parent: HistEntry, _b: number, base: GrowEntry): HistEntry {
    const entry = base as HistEntry;
    entry.hist = null;
    return entry;
  }
}
