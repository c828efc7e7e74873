/**
 * Histogram mode under C4.5's fractional missing values, on data with missing values: a row whose
 * split value is missing goes down every branch with its weight times the branch's share, so a
 * row is in several nodes at once with a weight in each. The entries of a node (a row and its
 * weight there) are a slice of buffers made by its parent's split; every node's histogram is built
 * from its entries (no sibling subtraction: the children of a split with missing values hold more
 * entries than their parent). The in-database grower grows the same tree (src/engines/).
 */

import type { Column, Dataset } from '../data/dataset.js';
import { TreeStore } from '../model/store.js';
import type { ResolvedOptions } from '../options/options.js';
import type { Candidate } from '../split/candidate.js';
import { EntryPool } from '../split/entries.js';
import { FeatureEvaluator } from '../split/evaluate.js';
import { growNodes } from './best-first.js';
import { DepthFirstGrower } from './depth-first.js';
import { type Branches, type GrowEntry, rootGrowEntry } from './expand.js';
import { FeatureDraw } from './feature-draw.js';
import { assignFromHistogram, codeBranches, missingShares } from './hist-branches.js';
import { binAll, type HistLayout } from './hist-layout.js';
import type { GrowMeter } from './progress.js';
import { type ChosenSplit, chooseSplit, heldSplit } from './split-policy.js';

/** A node's entries: positions [start, end) of `rows` (row ids) and `weights` (each entry's weight). */
interface EntryBuffers {
  rows: Int32Array;
  weights: Float64Array;
}

interface FractionalEntry extends GrowEntry {
  buf: EntryBuffers;
}

/** Grows histogram mode's tree with rows spread over every branch where their split value is missing. */
export class FractionalHistGrower extends DepthFirstGrower<FractionalEntry, ChosenSplit> {
  readonly d: number;
  readonly k: number;
  private readonly stride: number;
  private readonly nBins: number[];
  private readonly offset: Int32Array;
  /** The histogram of the node being expanded (one node at a time). */
  private readonly hist: Float64Array;
  private readonly evaluator: FeatureEvaluator;
  private readonly cands: Candidate[];
  private readonly draw: FeatureDraw;
  private readonly codeBranch: Int32Array;
  /** The buffers of the last split's children. */
  private childBuf: EntryBuffers | null = null;

  constructor(
    features: Column[],
    private readonly layout: HistLayout,
    private readonly labels: Int32Array,
    classes: number,
    readonly opts: ResolvedOptions,
  ) {
    super();
    const d = (this.d = features.length);
    const k = (this.k = classes);
    this.stride = k + 1;
    this.nBins = features.map((col, f) => (col.kind === 'numeric' ? layout.binned[f]!.bins : col.categories.length));
    this.offset = new Int32Array(d);
    let size = 0;
    this.nBins.forEach((b, f) => {
      this.offset[f] = size;
      size += (b + 1) * this.stride;
    });
    this.hist = new Float64Array(size);
    // Histograms only: the evaluator reads no rows.
    const none = new Int32Array(0);
    this.evaluator = new FeatureEvaluator(features, EntryPool.over(none, none, new Float64Array(0)), k, opts);
    this.cands = features.map(() => this.evaluator.newCandidate());
    this.draw = new FeatureDraw(d, opts.maxFeatures);
    let widest = this.evaluator.maxBranches;
    for (const b of this.nBins) if (b > widest) widest = b;
    this.codeBranch = new Int32Array(widest + 1);
  }

  /** The root's entry: every row, with its weight. */
  rootEntry(weights: Float64Array): FractionalEntry {
    const n = this.labels.length;
    const rows = new Int32Array(n);
    const totals = new Float64Array(this.k);
    for (let i = 0; i < n; i++) {
      rows[i] = i;
      totals[this.labels[i]] += weights[i];
    }
    const entry = rootGrowEntry(n, totals, this.opts, 0, this.opts.seed) as FractionalEntry;
    entry.buf = { rows, weights: weights.slice() };
    return entry;
  }

  /** The histogram of `entry`'s entries: per feature, per code, class weights and the entries. */
  private buildHist(entry: FractionalEntry): Float64Array {
    const { d, k, stride, offset, labels, hist } = this;
    const { codes } = this.layout;
    const { rows, weights } = entry.buf;
    hist.fill(0);
    for (let i = entry.start; i < entry.end; i++) {
      const r = rows[i];
      const c = labels[r];
      const w = weights[i];
      const base = r * d;
      for (let f = 0; f < d; f++) {
        const o = offset[f] + codes[base + f] * stride;
        hist[o + c] += w;
        hist[o + k] += 1;
      }
    }
    return hist;
  }

  findSplit(entry: FractionalEntry): ChosenSplit | null {
    const { evaluator, cands, offset } = this;
    const { binned } = this.layout;
    const hist = this.buildHist(entry);
    evaluator.enterNode(entry.totals);
    const scan = (f: number): void => {
      if (entry.excluded.includes(f)) cands[f].reset(f, 'numeric');
      else evaluator.fromHistogram(f, binned[f], hist, offset[f], cands[f]);
    };
    const share = evaluator.nodeShare(entry.totals);
    if (this.draw.active) return chooseSplit(this.draw.draw(entry.seed, cands, scan), this.opts, evaluator.view, share);
    for (let f = 0; f < this.d; f++) scan(f);
    return chooseSplit(cands, this.opts, evaluator.view, share);
  }

  override hold(_entry: FractionalEntry, chosen: ChosenSplit): ChosenSplit {
    return heldSplit(chosen, this.evaluator.newCandidate());
  }

  /** Best-first growth: the node's histogram again (other nodes' searches used the buffer since). */
  override resume(entry: FractionalEntry, _chosen: ChosenSplit): void {
    this.buildHist(entry);
  }

  assign(_entry: FractionalEntry, chosen: ChosenSplit, into: Branches): void {
    const f = chosen.split.feature;
    const table = codeBranches(chosen, this.nBins[f], this.codeBranch);
    assignFromHistogram(this.hist, this.offset[f], this.k, this.nBins[f], table, chosen, into);
  }

  /**
   * The children's entries in fresh buffers, branch after branch (an entry whose split value is
   * missing in every branch, weighted by the branch's share), unless every child is a leaf.
   */
  partition(entry: FractionalEntry, chosen: ChosenSplit, branches: Branches, leaf: readonly boolean[]): number {
    this.childBuf = entry.buf;
    if (leaf.every((l) => l)) return entry.start;
    const { count, sizes } = branches;
    let total = 0;
    const at = new Int32Array(count);
    for (let b = 0; b < count; b++) {
      at[b] = total;
      total += sizes[b];
    }
    const out: EntryBuffers = { rows: new Int32Array(total), weights: new Float64Array(total) };
    const f = chosen.split.feature;
    const table = this.codeBranch;
    const shares = branches.everyBranch > 0 ? missingShares(chosen) : null;
    const { codes } = this.layout;
    const { rows, weights } = entry.buf;
    for (let i = entry.start; i < entry.end; i++) {
      const r = rows[i];
      const b = table[codes[r * this.d + f]];
      if (b >= 0) {
        out.rows[at[b]] = r;
        out.weights[at[b]++] = weights[i];
        continue;
      }
      for (let c = 0; c < count; c++) {
        out.rows[at[c]] = r;
        out.weights[at[c]++] = weights[i] * shares![c];
      }
    }
    this.childBuf = out;
    return 0;
  }

  child(_parent: FractionalEntry, _b: number, base: GrowEntry): FractionalEntry {
    const entry = base as FractionalEntry;
    entry.buf = this.childBuf!;
    return entry;
  }
}

/** Grow histogram mode's tree on data with missing values under the fractional policy (one thread). */
export function growFractionalHistogram(
  data: Dataset,
  opts: ResolvedOptions,
  weights: Float64Array,
  meter?: GrowMeter,
): TreeStore {
  const layout = binAll(data, opts.bins!);
  const grower = new FractionalHistGrower(data.features, layout, data.labels, data.classes.length, opts);
  grower.meter = meter;
  return growNodes(
    grower,
    TreeStore.root(data.classes.length),
    grower.rootEntry(weights),
    opts.maxLeafNodes,
    opts.criterionImpl,
  );
}
