import { type ArrayMaker, plainArrays } from '../core/arrays.js';
import { createTable } from '../criteria/table.js';
import type { Column, Dataset, NumericValues } from '../data/dataset.js';
import { TreeStore } from '../model/store.js';
import type { ResolvedOptions } from '../options/options.js';
import { argsortNumeric, SortWork } from '../split/argsort.js';
import type { Candidate } from '../split/candidate.js';
import { columnOrder } from '../split/column-order.js';
import { EntryPool } from '../split/entries.js';
import { FeatureEvaluator } from '../split/evaluate.js';
import {
  ENTRY,
  type LabelCodes,
  labelCodes,
  markNewValues,
  newSlice,
  type SortedSlice,
} from '../split/sorted-slice.js';
import { DepthFirstGrower } from './depth-first.js';
import { growTreeHistogram } from './grow-hist.js';
import { partitionSorted, partitionStable, partitionWithClones } from './partition.js';
import { chooseSplit, stopsHere } from './split-policy.js';

export { argsortNumeric };

/** Entry-id arrays a node's slice lives in: any order (`ids`), and sorted per numeric feature (src/split/sorted-slice.ts). */
export interface Buffers {
  ids: Int32Array;
  sorted: (SortedSlice | null)[];
}

/** A node waiting to be grown: the slice [start, end) of `buf` holds its entries. */
export interface StackEntry {
  id: number;
  buf: Buffers;
  start: number;
  end: number;
  depth: number;
  /** Weighted class totals of the node's entries (computed by the parent's partition pass). */
  totals: Float64Array;
  /** Categorical features already split multiway on the path: not reused below (ID3/C4.5). */
  excluded: readonly number[];
}

/** Per-row arrays every node's partition writes at its own positions (disjoint between subtrees). */
export interface RowScratch {
  branchOf: Int32Array;
  scratchI: Int32Array;
}

/** Sort `values` (a column, entry = row) into `slice`, marks and `labels` (by row) included. */
export function sortInto(values: NumericValues, labels: Int32Array, slice: SortedSlice, work?: SortWork): void {
  fillSlice(argsortNumeric(values, work), values, labels, slice);
}

/** The slice of rows in `sorted` order: ids with their marks, and their labels alongside. */
function fillSlice(sorted: Int32Array, values: NumericValues, labels: Int32Array, { order, labs }: SortedSlice): void {
  markNewValues(sorted, values, order);
  for (let i = 0; i < sorted.length; i++) labs[i] = labels[sorted[i]];
}

/**
 * The root's buffers: entry ids 0..n-1 and, per numeric feature, the entries sorted by value
 * (once), 5 bytes per row per feature (6 beyond 256 classes) whatever the column's precision.
 */
export function presort(data: Dataset, make: ArrayMaker = plainArrays): Buffers {
  const n = data.nRows;
  const ids = make.int32(n);
  for (let i = 0; i < n; i++) ids[i] = i;
  const work = new SortWork();
  const sorted = data.features.map((col, f) => {
    if (col.kind !== 'numeric') return null;
    const slice = newSlice(make, n, data.classes.length);
    fillSlice(columnOrder(data, f, work), col.values, data.labels, slice);
    return slice;
  });
  work.release();
  return { ids, sorted };
}

export function rowScratch(n: number, make: ArrayMaker = plainArrays): RowScratch {
  return { branchOf: make.int32(n), scratchI: make.int32(n) };
}

/** The root's stack entry over `buf`, with the weighted class totals of every entry. */
export function rootEntry(buf: Buffers, pool: EntryPool, k: number): StackEntry {
  const totals = new Float64Array(k);
  for (let e = 0; e < pool.size; e++) totals[pool.label[e]] += pool.weight[e];
  return { id: 0, buf, start: 0, end: pool.size, depth: 0, totals, excluded: [] };
}

/** Shares the work of one big node among threads (src/learn/threads/parallel-grow.ts). */
export interface NodeTeam {
  /** Evaluate every feature of `entry` into `cands`, or return false: this thread does it alone. */
  evaluate(entry: StackEntry, cands: Candidate[]): boolean;
  /**
   * Start partitioning `entry`'s sorted slices by the grower's `branchOf` (the other threads' share
   * and this thread's), or return false: this thread does it alone. `finishPartition` waits for the rest.
   */
  partition(entry: StackEntry, sizes: Int32Array, branches: number): boolean;
  finishPartition(): void;
}

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
export class NodeGrower extends DepthFirstGrower<StackEntry> {
  readonly k: number;
  readonly evaluator: FeatureEvaluator;
  readonly cands: Candidate[];
  readonly view: ReturnType<typeof createTable>;
  readonly sizes: Int32Array;
  readonly offsets: Int32Array;
  readonly codeBranch: Int32Array;
  readonly marks: Int32Array;
  branchOf: Int32Array;
  scratchI: Int32Array;
  /** Scratch for partitioning a slice's labels (as long as `scratchI`). */
  scratchL: LabelCodes;
  /** Threads that share the work of big nodes (the parallel grower's main thread sets it). */
  team?: NodeTeam;

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
    const maxBranches = this.evaluator.ctx.maxBranches;
    this.view = createTable(maxBranches, classes);
    this.sizes = new Int32Array(maxBranches);
    this.offsets = new Int32Array(maxBranches);
    this.codeBranch = new Int32Array(maxBranches);
    this.marks = new Int32Array(maxBranches);
    ({ branchOf: this.branchOf, scratchI: this.scratchI } = scratch);
    this.scratchL = labelCodes(plainArrays, this.scratchI.length, classes);
  }

  /** The best split of feature `f` at `entry`'s node into `out` (an excluded feature gets none). */
  evaluateFeature(f: number, entry: StackEntry, out: Candidate): void {
    if (entry.excluded.includes(f)) out.reset(f, 'numeric');
    else this.evaluator.evaluate(f, entry.buf.ids, entry.buf.sorted[f], entry.start, entry.end, entry.totals, out);
  }

  /** Partition numeric feature `f`'s sorted slice of `entry` by `branchOf` (stable; nothing for a categorical feature). */
  partitionFeature(f: number, entry: StackEntry, sizes: Int32Array, branches: number): void {
    const sl = entry.buf.sorted[f];
    if (sl)
      partitionSorted(
        sl,
        entry.start,
        entry.end,
        this.branchOf,
        sizes,
        branches,
        this.offsets,
        this.marks,
        this.scratchI,
        this.scratchL,
      );
  }

  /** Make `entry`'s node a leaf or split it, pushing its children onto `stack`. */
  protected expand(entry: StackEntry, nodes: TreeStore, stack: StackEntry[]): void {
    const { id, buf, start, end, depth, totals: nodeTotals, excluded } = entry;
    const { features, k, pool, evaluator, cands, opts, view, sizes, offsets, codeBranch } = this;
    const isLeaf = (size: number, d: number, totals: ArrayLike<number>): boolean => stopsHere(opts, size, d, totals);
    nodes.setStats(id, nodeTotals, end - start, depth);
    if (isLeaf(end - start, depth, nodeTotals)) return;

    if (!this.team?.evaluate(entry, cands))
      for (let f = 0; f < features.length; f++) this.evaluateFeature(f, entry, cands[f]);
    const chosen = chooseSplit(cands, opts, view);
    if (!chosen) return;
    const { best, split, branches, missingBranch } = chosen;

    // Assign every entry of the node to a branch (-1: missing value, fractional policy) and
    // total the children's classes on the way.
    const col = features[split.feature];
    if (split.kind !== 'numeric') {
      codeBranch.fill(-1);
      if (split.kind === 'subset') {
        for (const v of split.left) codeBranch[v] = 0;
        for (const v of split.right) codeBranch[v] = 1;
      } else split.values.forEach((v, b) => (codeBranch[v] = b));
    }
    const t = split.kind === 'numeric' ? split.thresholds[0] : NaN;
    sizes.fill(0, 0, branches);
    const childTotals = Array.from({ length: branches }, () => new Float64Array(k));
    let nMissing = 0;
    const { row, label: y, weight: w } = pool;
    let branchOf = this.branchOf;
    const sorted = buf.sorted[split.feature];
    if (sorted) {
      // Numeric: the split feature's sorted slice is [≤ t][> t][missing]; find the two cuts by
      // reading values (the missing tail, a binary search), then walk the entries.
      const { order } = sorted;
      const values = (col as { values: NumericValues }).values;
      const valueAt = (i: number): number => values[row[order[i] & ENTRY]];
      let knownEnd = end;
      while (knownEnd > start && Number.isNaN(valueAt(knownEnd - 1))) knownEnd--;
      let lo = start;
      let hi = knownEnd;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (valueAt(mid) <= t) lo = mid + 1;
        else hi = mid;
      }
      for (let i = start; i < end; i++) {
        const e = order[i] & ENTRY;
        let b = i < lo ? 0 : i < knownEnd ? 1 : -1;
        if (b < 0 && missingBranch >= 0) b = missingBranch;
        branchOf[e] = b;
        if (b < 0) nMissing++;
        else {
          sizes[b]++;
          childTotals[b][y[e]] += w[e];
        }
      }
    } else {
      const codes = (col as { codes: Int32Array }).codes;
      for (let i = start; i < end; i++) {
        const e = buf.ids[i];
        const v = codes[row[e]];
        let b = v < 0 ? -1 : codeBranch[v];
        if (b < 0 && missingBranch >= 0) b = missingBranch;
        branchOf[e] = b;
        if (b < 0) nMissing++;
        else {
          sizes[b]++;
          childTotals[b][y[e]] += w[e];
        }
      }
    }

    const firstChild = nodes.split(id, split, best.raw, best.key, missingBranch, branches);
    const childExcluded = split.kind === 'multiway' ? [...excluded, split.feature] : excluded;

    let childBuf = buf;
    let childStart = start;
    if (nMissing > 0) {
      // C4.5: a row with a missing value goes down every branch with weight ∝ the branch's known weight.
      evaluator.ctx.unitWeights = false;
      // The candidate's table is in scan order; a subset split may list its sides the other way round.
      const swapped = best.subsetSwapped();
      const fractions = Array.from({ length: branches }, (_, b) => best.branchWeight(swapped ? 1 - b : b));
      const sum = fractions.reduce((a, b) => a + b, 0);
      for (let b = 0; b < branches; b++) {
        fractions[b] = sum > 0 ? fractions[b] / sum : 1 / branches;
        sizes[b] += nMissing;
      }
      const firstClone = new Int32Array(pool.row.length);
      for (let i = start; i < end; i++) {
        const e = buf.ids[i];
        if (branchOf[e] >= 0) continue;
        const we = pool.weight[e];
        const c = pool.label[e];
        firstClone[e] = pool.size;
        for (let b = 1; b < branches; b++) {
          pool.clone(e, we * fractions[b]);
          childTotals[b][c] += we * fractions[b];
        }
        pool.weight[e] = we * fractions[0];
        childTotals[0][c] += we * fractions[0];
      }
      if (this.branchOf.length < pool.row.length) {
        const grown = new Int32Array(pool.row.length);
        grown.set(this.branchOf);
        this.branchOf = grown;
      }
      branchOf = this.branchOf;
      const size = sizes.subarray(0, branches).reduce((a, b) => a + b, 0);
      if (this.scratchI.length < size) {
        this.scratchI = new Int32Array(size);
        this.scratchL = labelCodes(plainArrays, size, k);
      }
      childBuf = {
        ids: partitionWithClones(buf.ids, null, start, end, branchOf, firstClone, sizes, branches, offsets, size).order,
        sorted: buf.sorted.map((sl) =>
          sl
            ? partitionWithClones(sl.order, sl.labs, start, end, branchOf, firstClone, sizes, branches, offsets, size)
            : null,
        ),
      };
      childStart = 0;
    } else {
      // Children that will be leaves need no order: when all are leaves, skip the partition.
      let anyInternal = false;
      for (let b = 0; b < branches; b++) if (!isLeaf(sizes[b], depth + 1, childTotals[b])) anyInternal = true;
      if (anyInternal) {
        const shared = this.team?.partition(entry, sizes, branches) ?? false;
        partitionStable(buf.ids, start, end, this.branchOf, sizes, branches, offsets, this.scratchI);
        if (shared) this.team!.finishPartition();
        else for (let f = 0; f < features.length; f++) this.partitionFeature(f, entry, sizes, branches);
      }
    }

    const entries: StackEntry[] = [];
    for (let b = 0; b < branches; b++) {
      entries.push({
        id: firstChild + b,
        buf: childBuf,
        start: childStart,
        end: childStart + sizes[b],
        depth: depth + 1,
        totals: childTotals[b],
        excluded: childExcluded,
      });
      childStart += sizes[b];
    }
    // Push in reverse so branch 0 is grown first (depth-first, left to right).
    for (let b = branches - 1; b >= 0; b--) stack.push(entries[b]);
  }
}

/** Grows with worker threads; installed by the Node entry (src/learn/threads/parallel-grow.ts). */
export type ParallelGrow = (
  data: Dataset,
  opts: ResolvedOptions,
  weights: Float64Array,
  threads: number | 'auto',
) => TreeStore | null;
let parallelGrow: ParallelGrow | undefined;

/** Install the worker-thread grower (the Node entry does; browsers keep the single-thread path). */
export function setParallelGrow(grow: ParallelGrow | undefined): void {
  parallelGrow = grow;
}

/**
 * Grow a tree on `data`: exact mode, or histogram mode (`growTreeHistogram`) when `opts.bins` is
 * set. With `threads` ≠ 1 and the Node entry loaded, a large enough fit grows on worker threads
 * (the same tree as one thread).
 */
export function growTree(
  data: Dataset,
  opts: ResolvedOptions,
  weights: Float64Array,
  threads: number | 'auto' = 1,
): TreeStore {
  if (threads !== 1 && parallelGrow) {
    const nodes = parallelGrow(data, opts, weights, threads);
    if (nodes) return nodes;
  }
  if (opts.bins !== undefined) return growTreeHistogram(data, opts, weights);
  const pool = new EntryPool(data.labels, weights);
  const grower = new NodeGrower(data.features, pool, data.classes.length, opts, rowScratch(data.nRows));
  const nodes = TreeStore.root(data.classes.length);
  grower.grow(nodes, [rootEntry(presort(data), pool, data.classes.length)]);
  return nodes;
}
