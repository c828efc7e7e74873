import type { Candidate } from './types.js';
import { beats } from './types.js';
import type { ScanContext } from './context.js';

/**
 * Per-value class counts of one categorical feature at one node, the input of both categorical
 * scanners. Buffers are sized once for the largest dictionary and reused.
 */
export class CategoryCounts {
  /** counts[v * classes + c]: weight of class c among rows with code v. */
  readonly counts: Float64Array;
  /** rows[v]: number of rows with code v. */
  readonly rows: Int32Array;
  /** totals[v]: weight of rows with code v. */
  readonly totals: Float64Array;
  /** Codes seen at the node, ascending. */
  readonly present: Int32Array;
  nPresent = 0;
  /** Class totals over rows whose value is known. */
  readonly known: Float64Array;
  nKnownRows = 0;

  constructor(
    maxCategories: number,
    readonly classes: number,
  ) {
    const m = Math.max(1, maxCategories);
    this.counts = new Float64Array(m * classes);
    this.rows = new Int32Array(m);
    this.totals = new Float64Array(m);
    this.present = new Int32Array(m);
    this.known = new Float64Array(classes);
  }

  /** Count `codes` over the node's rows `rows[start..end)`; code -1 (missing) is skipped. */
  fill(ctx: ScanContext, codes: Int32Array, nCategories: number, rows: Int32Array, start: number, end: number): void {
    const k = this.classes;
    this.counts.fill(0, 0, nCategories * k);
    this.rows.fill(0, 0, nCategories);
    this.totals.fill(0, 0, nCategories);
    this.known.fill(0);
    const { labels: y, weights: w } = ctx;
    let nKnown = 0;
    for (let i = start; i < end; i++) {
      const r = rows[i];
      const v = codes[r];
      if (v < 0) continue;
      const wr = w[r];
      this.counts[v * k + y[r]] += wr;
      this.totals[v] += wr;
      this.rows[v]++;
      this.known[y[r]] += wr;
      nKnown++;
    }
    this.nKnownRows = nKnown;
    let p = 0;
    for (let v = 0; v < nCategories; v++) if (this.rows[v] > 0) this.present[p++] = v;
    this.nPresent = p;
  }
}

/**
 * ID3/C4.5 multiway split: one branch per value seen at the node. Valid when at least two values
 * are seen and at least two branches hold `minLeaf` rows (C4.5's rule).
 */
export function scanMultiway(ctx: ScanContext, feature: number, cc: CategoryCounts, out: Candidate): void {
  out.reset(feature, 'multiway');
  const m = cc.nPresent;
  if (m < 2) return;
  let bigEnough = 0;
  for (let i = 0; i < m; i++) if (cc.rows[cc.present[i]] >= ctx.minLeaf) bigEnough++;
  if (bigEnough < 2) return;
  out.parentOriented = ctx.loadParent(cc.known);
  const k = cc.classes;
  const t = ctx.table;
  t.branches = m;
  for (let i = 0; i < m; i++) {
    const v = cc.present[i];
    t.branchTotals[i] = cc.totals[v];
    for (let c = 0; c < k; c++) t.counts[i * k + c] = cc.counts[v * k + c];
  }
  out.found = true;
  out.oriented = ctx.scoreTable();
  out.raw = ctx.sign * out.oriented;
  out.values = Array.from(cc.present.subarray(0, m));
}

/** Largest |V| enumerated when the user leaves Zaki's l unset. */
function autoSubsetSize(m: number): number {
  return m <= 10 ? Math.floor(m / 2) : 2;
}

/**
 * Binary split `x ∈ V`. With two classes present at the node, values are ordered by the share of
 * the first class and only the m-1 prefixes are scored: for concave impurities (Gini, entropy)
 * the best subset is among them (Breiman et al. 1984, Thm 4.5). Otherwise Zaki's
 * EVALUATE-CATEGORICAL-ATTRIBUTE: every V with 1 ≤ |V| ≤ l, each split counted once (a V and its
 * complement are the same split).
 */
export function scanSubsets(
  ctx: ScanContext,
  feature: number,
  cc: CategoryCounts,
  maxSubsetSize: number | undefined,
  order: Int32Array,
  out: Candidate,
): void {
  out.reset(feature, 'subset');
  const m = cc.nPresent;
  if (m < 2 || cc.nKnownRows < 2 * ctx.minLeaf) return;
  out.parentOriented = ctx.loadParent(cc.known);
  const k = cc.classes;
  let firstClass = -1;
  let classesPresent = 0;
  for (let c = 0; c < k; c++) {
    if (cc.known[c] > 0) {
      classesPresent++;
      if (firstClass < 0) firstClass = c;
    }
  }
  const t = ctx.table;
  t.branches = 2;
  if (classesPresent <= 2) {
    scanOrderedPrefixes(ctx, cc, Math.max(0, firstClass), order, out);
  } else {
    const l = Math.min(maxSubsetSize ?? autoSubsetSize(m), Math.floor(m / 2));
    for (let size = 1; size <= l; size++) scanCombinations(ctx, cc, size, 2 * size === m, order, out);
  }
  if (out.found) {
    const inV = new Set(out.values);
    out.others = Array.from(cc.present.subarray(0, m)).filter((v) => !inV.has(v));
  }
}

function loadRightAsKnown(ctx: ScanContext, cc: CategoryCounts): void {
  const k = cc.classes;
  const t = ctx.table;
  for (let c = 0; c < k; c++) {
    t.counts[c] = 0;
    t.counts[k + c] = cc.known[c];
  }
  t.branchTotals[0] = 0;
  t.branchTotals[1] = t.total;
}

function moveValueLeft(ctx: ScanContext, cc: CategoryCounts, v: number): void {
  const k = cc.classes;
  const t = ctx.table;
  for (let c = 0; c < k; c++) {
    const x = cc.counts[v * k + c];
    t.counts[c] += x;
    t.counts[k + c] -= x;
  }
  t.branchTotals[0] += cc.totals[v];
  t.branchTotals[1] -= cc.totals[v];
}

function scanOrderedPrefixes(ctx: ScanContext, cc: CategoryCounts, cls: number, order: Int32Array, out: Candidate): void {
  const m = cc.nPresent;
  const k = cc.classes;
  for (let i = 0; i < m; i++) order[i] = cc.present[i];
  const share = (v: number) => cc.counts[v * k + cls] / cc.totals[v];
  // Sort by share of the first class; equal shares keep code order (deterministic).
  const sorted = Array.from(order.subarray(0, m)).sort((a, b) => share(a) - share(b) || a - b);
  loadRightAsKnown(ctx, cc);
  let leftRows = 0;
  for (let i = 0; i < m - 1; i++) {
    const v = sorted[i];
    moveValueLeft(ctx, cc, v);
    leftRows += cc.rows[v];
    if (leftRows < ctx.minLeaf || cc.nKnownRows - leftRows < ctx.minLeaf) continue;
    const score = ctx.scoreTable();
    if (beats(score, out.oriented)) {
      out.found = true;
      out.oriented = score;
      out.raw = ctx.sign * score;
      out.values = sorted.slice(0, i + 1);
    }
  }
}

/**
 * Every V of `size` values among the present ones (indices into `present`, lexicographic order).
 * When `half` (|V| = m/2) only subsets holding the first present value are scored, so that a
 * split and its complement are not both visited.
 */
function scanCombinations(ctx: ScanContext, cc: CategoryCounts, size: number, half: boolean, idx: Int32Array, out: Candidate): void {
  const m = cc.nPresent;
  for (let i = 0; i < size; i++) idx[i] = i;
  for (;;) {
    if (!half || idx[0] === 0) scoreSubset(ctx, cc, size, idx, out);
    // next combination
    let i = size - 1;
    while (i >= 0 && idx[i] === m - size + i) i--;
    if (i < 0) return;
    idx[i]++;
    for (let j = i + 1; j < size; j++) idx[j] = idx[j - 1] + 1;
  }
}

function scoreSubset(ctx: ScanContext, cc: CategoryCounts, size: number, idx: Int32Array, out: Candidate): void {
  loadRightAsKnown(ctx, cc);
  let leftRows = 0;
  for (let i = 0; i < size; i++) {
    const v = cc.present[idx[i]];
    moveValueLeft(ctx, cc, v);
    leftRows += cc.rows[v];
  }
  if (leftRows < ctx.minLeaf || cc.nKnownRows - leftRows < ctx.minLeaf) return;
  const score = ctx.scoreTable();
  if (beats(score, out.oriented)) {
    out.found = true;
    out.oriented = score;
    out.raw = ctx.sign * score;
    out.values = Array.from(idx.subarray(0, size), (i) => cc.present[i]);
  }
}
