import type { CategoricalColumn } from '../data/dataset.js';
import type { Candidate } from './candidate.js';
import { beats, J48_SMALL } from './candidate.js';
import type { ScanContext } from './context.js';
import { addUnknownToBranch } from './numeric.js';

/**
 * Per-value class counts of one categorical feature at one node, the input of both categorical
 * scanners. Buffers are sized once for the largest dictionary and reused.
 */
export class CategoryCounts {
  /** counts[v * k + c]: weight of class column c (ScanContext.k) among entries with code v. */
  readonly counts: Float64Array;
  /** rows[v]: number of entries with code v. */
  readonly rows: Int32Array;
  /** totals[v]: weight of entries with code v. */
  readonly totals: Float64Array;
  /** Codes seen at the node, ascending. */
  readonly present: Int32Array;
  nPresent = 0;
  /** Size of the feature's dictionary (declared categories). */
  nCategories = 0;
  /** Class totals over entries whose value is known. */
  readonly known: Float64Array;
  nKnownRows = 0;
  /** Class columns of `counts` and `known`: the scan context's at `fill`, every class from a histogram. */
  k: number;

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
    this.k = classes;
  }

  /** Count `col`'s codes over the node's entries `ids[start..end)`; a missing code (-1) goes to `out.unknown`. */
  fill(ctx: ScanContext, col: CategoricalColumn, ids: Int32Array, start: number, end: number, out: Candidate): void {
    const { codes } = col;
    const nCategories = col.categories.length;
    this.nCategories = nCategories;
    const { k, local } = ctx;
    this.k = k;
    this.counts.fill(0, 0, nCategories * k);
    this.rows.fill(0, 0, nCategories);
    this.totals.fill(0, 0, nCategories);
    this.known.fill(0, 0, k);
    const { row, label: y, weight: w } = ctx.pool;
    let nKnown = 0;
    for (let i = start; i < end; i++) {
      const e = ids[i];
      const v = codes[row[e]];
      const we = w[e];
      const c = local[y[e]];
      if (v < 0) {
        out.unknown[c] += we;
        out.unknownWeight += we;
        continue;
      }
      this.counts[v * k + c] += we;
      this.totals[v] += we;
      this.rows[v]++;
      this.known[c] += we;
      nKnown++;
    }
    this.nKnownRows = nKnown;
    let p = 0;
    for (let v = 0; v < nCategories; v++) if (this.rows[v] > 0) this.present[p++] = v;
    this.nPresent = p;
  }
}

/**
 * Histogram mode: load the counts of a categorical feature from the node's histogram
 * (`hist[offset + v * (classes + 1) + c]`, row count in slot `classes`, missing values in bin
 * `nCategories`) instead of from its rows; only the classes present at the node (`ScanContext.enterNode`).
 */
export function fillFromHistogram(
  ctx: ScanContext,
  cc: CategoryCounts,
  hist: Float64Array,
  offset: number,
  nCategories: number,
  out: Candidate,
): void {
  const K = cc.classes;
  const stride = K + 1;
  const { k, present } = ctx;
  cc.k = k;
  cc.nCategories = nCategories;
  cc.known.fill(0, 0, k);
  let p = 0;
  let nKnown = 0;
  for (let v = 0; v < nCategories; v++) {
    const o = offset + v * stride;
    const rows = hist[o + K];
    cc.rows[v] = rows;
    let total = 0;
    for (let c = 0; c < k; c++) {
      const w = hist[o + present[c]];
      cc.counts[v * k + c] = w;
      cc.known[c] += w;
      total += w;
    }
    cc.totals[v] = total;
    nKnown += rows;
    if (rows > 0) cc.present[p++] = v;
  }
  cc.nPresent = p;
  cc.nKnownRows = nKnown;
  const mo = offset + nCategories * stride;
  for (let c = 0; c < k; c++) {
    out.unknown[c] += hist[mo + present[c]];
    out.unknownWeight += hist[mo + present[c]];
  }
}

/**
 * ID3/C4.5 multiway split: one branch per value seen at the node. Valid when at least two values
 * are seen and at least two branches hold `minLeaf` entries (C4.5's rule). Call after `fill`.
 * With J48's rules, one branch per declared value (J48 keeps the empty ones as leaves) and
 * `minLeaf` counts weight.
 */
export function scanMultiway(ctx: ScanContext, cc: CategoryCounts, out: Candidate): void {
  const m = cc.nPresent;
  if (m < 2) return;
  if (ctx.j48) {
    scanMultiwayJ48(ctx, cc, out);
    return;
  }
  let bigEnough = 0;
  for (let i = 0; i < m; i++) {
    const v = cc.present[i];
    if (cc.rows[v] >= ctx.minLeaf && cc.totals[v] >= ctx.minWeightLeaf) bigEnough++;
  }
  if (bigEnough < 2) return;
  const k = cc.k;
  for (let i = 0; i < m; i++) {
    const v = cc.present[i];
    for (let c = 0; c < k; c++) out.table[i * k + c] = cc.counts[v * k + c];
  }
  out.branches = m;
  out.found = true;
  out.tried = 1;
  out.values = Array.from(cc.present.subarray(0, m));
}

function scanMultiwayJ48(ctx: ScanContext, cc: CategoryCounts, out: Candidate): void {
  const m = cc.nCategories;
  let bigEnough = 0;
  for (let v = 0; v < m; v++) if (ctx.minLeaf - cc.totals[v] < J48_SMALL) bigEnough++;
  if (bigEnough < 2) return;
  const k = cc.k;
  for (let i = 0; i < m * k; i++) out.table[i] = cc.counts[i];
  out.branches = m;
  out.found = true;
  out.tried = 1;
  out.values = Array.from({ length: m }, (_, v) => v);
}

/** Largest |V| enumerated when the user leaves Zaki's l unset. */
function autoSubsetSize(m: number): number {
  return m <= 10 ? Math.floor(m / 2) : 2;
}

/**
 * Binary split `x ∈ V` (call after `fill`). With two classes present at the node, values are
 * ordered by the share of the first class and only the m-1 prefixes are scored: for concave
 * impurities (Gini, entropy) the best subset is among them (Breiman et al. 1984, Thm 4.5).
 * Otherwise Zaki's EVALUATE-CATEGORICAL-ATTRIBUTE: every V with 1 ≤ |V| ≤ l, each split counted
 * once (a V and its complement are the same split).
 */
export function scanSubsets(
  ctx: ScanContext,
  cc: CategoryCounts,
  maxSubsetSize: number | undefined,
  order: Int32Array,
  out: Candidate,
): void {
  const m = cc.nPresent;
  if (m < 2 || cc.nKnownRows < 2 * ctx.minLeaf) return;
  ctx.setTotals(cc.known);
  const k = cc.k;
  let firstClass = -1;
  let classesPresent = 0;
  for (let c = 0; c < k; c++) {
    if (cc.known[c] > 0) {
      classesPresent++;
      if (firstClass < 0) firstClass = c;
    }
  }
  ctx.table.branches = 2;
  if (classesPresent <= 2) {
    scanOrderedPrefixes(ctx, cc, Math.max(0, firstClass), order, out);
  } else {
    const l = Math.min(maxSubsetSize ?? autoSubsetSize(m), Math.floor(m / 2));
    for (let size = 1; size <= l; size++) scanCombinations(ctx, cc, size, 2 * size === m, order, out);
  }
  out.branches = 2;
  if (out.found) {
    const inV = new Set(out.values);
    out.others = Array.from(cc.present.subarray(0, m)).filter((v) => !inV.has(v));
    if (ctx.missing === 'learned' && out.unknownWeight > 0) addUnknownToBranch(out, out.missingBranch);
  }
}

/**
 * Extra trees' categorical split: a random subset V of the values seen at the node (each value in
 * V with probability 1/2, from `random`; both sides non-empty), scored as it is; no candidate when
 * a side holds fewer than `minLeaf` rows.
 */
export function scanRandomSubset(ctx: ScanContext, cc: CategoryCounts, random: () => number, out: Candidate): void {
  const m = cc.nPresent;
  out.branches = 2;
  if (m < 2 || cc.nKnownRows < 2 * ctx.minLeaf) return;
  ctx.setTotals(cc.known);
  ctx.table.branches = 2;
  loadRightAsKnown(ctx, cc);
  const left: number[] = [];
  const right: number[] = [];
  for (let i = 0; i < m; i++) (random() < 0.5 ? left : right).push(cc.present[i]);
  // Both sides need a value: move one drawn at random across.
  if (left.length === 0) left.push(...right.splice(Math.floor(random() * right.length), 1));
  else if (right.length === 0) right.push(...left.splice(Math.floor(random() * left.length), 1));
  let rows = 0;
  for (const v of left) {
    moveValueLeft(ctx, cc, v);
    rows += cc.rows[v];
  }
  if (rows < ctx.minLeaf || cc.nKnownRows - rows < ctx.minLeaf) return;
  if (!consider(ctx, out, () => left)) return;
  out.others = right;
  if (ctx.missing === 'learned' && out.unknownWeight > 0) addUnknownToBranch(out, out.missingBranch);
}

function loadRightAsKnown(ctx: ScanContext, cc: CategoryCounts): void {
  const k = cc.k;
  const t = ctx.table;
  for (let c = 0; c < k; c++) {
    t.counts[c] = 0;
    t.counts[k + c] = cc.known[c];
  }
  t.branchTotals[0] = 0;
  t.branchTotals[1] = t.total;
}

function moveValueLeft(ctx: ScanContext, cc: CategoryCounts, v: number): void {
  const k = cc.k;
  const t = ctx.table;
  for (let c = 0; c < k; c++) {
    const x = cc.counts[v * k + c];
    t.counts[c] += x;
    t.counts[k + c] -= x;
  }
  t.branchTotals[0] += cc.totals[v];
  t.branchTotals[1] -= cc.totals[v];
}

/**
 * Score the current 2-branch table and keep it if it is the best so far (returns whether it did);
 * `values` builds V lazily (without it, the caller sets `out.values` once its scan is over).
 */
function consider(ctx: ScanContext, out: Candidate, values?: () => number[]): boolean {
  out.tried++;
  const learned = ctx.missing === 'learned' && out.unknownWeight > 0;
  const score = learned ? ctx.scoreLearned(out.unknown, out.unknownWeight) : ctx.score(ctx.table);
  if (beats(score, out.oriented)) {
    out.found = true;
    out.oriented = score;
    out.missingBranch = learned ? ctx.lastMissingBranch : -1;
    out.table.set(ctx.table.counts.subarray(0, 2 * ctx.k));
    if (values) out.values = values();
    return true;
  }
  return false;
}

function scanOrderedPrefixes(
  ctx: ScanContext,
  cc: CategoryCounts,
  cls: number,
  order: Int32Array,
  out: Candidate,
): void {
  const m = cc.nPresent;
  const k = cc.k;
  for (let i = 0; i < m; i++) order[i] = cc.present[i];
  const share = (v: number) => cc.counts[v * k + cls] / cc.totals[v];
  // Sort by share of the first class; equal shares keep code order (deterministic).
  const sorted = Array.from(order.subarray(0, m)).sort((a, b) => share(a) - share(b) || a - b);
  loadRightAsKnown(ctx, cc);
  let leftRows = 0;
  // Only the best prefix's length is kept during the sweep: copying V at every improvement would
  // make the scan quadratic in the number of values (an ID column improves at almost every step).
  let bestLength = 0;
  for (let i = 0; i < m - 1; i++) {
    const v = sorted[i];
    moveValueLeft(ctx, cc, v);
    leftRows += cc.rows[v];
    if (leftRows < ctx.minLeaf || cc.nKnownRows - leftRows < ctx.minLeaf) continue;
    if (ctx.tooLight(ctx.table.branchTotals[0], ctx.table.branchTotals[1])) continue;
    if (consider(ctx, out)) bestLength = i + 1;
  }
  if (bestLength > 0) out.values = sorted.slice(0, bestLength);
}

/**
 * Every V of `size` values among the present ones (indices into `present`, lexicographic order).
 * When `half` (|V| = m/2) only subsets holding the first present value are scored, so that a
 * split and its complement are not both visited.
 */
function scanCombinations(
  ctx: ScanContext,
  cc: CategoryCounts,
  size: number,
  half: boolean,
  idx: Int32Array,
  out: Candidate,
): void {
  const m = cc.nPresent;
  for (let i = 0; i < size; i++) idx[i] = i;
  for (;;) {
    if (!half || idx[0] === 0) {
      loadRightAsKnown(ctx, cc);
      let leftRows = 0;
      for (let i = 0; i < size; i++) {
        const v = cc.present[idx[i]];
        moveValueLeft(ctx, cc, v);
        leftRows += cc.rows[v];
      }
      const { branchTotals } = ctx.table;
      if (
        leftRows >= ctx.minLeaf &&
        cc.nKnownRows - leftRows >= ctx.minLeaf &&
        !ctx.tooLight(branchTotals[0], branchTotals[1])
      ) {
        consider(ctx, out, () => Array.from(idx.subarray(0, size), (i) => cc.present[i]));
      }
    }
    let i = size - 1;
    while (i >= 0 && idx[i] === m - size + i) i--;
    if (i < 0) return;
    idx[i]++;
    for (let j = i + 1; j < size; j++) idx[j] = idx[j - 1] + 1;
  }
}
