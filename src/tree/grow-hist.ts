import type { Dataset } from '../data/dataset.js';
import { createTable } from '../criteria/table.js';
import { GroveError } from '../errors.js';
import { CategoryCounts, fillFromHistogram, scanMultiway, scanSubsets } from '../split/categorical.js';
import { finalizeCandidate, type FinalizeScratch } from '../split/finalize.js';
import { SMALL_NODE_ROWS, binFeature, scanBinnedRows, scanHistogram, type BinnedFeature } from '../split/histogram.js';
import { ScanContext } from '../split/context.js';
import { Candidate } from '../split/types.js';
import { getCriterion } from '../criteria/registry.js';
import { EntryPool } from './entries.js';
import { chooseSplit, stopsHere } from './split-policy.js';
import type { ResolvedOptions } from './options.js';
import type { TreeNode } from './node.js';
import { partitionStable } from './partition.js';
import { SortWork } from './argsort.js';

interface StackEntry {
  id: number;
  start: number;
  end: number;
  depth: number;
  totals: Float64Array;
  /** The node's class histograms, all features (null for a leaf or a small node). */
  hist: Float64Array | null;
  leaf: boolean;
  excluded: readonly number[];
}


/**
 * Histogram mode (LightGBM-style): numeric features are quantised once into at most `opts.bins`
 * bins; every node keeps one class histogram per feature, built from its rows for all children but
 * the largest, whose histogram is the parent's minus its siblings'. A split is scanned over bins,
 * not rows, with the same criteria, candidates and selector as exact mode. Codes are stored
 * row-major (one row's codes in one cache line) so building a histogram reads memory in order.
 */
export function growTreeHistogram(data: Dataset, opts: ResolvedOptions, weights: Float64Array): TreeNode[] {
  if (opts.missing === 'fractional') throw new GroveError("histogram mode (bins) supports missing: 'majority' or 'learned', not 'fractional'");
  const n = data.nRows;
  const k = data.classes.length;
  const features = data.features;
  const d = features.length;
  const stride = k + 1;
  const maxBins = opts.bins!;

  // Bins: numeric features quantised; categorical codes used as they are (missing = last code).
  const wide = features.some((col) => (col.kind === 'numeric' ? maxBins : col.categories.length) + 1 > 256);
  const codes = wide ? new Uint16Array(n * d) : new Uint8Array(n * d);
  const noCodes = new Uint8Array(0);
  const work = new SortWork();
  const binned: (BinnedFeature | null)[] = features.map((col, f) => {
    if (col.kind !== 'numeric') return null;
    const b = binFeature(col, maxBins, work);
    const c = b.codes;
    for (let i = 0; i < n; i++) codes[i * d + f] = c[i];
    // The codes live on in the row-major matrix only (one byte per row per feature in all).
    return { ...b, codes: noCodes };
  });
  const nBins = features.map((col, f) => (col.kind === 'numeric' ? binned[f]!.bins : col.categories.length));
  const offset = new Int32Array(d);
  let histSize = 0;
  nBins.forEach((b, f) => {
    offset[f] = histSize;
    histSize += (b + 1) * stride;
  });
  features.forEach((col, f) => {
    if (col.kind === 'numeric') return;
    const missing = nBins[f];
    for (let i = 0; i < n; i++) codes[i * d + f] = col.codes[i] < 0 ? missing : col.codes[i];
  });

  // No clones in histogram mode: the pool reads the labels and weights in place.
  const identity = new Int32Array(n);
  for (let i = 0; i < n; i++) identity[i] = i;
  const pool = EntryPool.over(identity, data.labels, weights);
  const y = data.labels;
  const maxCategories = Math.max(2, ...features.map((c) => (c.kind === 'categorical' ? c.categories.length : 2)));
  const scanCriterion = opts.thresholdCriterion ? getCriterion(opts.thresholdCriterion) : opts.criterionImpl;
  const ctx = new ScanContext(pool, k, scanCriterion, opts.minSamplesLeaf, opts.missing, maxCategories);
  const cc = new CategoryCounts(maxCategories, k);
  const combo = new Int32Array(maxCategories);
  const known = new Float64Array(k);
  const scratch: FinalizeScratch = { table: createTable(maxCategories, k), parent: createTable(1, k) };
  const view = createTable(maxCategories, k);
  const cands = features.map(() => new Candidate(maxCategories, k));
  const rows = Int32Array.from({ length: n }, (_, i) => i);
  const branchOf = new Int32Array(n);
  const scratchI = new Int32Array(n);
  const sizes = new Int32Array(maxCategories);
  const offsets = new Int32Array(maxCategories);
  const codeBranch = new Int32Array(Math.max(...nBins, maxCategories) + 1);

  // A node this small is scanned from its sorted rows, and needs no histogram (nor do its children).
  const small = (rows: number): boolean => rows < SMALL_NODE_ROWS && rows * Math.log2(rows + 2) < 2 * maxBins * stride;
  const keys = new Int32Array(SMALL_NODE_ROWS);

  const isLeaf = (size: number, depth: number, totals: ArrayLike<number>): boolean => stopsHere(opts, size, depth, totals);

  /** Histogram of rows[start..end): per feature, per bin, class weights and the row count. */
  const buildHist = (start: number, end: number): Float64Array => {
    const h = new Float64Array(histSize);
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
  };

  const rootTotals = new Float64Array(k);
  for (let i = 0; i < n; i++) rootTotals[y[i]] += weights[i];
  const nodes: TreeNode[] = [{ counts: [], n: 0, depth: 0 }];
  const rootLeaf = isLeaf(n, 0, rootTotals);
  const stack: StackEntry[] = [{ id: 0, start: 0, end: n, depth: 0, totals: rootTotals, hist: rootLeaf || small(n) ? null : buildHist(0, n), leaf: rootLeaf, excluded: [] }];

  while (stack.length > 0) {
    const { id, start, end, depth, totals, hist, leaf: isLeafNode, excluded } = stack.pop()!;
    const node = nodes[id];
    node.counts = Array.from(totals);
    node.n = end - start;
    node.depth = depth;
    if (isLeafNode) continue;

    for (let f = 0; f < d; f++) {
      const cand = cands[f];
      if (excluded.includes(f)) {
        cand.reset(f, 'numeric');
        continue;
      }
      if (binned[f]) {
        if (hist) scanHistogram(ctx, f, binned[f]!, hist, offset[f], known, cand);
        else scanBinnedRows(ctx, f, binned[f]!, codes, d, rows, start, end, weights, keys, known, cand);
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
    if (!chosen) continue;
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

    node.split = split;
    node.score = best.raw;
    node.improvement = best.key;
    node.missingBranch = missingBranch;
    node.children = [];
    const leaf = Array.from({ length: branches }, (_, b) => isLeaf(sizes[b], depth + 1, childTotals[b]));
    const childHist: (Float64Array | null)[] = new Array(branches).fill(null);
    if (leaf.some((l) => !l)) partitionStable(rows, start, end, branchOf, sizes, branches, offsets, scratchI);
    if (hist && leaf.some((l, b) => !l && !small(sizes[b]))) {
      // Build every child's histogram from its rows except the largest one, which is the
      // parent's minus the others' (the subtraction trick) — when it is needed at all.
      let largest = 0;
      for (let b = 1; b < branches; b++) if (sizes[b] > sizes[largest]) largest = b;
      const needs = (b: number) => !leaf[b] && !small(sizes[b]);
      let at = start;
      for (let b = 0; b < branches; b++) {
        if (b !== largest && (needs(b) || needs(largest))) childHist[b] = buildHist(at, at + sizes[b]);
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
    const childExcluded = split.kind === 'multiway' ? [...excluded, f] : excluded;
    const entries: StackEntry[] = [];
    let at = start;
    for (let b = 0; b < branches; b++) {
      const childId = nodes.length;
      nodes.push({ counts: [], n: 0, depth: depth + 1 });
      node.children.push(childId);
      entries.push({ id: childId, start: at, end: at + sizes[b], depth: depth + 1, totals: childTotals[b], hist: leaf[b] ? null : childHist[b], leaf: leaf[b], excluded: childExcluded });
      at += sizes[b];
    }
    for (let b = branches - 1; b >= 0; b--) stack.push(entries[b]);
  }
  return nodes;
}
