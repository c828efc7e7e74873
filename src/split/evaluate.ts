import { getCriterion } from '../criteria/registry.js';
import { createTable } from '../criteria/table.js';
import type { CountTable } from '../criteria/types.js';
import type { Column, NumericColumn } from '../data/dataset.js';
import type { ResolvedOptions } from '../options/options.js';
import { beats, Candidate, J48_SMALL } from './candidate.js';
import { CategoryCounts, fillFromHistogram, scanMultiway, scanRandomSubset, scanSubsets } from './categorical.js';
import { type CodeSortedRows, scanSortedCodes } from './code-sorted.js';
import { type NodeBuffers, type NodeRange, ScanContext } from './context.js';
import type { EntryPool } from './entries.js';
import { Finalizer } from './finalize.js';
import { type BinnedFeature, scanHistogram } from './histogram.js';
import { scanNumeric } from './numeric.js';
import { scanNumericJ48 } from './numeric-j48.js';
import { type RankBins, scanGiniRanks, scanGiniSorted } from './numeric-node-sort.js';
import { featureRandom, scanNumericRandom } from './numeric-random.js';

/**
 * Finds the best split of one feature at one node: runs the right scanner over whatever the
 * grower holds for the node (rows and sorted slices, a class histogram, rows sorted by bin code),
 * then scores the result with the main criterion (`Finalizer`). The one scanner setup of every
 * grower and of `grove score`: buffers are sized once, for the largest dictionary, and reused.
 */
export class FeatureEvaluator {
  readonly ctx: ScanContext;
  /** Scratch for the chi-square pre-pruning test (`chooseSplit`). */
  readonly view: CountTable;
  private readonly cc: CategoryCounts;
  private readonly combo: Int32Array;
  private readonly finalizer: Finalizer;
  private readonly multiway: boolean;
  /** Extra trees (`splitter: 'random'`): one random threshold per numeric feature and node. */
  private readonly randomThresholds: boolean;
  /** The fit's total weight, when an option needs it (else 0). */
  private totalWeight = 0;
  /** Class totals of the node the scan context numbered its classes for (`evaluate`). */
  private entered: Float64Array | null = null;

  constructor(
    readonly features: Column[],
    pool: EntryPool,
    readonly classes: number,
    readonly opts: ResolvedOptions,
  ) {
    const maxCategories = features.reduce(
      (m, c) => (c.kind === 'categorical' ? Math.max(m, c.categories.length) : m),
      2,
    );
    const scanCriterion = opts.thresholdCriterion ? getCriterion(opts.thresholdCriterion) : opts.criterionImpl;
    this.ctx = new ScanContext(pool, classes, scanCriterion, opts.minSamplesLeaf, opts.missing, maxCategories);
    if (opts.minWeightFractionLeaf > 0 || opts.minImpurityDecrease > 0) {
      // The fit's total weight: the pool's entries before any clone (clones split a row's weight).
      let total = 0;
      for (let e = 0; e < pool.weight.length; e++) total += pool.weight[e];
      this.totalWeight = total;
      this.ctx.minWeightLeaf = opts.minWeightFractionLeaf * total;
    }
    this.view = createTable(maxCategories, classes);
    this.cc = new CategoryCounts(maxCategories, classes);
    this.combo = new Int32Array(maxCategories);
    this.ctx.j48 = opts.j48Rules;
    this.finalizer = new Finalizer(
      opts.criterionImpl,
      opts.missing,
      opts.mdlCorrection,
      opts.averageGainRule || opts.j48Rules,
      maxCategories,
      classes,
      opts.j48Rules ? j48AverageMembers(features) : null,
    );
    this.multiway = opts.categoricalSplit === 'multiway';
    this.randomThresholds = opts.splitter === 'random';
  }

  /**
   * A node's share of the fit's total weight (N_t / N) from its class totals, for
   * `minImpurityDecrease`; 1 when that option is off (it is then not needed).
   */
  nodeShare(totals: ArrayLike<number>): number {
    if (this.totalWeight <= 0) return 1;
    let w = 0;
    for (let c = 0; c < totals.length; c++) w += totals[c];
    return w / this.totalWeight;
  }

  /**
   * The training rows, for J48's average-gain rule, where the columns hold no values (a database's
   * grower, which knows them once the root is counted): that rule reads how many there are.
   */
  countRows(rows: number): void {
    this.finalizer.j48Average?.set(j48AverageMembers(this.features, rows));
  }

  /** Most branches a split can have here (the largest dictionary, at least 2). */
  get maxBranches(): number {
    return this.ctx.maxBranches;
  }

  /** A Candidate sized for this data (one per feature, reused across nodes). */
  newCandidate(): Candidate {
    return new Candidate(this.ctx.maxBranches, this.classes);
  }

  /**
   * Best split of feature `f` at `node`, whose entries are positions [start, end) of `buf`. The
   * scans number the node's classes densely (`ScanContext.enterNode`) when `node.totals` is not
   * the array of the node last seen: every node of a grower has its own totals array.
   */
  evaluate(f: number, buf: NodeBuffers, node: NodeRange, out: Candidate): void {
    const col = this.features[f];
    this.enterNode(node.totals);
    const { ctx } = this;
    if (col.kind !== 'numeric') this.categoricalFromRows(f, buf.ids, node.start, node.end, out, node.seed);
    else if (this.randomThresholds)
      scanNumericRandom(ctx, f, col.values, buf.sorted[f]!, node.start, node.end, ctx.nodeTotals, node.seed ?? 0, out);
    else if (ctx.j48) scanNumericJ48(ctx, f, col.values, buf.sorted[f]!, node.start, node.end, ctx.nodeTotals, out);
    else scanNumeric(ctx, f, col.values, buf.sorted[f]!, node.start, node.end, ctx.nodeTotals, out);
    this.finalizer.finalize(out);
  }

  /**
   * Best split of numeric feature `f` at `node` under Gini (`scanGiniSorted`), from its rows
   * sorted by the per-node sorting grower: `samples[node.start, node.end)` in value order, the
   * values alongside in `xs`.
   */
  fromNodeSorted(f: number, xs: Float64Array, samples: Int32Array, node: NodeRange, out: Candidate): void {
    this.enterNode(node.totals);
    const values = (this.features[f] as NumericColumn).values;
    scanGiniSorted(this.ctx, f, values, xs, samples, node.start, node.end, this.ctx.nodeTotals, out);
    this.finalizer.finalize(out);
  }

  /**
   * As `fromNodeSorted`, from the node's `n` rows binned by their ranks of feature `f` in `bins`
   * (ranks [min, min + span), `distinct` the column's values by rank; `scanGiniRanks`), which it
   * leaves zero. The caller has entered the node (`enterNode`).
   */
  fromNodeRanks(
    f: number,
    distinct: Float64Array,
    n: number,
    min: number,
    span: number,
    bins: RankBins,
    out: Candidate,
  ): void {
    const { ctx } = this;
    scanGiniRanks(ctx, f, distinct, n, min, span, ctx.nodeTotals, bins, out);
    this.finalizer.finalize(out);
  }

  /**
   * Number the classes of weight > 0 in `totals` (the node's class weights) for the scans that
   * follow, unless this node was the last entered (every node of a grower has its own totals array).
   */
  enterNode(totals: Float64Array): void {
    if (totals === this.entered) return;
    this.ctx.enterNode(totals);
    this.entered = totals;
  }

  /** Forget the node last entered: the next `enterNode` numbers its classes whatever array it is given. */
  leaveNode(): void {
    this.entered = null;
  }

  /**
   * Best split of feature `f` from the node's class histogram (`hist[offset ..]`: per bin or
   * category, the class weights and the row count; missing values in the last bin); `binned` is
   * the feature's bins when it is numeric, null when it is categorical.
   */
  fromHistogram(f: number, binned: BinnedFeature | null, hist: Float64Array, offset: number, out: Candidate): void {
    if (binned) scanHistogram(this.ctx, f, binned, hist, offset, out);
    else {
      const col = this.features[f];
      this.resetCategorical(f, out);
      fillFromHistogram(this.ctx, this.cc, hist, offset, col.kind === 'categorical' ? col.categories.length : 0, out);
      this.scanCategories(out);
    }
    this.finalizer.finalize(out);
  }

  /**
   * Best split of numeric feature `f` of a small histogram-mode node from its `m` rows sorted by
   * bin code (`sorted`, from position `from` of the feature's block).
   */
  fromSortedCodes(
    f: number,
    binned: BinnedFeature,
    sorted: CodeSortedRows,
    from: number,
    m: number,
    out: Candidate,
  ): void {
    scanSortedCodes(this.ctx, f, binned, sorted, from, m, out);
    this.finalizer.finalize(out);
  }

  /** Best split of categorical feature `f` over the entries `ids[start..end)`. */
  fromRows(f: number, ids: Int32Array, start: number, end: number, out: Candidate): void {
    this.categoricalFromRows(f, ids, start, end, out);
    this.finalizer.finalize(out);
  }

  private categoricalFromRows(
    f: number,
    ids: Int32Array,
    start: number,
    end: number,
    out: Candidate,
    seed?: number,
  ): void {
    const col = this.features[f];
    this.resetCategorical(f, out);
    if (col.kind === 'categorical') this.cc.fill(this.ctx, col, ids, start, end, out);
    // Extra trees: a random subset of the node's values (binary splits; multiway has nothing to draw).
    if (this.randomThresholds && !this.multiway) scanRandomSubset(this.ctx, this.cc, featureRandom(seed ?? 0, f), out);
    else this.scanCategories(out);
  }

  private resetCategorical(f: number, out: Candidate): void {
    out.reset(f, this.multiway ? 'multiway' : 'subset', this.ctx.k);
  }

  private scanCategories(out: Candidate): void {
    if (this.multiway) scanMultiway(this.ctx, this.cc, out);
    else scanSubsets(this.ctx, this.cc, this.opts.maxSubsetSize, this.combo, out);
  }
}

/**
 * Which features count toward J48's average gain (C45ModelSelection): all, unless a categorical
 * feature declares at least 0.3 · n values (n: the training rows) and some feature does not.
 */
function j48AverageMembers(features: Column[], n = features.length > 0 ? lengthOf(features[0]) : 0): Uint8Array {
  const many = (c: Column) => c.kind === 'categorical' && c.categories.length >= 0.3 * n;
  const every = features.every(many);
  return Uint8Array.from(features, (c) => (every || !many(c) ? 1 : 0));
}

function lengthOf(c: Column): number {
  return c.kind === 'categorical' ? c.codes.length : c.values.length;
}

/**
 * Weka J48's selector (C45ModelSelection.selectModel): the average information gain of the
 * candidates found whose feature counts toward it (`inAverage`); among candidates whose gain is at
 * least that average − 1e-3, the first of largest key (gain ratio) that beats the previous best,
 * and zero, by Weka's 1e-6. Null when none does: the node stays a leaf.
 */
export function selectJ48(cands: Candidate[]): Candidate | null {
  let sum = 0;
  let count = 0;
  for (const c of cands) {
    if (c.found && c.inAverage) {
      sum += c.gain;
      count++;
    }
  }
  if (count === 0) return null;
  const threshold = sum / count - 1e-3;
  let best: Candidate | null = null;
  let bestKey = 0;
  for (const c of cands) {
    if (!c.found || c.gain < threshold) continue;
    if (c.key - bestKey > J48_SMALL) {
      best = c;
      bestKey = c.key;
    }
  }
  return best;
}

/**
 * The selector: the candidate with the best key (first feature on a tie), or with C4.5's rule the
 * best key among candidates whose information gain is at least the average gain of all
 * candidates with non-negative gain (Quinlan 1993, release 8).
 */
export function selectCandidate(cands: Candidate[], averageGainRule: boolean): Candidate | null {
  let threshold = -Infinity;
  if (averageGainRule) {
    let sum = 0;
    let count = 0;
    for (const c of cands) {
      if (c.found && c.gain > -1e-9) {
        sum += c.gain;
        count++;
      }
    }
    if (count > 0) threshold = sum / count - 1e-9;
  }
  let best: Candidate | null = null;
  for (const c of cands) {
    if (!c.found || c.gain < threshold) continue;
    if (!best || beats(c.key, best.key)) best = c;
  }
  return best;
}
