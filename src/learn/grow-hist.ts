import { type ArrayMaker, plainArrays } from '../core/arrays.js';
import { GroveError } from '../core/errors.js';
import { getCriterion } from '../criteria/registry.js';
import { createTable } from '../criteria/table.js';
import type { Column, Dataset } from '../data/dataset.js';
import { TreeStore } from '../model/store.js';
import type { ResolvedOptions } from '../options/options.js';
import { SortWork } from '../split/argsort.js';
import { Candidate } from '../split/candidate.js';
import { CategoryCounts, fillFromHistogram, scanMultiway, scanSubsets } from '../split/categorical.js';
import { ScanContext } from '../split/context.js';
import { EntryPool } from '../split/entries.js';
import { FinalizeScratch, finalizeCandidate } from '../split/finalize.js';
import {
  type BinnedFeature,
  binFeature,
  SMALL_NODE_ROWS,
  scanHistogram,
  scanSortedCodes,
  sortByCode,
} from '../split/histogram.js';
import { DepthFirstGrower } from './depth-first.js';
import { partitionByCode, partitionStable } from './partition.js';
import { chooseSplit, stopsHere } from './split-policy.js';

/** A node waiting to be grown: rows[start..end) are its rows. */
export interface HistEntry {
  id: number;
  start: number;
  end: number;
  depth: number;
  totals: Float64Array;
  /** The node's class histograms, all features (null for a leaf or a small node). */
  hist: Float64Array | null;
  leaf: boolean;
  excluded: readonly number[];
  /**
   * A small node inside a small subtree: where that subtree's root starts in `rows`; its rows are
   * then in the grower's per-feature buffers, sorted by bin code. Absent (or −1): not sorted yet.
   */
  sortedAt?: number;
}

/**
 * The quantised data (shareable between threads): bin codes row-major (one row's codes in one
 * cache line, so building a histogram reads memory in order), each numeric feature's bin edges,
 * and the per-row arrays that node slices and partitions use.
 */
export interface HistLayout {
  codes: Uint8Array | Uint16Array;
  /** Bin edges of each numeric feature (their codes are in `codes`); null for a categorical one. */
  binned: (BinnedFeature | null)[];
  rows: Int32Array;
  branchOf: Int32Array;
}

/** Row-major code matrix for `data` with at most `maxBins` bins per numeric feature (no codes yet). */
export function histLayout(data: Dataset, maxBins: number, make: ArrayMaker = plainArrays): HistLayout {
  const n = data.nRows;
  const d = data.features.length;
  const wide = data.features.some((col) => (col.kind === 'numeric' ? maxBins : col.categories.length) + 1 > 256);
  const bytes = n * d * (wide ? 2 : 1);
  const buffer = make === plainArrays ? new ArrayBuffer(bytes) : new SharedArrayBuffer(bytes);
  const rows = make.int32(n);
  for (let i = 0; i < n; i++) rows[i] = i;
  return {
    codes: wide ? new Uint16Array(buffer) : new Uint8Array(buffer),
    binned: data.features.map(() => null),
    rows,
    branchOf: make.int32(n),
  };
}

/**
 * Quantise numeric feature `f` (values `values`) into `layout`: its codes go into column f of the
 * row-major matrix; returns its bin edges (without a codes copy).
 */
export function binInto(
  layout: HistLayout,
  f: number,
  d: number,
  values: Column & { kind: 'numeric' },
  maxBins: number,
  work: SortWork,
): BinnedFeature {
  // Codes land in a scratch column first: the sorted walk writes rows in random order, which is
  // cheap in n bytes and slow across the n × d matrix.
  const codes = layout.codes;
  const b = binFeature(values, maxBins, work, work.codes(values.values.length, codes.BYTES_PER_ELEMENT === 2));
  const c = b.codes;
  for (let i = 0, o = f; i < c.length; i++, o += d) codes[o] = c[i];
  return { ...b, codes: new Uint8Array(0) };
}

/** Put the categorical features' codes into the matrix (missing = the code after the last category). */
export function codeCategoricals(layout: HistLayout, features: Column[]): void {
  const d = features.length;
  features.forEach((col, f) => {
    if (col.kind === 'numeric') return;
    const missing = col.categories.length;
    for (let i = 0, o = f; i < col.codes.length; i++, o += d)
      layout.codes[o] = col.codes[i] < 0 ? missing : col.codes[i];
  });
}

/**
 * Histogram mode (LightGBM-style): numeric features are quantised once into at most `opts.bins`
 * bins; every node keeps one class histogram per feature, built from its rows for all children but
 * the largest, whose histogram is the parent's minus its siblings'. A split is scanned over bins,
 * not rows, with the same criteria, candidates and selector as exact mode. Subtrees touch
 * disjoint row slices, so several growers (worker threads) can grow different subtrees at once.
 */
export class HistGrower extends DepthFirstGrower<HistEntry> {
  readonly d: number;
  readonly k: number;
  readonly stride: number;
  readonly nBins: number[];
  readonly offset: Int32Array;
  readonly histSize: number;
  private readonly y: Int32Array;
  private readonly weights: Float64Array;
  private readonly ctx: ScanContext;
  private readonly cc: CategoryCounts;
  private readonly combo: Int32Array;
  private readonly known: Float64Array;
  private readonly scratch: FinalizeScratch;
  private readonly view: ReturnType<typeof createTable>;
  private readonly cands: Candidate[];
  private readonly scratchI: Int32Array;
  private readonly sizes: Int32Array;
  private readonly offsets: Int32Array;
  private readonly codeBranch: Int32Array;
  private readonly keys = new Int32Array(SMALL_NODE_ROWS);
  /**
   * The current small subtree's rows sorted by bin code, per numeric feature (feature f's at
   * f · sortedCap), kept in order below by stable partitions instead of a sort per node. Depth-first
   * growth finishes one small subtree before the next starts, so one set of buffers serves all.
   */
  private sortedRows = new Int32Array(0);
  private sortedCodes = new Uint16Array(0);
  private sortedCap = 0;
  private scratchR = new Int32Array(0);
  private scratchC = new Uint16Array(0);
  /**
   * Histograms no node holds any more, for `buildHist` to reuse: a big tree builds one per
   * internal node (≈ 120 kB each at 20 features × 255 bins), and left to the garbage collector
   * they pile up to tens of MB before a collection.
   */
  private readonly freeHists: Float64Array[] = [];

  constructor(
    readonly features: Column[],
    readonly layout: HistLayout,
    labels: Int32Array,
    weights: Float64Array,
    classes: number,
    readonly opts: ResolvedOptions,
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
    // No clones in histogram mode: the pool reads the labels and weights in place. Its row map
    // (entry i = row i) is read only by the row scan of categorical features.
    const identity = new Int32Array(features.some((col) => col.kind === 'categorical') ? n : 0);
    for (let i = 0; i < identity.length; i++) identity[i] = i;
    const pool = EntryPool.over(identity, labels, weights);
    const maxCategories = Math.max(2, ...features.map((c) => (c.kind === 'categorical' ? c.categories.length : 2)));
    const scanCriterion = opts.thresholdCriterion ? getCriterion(opts.thresholdCriterion) : opts.criterionImpl;
    this.ctx = new ScanContext(pool, k, scanCriterion, opts.minSamplesLeaf, opts.missing, maxCategories);
    this.cc = new CategoryCounts(maxCategories, k);
    this.combo = new Int32Array(maxCategories);
    this.known = new Float64Array(k);
    this.scratch = new FinalizeScratch(maxCategories, k);
    this.view = createTable(maxCategories, k);
    this.cands = features.map(() => new Candidate(maxCategories, k));
    this.scratchI = new Int32Array(n);
    this.sizes = new Int32Array(maxCategories);
    this.offsets = new Int32Array(maxCategories);
    this.codeBranch = new Int32Array(Math.max(...this.nBins, maxCategories) + 1);
  }

  /** A node this small is scanned from its sorted rows, and needs no histogram (nor do its children). */
  small(rows: number): boolean {
    return rows < SMALL_NODE_ROWS && rows * Math.log2(rows + 2) < 2 * this.opts.bins! * this.stride;
  }

  private isLeaf(size: number, depth: number, totals: ArrayLike<number>): boolean {
    return stopsHere(this.opts, size, depth, totals);
  }

  /** Histogram of rows[start..end): per feature, per bin, class weights and the row count. */
  buildHist(start: number, end: number): Float64Array {
    const { d, k, stride, offset, y, weights } = this;
    const { rows, codes } = this.layout;
    const h = this.freeHists.pop()?.fill(0) ?? new Float64Array(this.histSize);
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

  /** Sort rows[start..end) by bin code into the buffers, every numeric feature: a small subtree's root. */
  private sortSmall(start: number, end: number): void {
    const m = end - start;
    const { d } = this;
    if (this.sortedCap < m) {
      const cap = Math.min(SMALL_NODE_ROWS, Math.max(m, 2 * this.sortedCap));
      this.sortedCap = cap;
      this.sortedRows = new Int32Array(d * cap);
      this.sortedCodes = new Uint16Array(d * cap);
      this.scratchR = new Int32Array(cap);
      this.scratchC = new Uint16Array(cap);
    }
    const { binned, codes, rows } = this.layout;
    for (let f = 0; f < d; f++) {
      if (binned[f])
        sortByCode(codes, d, f, rows, start, end, this.keys, this.sortedRows, this.sortedCodes, f * this.sortedCap);
    }
  }

  /** A deferred subtree may be grown after other small subtrees reused the buffers: it sorts anew. */
  override growSubtree(entry: HistEntry): TreeStore {
    return super.growSubtree({ ...entry, sortedAt: -1 });
  }

  /** The root's entry (its histogram built unless it is a leaf or small). */
  rootEntry(): HistEntry {
    const n = this.layout.rows.length;
    const totals = new Float64Array(this.k);
    for (let i = 0; i < n; i++) totals[this.y[i]] += this.weights[i];
    const leaf = this.isLeaf(n, 0, totals);
    return {
      id: 0,
      start: 0,
      end: n,
      depth: 0,
      totals,
      hist: leaf || this.small(n) ? null : this.buildHist(0, n),
      leaf,
      excluded: [],
    };
  }

  protected expand(entry: HistEntry, nodes: TreeStore, stack: HistEntry[]): void {
    const { id, start, end, depth, totals, hist, leaf: isLeafNode, excluded } = entry;
    const {
      d,
      k,
      features,
      opts,
      ctx,
      cc,
      combo,
      known,
      scratch,
      view,
      cands,
      nBins,
      offset,
      histSize,
      sizes,
      offsets,
      codeBranch,
      y,
      weights,
      scratchI,
    } = this;
    const { binned, codes, rows, branchOf } = this.layout;
    nodes.setStats(id, totals, end - start, depth);
    if (isLeafNode) return;
    // A node without a histogram is small (see `small`): scanned from its rows sorted by code.
    let sortedAt = entry.sortedAt ?? -1;
    if (!hist && sortedAt < 0) {
      sortedAt = start;
      this.sortSmall(start, end);
    }
    const { sortedRows, sortedCodes, sortedCap } = this;

    for (let f = 0; f < d; f++) {
      const cand = cands[f];
      if (excluded.includes(f)) {
        cand.reset(f, 'numeric');
        continue;
      }
      if (binned[f]) {
        if (hist) scanHistogram(ctx, f, binned[f]!, hist, offset[f], known, cand);
        else
          scanSortedCodes(
            ctx,
            f,
            binned[f]!,
            sortedRows,
            sortedCodes,
            f * sortedCap + start - sortedAt,
            end - start,
            weights,
            known,
            cand,
          );
      } else {
        cand.reset(f, opts.categoricalSplit === 'multiway' ? 'multiway' : 'subset');
        const col = features[f];
        if (hist) fillFromHistogram(cc, hist, offset[f], nBins[f], cand);
        else if (col.kind === 'categorical') cc.fill(ctx, col.codes, col.categories.length, rows, start, end, cand);
        if (opts.categoricalSplit === 'multiway') scanMultiway(ctx, cc, cand);
        else scanSubsets(ctx, cc, opts.maxSubsetSize, combo, cand);
      }
      finalizeCandidate(cand, opts.criterionImpl, opts.missing, opts.mdlCorrection, scratch, opts.averageGainRule);
    }
    const chosen = chooseSplit(cands, opts, view);
    if (!chosen) {
      if (hist) this.freeHists.push(hist);
      return;
    }
    const { best, split, branches, missingBranch } = chosen;
    const f = split.feature;
    const missingCode = nBins[f];
    if (split.kind === 'numeric') {
      for (let b = 0; b <= missingCode; b++) codeBranch[b] = b <= best.splitBin ? 0 : 1;
    } else {
      codeBranch.fill(-1);
      if (split.kind === 'subset') {
        for (const v of split.left) codeBranch[v] = 0;
        for (const v of split.right) codeBranch[v] = 1;
      } else split.values.forEach((v, b) => (codeBranch[v] = b));
    }
    codeBranch[missingCode] = missingBranch;
    sizes.fill(0, 0, branches);
    const childTotals = Array.from({ length: branches }, () => new Float64Array(k));
    for (let i = start; i < end; i++) {
      const r = rows[i];
      let b = codeBranch[codes[r * d + f]];
      if (b < 0) b = missingBranch;
      branchOf[r] = b;
      sizes[b]++;
      childTotals[b][y[r]] += weights[r];
    }

    const firstChild = nodes.split(id, split, best.raw, best.key, missingBranch, branches);
    const leaf = Array.from({ length: branches }, (_, b) => this.isLeaf(sizes[b], depth + 1, childTotals[b]));
    const childHist: (Float64Array | null)[] = new Array(branches).fill(null);
    if (leaf.some((l) => !l)) {
      partitionStable(rows, start, end, branchOf, sizes, branches, offsets, scratchI);
      if (!hist) {
        for (let g = 0; g < d; g++) {
          if (binned[g])
            partitionByCode(
              sortedRows,
              sortedCodes,
              g * sortedCap + start - sortedAt,
              end - start,
              branchOf,
              sizes,
              branches,
              offsets,
              this.scratchR,
              this.scratchC,
            );
        }
      }
    }
    if (hist && leaf.some((l, b) => !l && !this.small(sizes[b]))) {
      // Build every child's histogram from its rows except the largest one, which is the
      // parent's minus the others' (the subtraction trick) — when it is needed at all.
      let largest = 0;
      for (let b = 1; b < branches; b++) if (sizes[b] > sizes[largest]) largest = b;
      const needs = (b: number) => !leaf[b] && !this.small(sizes[b]);
      let at = start;
      for (let b = 0; b < branches; b++) {
        if (b !== largest && (needs(b) || needs(largest))) childHist[b] = this.buildHist(at, at + sizes[b]);
        at += sizes[b];
      }
      if (needs(largest)) {
        const h = hist;
        for (let b = 0; b < branches; b++) {
          const other = childHist[b];
          if (b === largest || !other) continue;
          for (let i = 0; i < histSize; i++) h[i] -= other[i];
        }
        childHist[largest] = h;
      }
    }
    if (hist && !childHist.includes(hist)) this.freeHists.push(hist);
    childHist.forEach((h, b) => h && leaf[b] && this.freeHists.push(h));
    const childExcluded = split.kind === 'multiway' ? [...excluded, f] : excluded;
    const entries: HistEntry[] = [];
    let at = start;
    for (let b = 0; b < branches; b++) {
      entries.push({
        id: firstChild + b,
        start: at,
        end: at + sizes[b],
        depth: depth + 1,
        totals: childTotals[b],
        hist: leaf[b] ? null : childHist[b],
        leaf: leaf[b],
        excluded: childExcluded,
        sortedAt: hist ? -1 : sortedAt,
      });
      at += sizes[b];
    }
    for (let b = branches - 1; b >= 0; b--) stack.push(entries[b]);
  }
}

/** Grow a tree in histogram mode on one thread (src/learn/threads/parallel-grow.ts has the threaded one). */
export function growTreeHistogram(data: Dataset, opts: ResolvedOptions, weights: Float64Array): TreeStore {
  checkHistogramOptions(opts);
  const layout = binAll(data, opts.bins!);
  const grower = new HistGrower(data.features, layout, data.labels, weights, data.classes.length, opts);
  const nodes = TreeStore.root(data.classes.length);
  grower.grow(nodes, [grower.rootEntry()]);
  return nodes;
}

/** The code matrix of `data`, every feature quantised or coded (one thread). */
function binAll(data: Dataset, maxBins: number): HistLayout {
  const layout = histLayout(data, maxBins);
  const work = new SortWork();
  data.features.forEach((col, f) => {
    if (col.kind === 'numeric') layout.binned[f] = binInto(layout, f, data.features.length, col, maxBins, work);
  });
  work.release(); // ≈ 37 bytes a row, before growth allocates
  codeCategoricals(layout, data.features);
  return layout;
}

export function checkHistogramOptions(opts: ResolvedOptions): void {
  if (opts.missing === 'fractional')
    throw new GroveError("histogram mode (bins) supports missing: 'majority' or 'learned', not 'fractional'");
}
