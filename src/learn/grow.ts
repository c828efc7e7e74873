import { plainArrays } from '../core/arrays.js';
import type { Column, Dataset, NumericValues } from '../data/dataset.js';
import { categoryBranch, categoryBranches, NO_BRANCH, numericBranch } from '../model/route.js';
import { TreeStore } from '../model/store.js';
import type { ResolvedOptions } from '../options/options.js';
import { argsortNumeric } from '../split/argsort.js';
import type { Candidate } from '../split/candidate.js';
import type { NodeBuffers } from '../split/context.js';
import { EntryPool } from '../split/entries.js';
import { FeatureEvaluator } from '../split/evaluate.js';
import { ENTRY, labelCodes, type SortedSlice } from '../split/sorted-slice.js';
import { growNodes } from './best-first.js';
import { DepthFirstGrower } from './depth-first.js';
import { type Branches, type GrowEntry, rootGrowEntry } from './expand.js';
import { FeatureDraw } from './feature-draw.js';
import { growTreeHistogram } from './grow-hist.js';
import { growNodeSort } from './grow-node-sort.js';
import { missingShares } from './hist-branches.js';
import { type LazyEntry, LazySlices } from './lazy-slices.js';
import { nodeSortApplies } from './node-sort-applies.js';
import {
  type BranchSizes,
  PartitionScratch,
  partitionSorted,
  partitionStable,
  partitionWithClones,
} from './partition.js';
import { presort, type RowScratch, rowScratch } from './presort.js';
import { type GrowMeter, type GrowProgress, metered } from './progress.js';
import { type ChosenSplit, chooseSplit, heldSplit, type StopOptions } from './split-policy.js';

export { presort, type RowScratch, rowScratch, sortInto } from './presort.js';
export { argsortNumeric };

/**
 * Entry-id arrays a node's slice lives in: any order (`ids`), and sorted per numeric feature
 * (src/split/sorted-slice.ts).
 */
export type Buffers = NodeBuffers;

/** A node waiting to be grown: the slice [start, end) of `buf` holds its entries. */
export interface StackEntry extends GrowEntry {
  buf: Buffers;
  /** Lazy partitioning's numbering and slice sources (lazy-slices.ts), when it is on. */
  serial?: number;
  source?: Int32Array;
}

/** The root's stack entry over `buf`, with the weighted class totals of every entry. */
export function rootEntry(buf: Buffers, pool: EntryPool, k: number, opts: StopOptions & { seed?: number }): StackEntry {
  const totals = new Float64Array(k);
  for (let e = 0; e < pool.size; e++) totals[pool.label[e]] += pool.weight[e];
  const root = rootGrowEntry(pool.size, totals, opts, 0, opts.seed) as StackEntry;
  root.buf = buf;
  return root;
}

/** Shares the work of one big node among threads (src/learn/threads/parallel-grow.ts). */
export interface NodeTeam {
  /** Evaluate every feature of `entry` into `cands`, or return false: this thread does it alone. */
  evaluate(entry: StackEntry, cands: Candidate[]): boolean;
  /**
   * Start partitioning `entry`'s sorted slices by the grower's `branchOf` (the other threads' share
   * and this thread's), or return false: this thread does it alone. `finishPartition` waits for the rest.
   */
  partition(entry: StackEntry, branches: BranchSizes): boolean;
  finishPartition(): void;
}

/** The codes of a numeric split feature: none (its branches come from the sorted slice). */
const NO_CODES = new Int32Array(0);

/**
 * Grows nodes depth-first over the shared layout (Zaki's DECISIONTREE(D, η, π) with the stopping
 * rules of `opts`).
 *
 * Layout: entry ids (rows, or clones of rows under C4.5's fractional policy) in one array per node
 * buffer and, per numeric feature, the same entries sorted by that feature. A node is the same
 * slice [start, end) of all of them. A split partitions every slice stably, so each numeric slice
 * stays sorted and nothing is re-sorted below the root. Only a split that clones entries (fractional
 * missing values) gives its children fresh buffers. Subtrees touch disjoint slices and entries, so
 * several growers (worker threads) can grow different subtrees of one layout at once.
 */
export class NodeGrower extends DepthFirstGrower<StackEntry, ChosenSplit> {
  readonly k: number;
  readonly evaluator: FeatureEvaluator;
  readonly cands: Candidate[];
  /** The split's category → branch table (categorical splits). */
  private readonly codeBranch: Int32Array;
  readonly work: PartitionScratch;
  /** The children's buffers: the node's own, or fresh ones after a split that cloned entries. */
  private childBuf: Buffers | null = null;
  /** Threads that share the work of big nodes (the parallel grower's main thread sets it). */
  team?: NodeTeam;
  /** The features each node considers (`maxFeatures`). */
  private readonly draw: FeatureDraw;
  /** Lazy partitioning of the sorted slices (`lazyFrom`), or none: every split partitions all. */
  private lazy: LazySlices | null = null;
  /** Whether one-thread exact growth with drawn features partitions lazily (tests compare both ways). */
  static lazySlices = true;

  constructor(
    readonly features: Column[],
    readonly pool: EntryPool,
    classes: number,
    readonly opts: ResolvedOptions,
    scratch: RowScratch,
  ) {
    super();
    this.k = classes;
    this.evaluator = new FeatureEvaluator(features, pool, classes, opts);
    this.evaluator.ctx.unitWeights = pool.weight.every((w) => w === 1);
    this.cands = features.map(() => this.evaluator.newCandidate());
    this.draw = new FeatureDraw(features.length, opts.maxFeatures);
    const maxBranches = this.evaluator.maxBranches;
    this.codeBranch = new Int32Array(maxBranches);
    const { branchOf, scratchI } = scratch;
    this.work = new PartitionScratch(
      branchOf,
      scratchI,
      labelCodes(plainArrays, scratchI.length, classes),
      maxBranches,
    );
  }

  /**
   * Partition lazily from `root` on (lazy-slices.ts): when nodes draw a few of the features and
   * this grower alone works on one layout without cloning entries (one thread, depth-first, no
   * fractional missing values). Otherwise nothing changes.
   */
  lazyFrom(root: StackEntry): void {
    if (!NodeGrower.lazySlices || !this.draw.active || this.team || this.opts.maxLeafNodes !== undefined) return;
    if (this.opts.missing === 'fractional') return;
    this.lazy = new LazySlices(this.pool.size, this.features.length);
    this.lazy.root(root);
  }

  /** The best split of feature `f` at `entry`'s node into `out` (an excluded feature gets none). */
  evaluateFeature(f: number, entry: StackEntry, out: Candidate): void {
    if (entry.excluded.includes(f)) {
      out.reset(f, 'numeric');
      return;
    }
    const sl = this.lazy ? entry.buf.sorted[f] : null;
    if (sl) this.lazy!.prepare(entry as StackEntry & LazyEntry, f, sl, this.work);
    this.evaluator.evaluate(f, entry.buf, entry, out);
  }

  /**
   * Partition numeric feature `f`'s sorted slice of `entry` by `branchOf` (stable; nothing for a categorical
   * feature).
   */
  partitionFeature(f: number, entry: StackEntry, branches: BranchSizes): void {
    const sl = entry.buf.sorted[f];
    if (sl) partitionSorted(sl, entry.start, entry.end, branches, this.work);
  }

  findSplit(entry: StackEntry): ChosenSplit | null {
    const { features, cands, draw } = this;
    const shared = this.team?.evaluate(entry, cands) ?? false;
    if (draw.active) {
      const drawn = draw.draw(entry.seed, cands, shared ? null : (f) => this.evaluateFeature(f, entry, cands[f]));
      return chooseSplit(drawn, this.opts, this.evaluator.view, this.evaluator.nodeShare(entry.totals));
    }
    if (!shared) for (let f = 0; f < features.length; f++) this.evaluateFeature(f, entry, cands[f]);
    return chooseSplit(cands, this.opts, this.evaluator.view, this.evaluator.nodeShare(entry.totals));
  }

  override hold(_entry: StackEntry, chosen: ChosenSplit): ChosenSplit {
    return heldSplit(chosen, this.evaluator.newCandidate());
  }

  /**
   * Every entry's branch (-1: a missing value under the fractional policy, then cloned into every
   * branch), with the children's sizes and class totals.
   */
  assign(entry: StackEntry, chosen: ChosenSplit, into: Branches): void {
    const { buf, start, end } = entry;
    const { split, missingBranch } = chosen;
    const { sizes, totals } = into;
    const { row, label: y, weight: w } = this.pool;
    const branchOf = this.work.branchOf;
    const col = this.features[split.feature];
    // A numeric split walks the feature's sorted slice, [branch 0][branch 1][missing]: the two cuts
    // come from reading values (the missing tail, a binary search). A categorical split walks the
    // ids and looks each code up in the split's branch table.
    const sorted = split.kind === 'numeric' ? buf.sorted[split.feature] : null;
    const walk = sorted ? sorted.order : buf.ids;
    const table = split.kind !== 'numeric' ? categoryBranches(split, this.codeBranch.length, this.codeBranch) : null;
    const codes = col.kind === 'categorical' ? col.codes : NO_CODES;
    let lo = start;
    let knownEnd = end;
    if (sorted && split.kind === 'numeric') {
      const { order } = sorted;
      const values = (col as { values: NumericValues }).values;
      const { thresholds } = split;
      const branchAt = (i: number): number => numericBranch(thresholds, values[row[order[i] & ENTRY]]);
      while (knownEnd > start && branchAt(knownEnd - 1) === NO_BRANCH) knownEnd--;
      let hi = knownEnd;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (branchAt(mid) === 0) lo = mid + 1;
        else hi = mid;
      }
    }
    let nMissing = 0;
    if (sorted && missingBranch < 0) {
      // A numeric split's branches are runs of the sorted slice: no branch to compute per entry.
      nMissing = end - knownEnd;
      this.assignRun(sorted, start, lo, 0, into);
      this.assignRun(sorted, lo, knownEnd, 1, into);
      for (let i = knownEnd; i < end; i++) branchOf[sorted.order[i] & ENTRY] = NO_BRANCH;
      if (nMissing > 0) this.cloneMissing(entry, chosen, into, nMissing);
      return;
    }
    for (let i = start; i < end; i++) {
      const e = walk[i] & ENTRY;
      let b = table ? categoryBranch(table, codes[row[e]]) : i < lo ? 0 : i < knownEnd ? 1 : NO_BRANCH;
      if (b < 0 && missingBranch >= 0) b = missingBranch;
      branchOf[e] = b;
      if (b < 0) nMissing++;
      else {
        sizes[b]++;
        totals[b][y[e]] += w[e];
      }
    }
    if (nMissing > 0) this.cloneMissing(entry, chosen, into, nMissing);
  }

  /** Entries [from, to) of `sorted` go to branch `b`: their `branchOf`, and the branch's size and class totals. */
  private assignRun(sorted: SortedSlice, from: number, to: number, b: number, into: Branches): void {
    const { order, labs } = sorted;
    const branchOf = this.work.branchOf;
    const t = into.totals[b];
    const w = this.pool.weight;
    for (let i = from; i < to; i++) {
      const e = order[i] & ENTRY;
      branchOf[e] = b;
      t[labs[i]] += w[e];
    }
    into.sizes[b] += to - from;
  }

  /**
   * C4.5's fractional policy: a row with a missing value goes down every branch with weight ∝ the
   * branch's known weight, as itself in branch 0 and as a clone in each other branch.
   */
  private cloneMissing(entry: StackEntry, chosen: ChosenSplit, into: Branches, nMissing: number): void {
    const { pool, work } = this;
    const { count: branches, sizes, totals } = into;
    this.evaluator.ctx.unitWeights = false;
    const fractions = missingShares(chosen);
    for (let b = 0; b < branches; b++) sizes[b] += nMissing;
    const firstClone = new Int32Array(pool.row.length);
    const ids = entry.buf.ids;
    for (let i = entry.start; i < entry.end; i++) {
      const e = ids[i];
      if (work.branchOf[e] >= 0) continue;
      const we = pool.weight[e];
      const c = pool.label[e];
      firstClone[e] = pool.size;
      for (let b = 1; b < branches; b++) {
        pool.clone(e, we * fractions[b]);
        totals[b][c] += we * fractions[b];
      }
      pool.weight[e] = we * fractions[0];
      totals[0][c] += we * fractions[0];
    }
    work.firstClone = firstClone;
    if (work.branchOf.length < pool.row.length) {
      const grown = new Int32Array(pool.row.length);
      grown.set(work.branchOf);
      work.branchOf = grown;
    }
    const size = sizes.reduce((a, b) => a + b, 0);
    if (work.ids.length < size) {
      work.ids = new Int32Array(size);
      work.labs = labelCodes(plainArrays, size, this.k);
    }
    into.everyBranch = nMissing;
  }

  /**
   * Partition every buffer of the node by branch: into fresh buffers when the split cloned
   * entries; otherwise in place, unless every child is a leaf (leaves need no order).
   */
  partition(entry: StackEntry, _chosen: ChosenSplit, branches: Branches, leaf: readonly boolean[]): number {
    const { buf, start, end } = entry;
    const { features, work } = this;
    if (branches.everyBranch > 0) {
      this.childBuf = {
        ids: partitionWithClones(buf.ids, null, start, end, branches, work).order,
        sorted: buf.sorted.map((sl) =>
          sl ? partitionWithClones(sl.order, sl.labs, start, end, branches, work) : null,
        ),
      };
      return 0;
    }
    this.childBuf = buf;
    if (leaf.every((l) => l)) return start;
    const shared = this.team?.partition(entry, branches) ?? false;
    partitionStable(buf.ids, start, end, branches, work);
    const { lazy } = this;
    if (lazy) {
      const node = entry as StackEntry & LazyEntry;
      lazy.placed(buf.ids, start, branches.sizes, branches.count);
      for (let f = 0; f < features.length; f++) if (lazy.partitions(node, f)) this.partitionFeature(f, entry, branches);
    } else if (shared) this.team!.finishPartition();
    else for (let f = 0; f < features.length; f++) this.partitionFeature(f, entry, branches);
    return start;
  }

  child(parent: StackEntry, _b: number, base: GrowEntry): StackEntry {
    const entry = base as StackEntry;
    entry.buf = this.childBuf!;
    if (this.lazy) this.lazy.child(parent as StackEntry & LazyEntry, entry);
    return entry;
  }
}

/** Grows with worker threads; installed by the Node entry (src/learn/threads/parallel-grow.ts). */
export type ParallelGrow = (
  data: Dataset,
  opts: ResolvedOptions,
  weights: Float64Array,
  threads: number | 'auto',
  meter?: GrowMeter,
) => TreeStore | null;
let parallelGrow: ParallelGrow | undefined;

/** Install the worker-thread grower (the Node entry does; browsers keep the single-thread path). */
export function setParallelGrow(grow: ParallelGrow | undefined): void {
  parallelGrow = grow;
}

/**
 * Grow a tree on `data`: exact mode, or histogram mode (`growTreeHistogram`) when `opts.bins` is
 * set. With `threads` ≠ 1 and the Node entry loaded, a large enough fit grows on worker threads
 * (the same tree as one thread). `onProgress` hears of the nodes grown, a batch at a time.
 */
export function growTree(
  data: Dataset,
  opts: ResolvedOptions,
  weights: Float64Array,
  threads: number | 'auto' = 1,
  onProgress?: (progress: GrowProgress) => void,
): TreeStore {
  return metered(
    weights,
    onProgress,
    (meter) => growTreeMetered(data, opts, weights, threads, meter),
    (tree) => tree.size,
  );
}

function growTreeMetered(
  data: Dataset,
  opts: ResolvedOptions,
  weights: Float64Array,
  threads: number | 'auto',
  meter: GrowMeter | undefined,
): TreeStore {
  // Best-first growth (maxLeafNodes) runs on one thread.
  if (threads !== 1 && parallelGrow && opts.maxLeafNodes === undefined) {
    const nodes = parallelGrow(data, opts, weights, threads, meter);
    if (nodes) return nodes;
  }
  if (opts.bins !== undefined) return growTreeHistogram(data, opts, weights, meter);
  // Numeric features without missing values: sorted at each node, as scikit-learn does (the same tree).
  if (nodeSortApplies(data, opts, weights)) return growNodeSort(data, opts, weights, meter);
  const { grower, root } = exactStart(data, opts, weights);
  grower.meter = meter;
  grower.lazyFrom(root);
  return growNodes(grower, TreeStore.root(data.classes.length), root, opts.maxLeafNodes, opts.criterionImpl);
}

/** An exact-mode grow on one thread, ready to start: its entries, presorted layout, grower and root. */
export function exactStart(
  data: Dataset,
  opts: ResolvedOptions,
  weights: Float64Array,
): { pool: EntryPool; buf: Buffers; grower: NodeGrower; root: StackEntry } {
  const k = data.classes.length;
  const pool = new EntryPool(data.labels, weights);
  const buf = presort(data);
  const grower = new NodeGrower(data.features, pool, k, opts, rowScratch(data.nRows));
  return { pool, buf, grower, root: rootEntry(buf, pool, k, opts) };
}
