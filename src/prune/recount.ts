import type { Dataset } from '../data/dataset.js';
import { total } from '../model/compact.js';
import type { TreeNode } from '../model/node.js';
import { rowRouter } from '../model/route.js';
import type { Split } from '../model/split.js';
import type { TreeStore } from '../model/store.js';
import { shapeOf, type TreeShape } from '../model/tree-shape.js';
import type { MissingPolicy } from '../options/options.js';

/** Rows with a weight each: what reaches a node. */
export interface WeightedRows {
  rows: Int32Array;
  w: Float64Array;
}

/**
 * Where rows whose branch is unknown at a node (missing value, or a category the split has no
 * branch for) go:
 * - the node's `missingBranch` when it has one (the grower sets it under `majority` and `learned`);
 * - else, `fractional` (C4.5): down every branch, the weight multiplied by the branch's share;
 * - else (an older model without `missingBranch`): all of it down the heaviest branch (ties: the first).
 * Shares come from the known-value weight of the rows being routed (`routed`: C4.5's rule while
 * it prunes, and the grower's) or from the children's stored training weight (`stored`: for rows
 * that did not train the tree, e.g. validation or test rows). When the chosen source is all
 * zero, the other is used; when both are, the branches share equally.
 */
export interface RouteOptions {
  missing: MissingPolicy;
  shares: 'routed' | 'stored';
}

/**
 * Send the rows reaching a node with `split` down its branches.
 * @param storedTotals training weight of each child (used for `shares: 'stored'`, and as fallback)
 * @param missingBranch the node's `missingBranch` (undefined: none)
 */
export function splitRows(
  split: Split,
  storedTotals: readonly number[],
  data: Dataset,
  at: WeightedRows,
  opts: RouteOptions,
  missingBranch?: number,
): WeightedRows[] {
  return routeSplit(split, storedTotals.length, () => storedTotals, data, at, opts, missingBranch).parts;
}

/** `splitRows`'s branches (`parts`), the known-value weight sent down each, and how many rows had an unknown branch. */
export interface RoutedRows {
  parts: WeightedRows[];
  known: Float64Array;
  unknown: number;
}

/**
 * `splitRows` into `B` branches, telling also how many of the rows had an unknown branch (shared
 * out as `opts` says). `storedTotals` is asked for only when some row's branch is unknown.
 */
export function routeSplit(
  split: Split,
  B: number,
  storedTotals: () => readonly number[],
  data: Dataset,
  at: WeightedRows,
  opts: RouteOptions,
  missingBranch?: number,
): RoutedRows {
  const m = at.rows.length;
  const { rows, w } = at;
  const branch = new Int32Array(m);
  const branchOfRow = rowRouter(split, data);
  for (let i = 0; i < m; i++) branch[i] = branchOfRow(rows[i]);
  const known = new Float64Array(B);
  const sizes = new Int32Array(B);
  let unknown = 0;
  for (let i = 0; i < m; i++) {
    const b = branch[i];
    if (b < 0) unknown++;
    else {
      known[b] += w[i];
      sizes[b]++;
    }
  }
  const shares = unknown > 0 ? unknownShares(Array.from(known), storedTotals(), opts, missingBranch) : [];
  for (let b = 0; b < shares.length; b++) if (shares[b] > 0) sizes[b] += unknown;
  // The branches' rows lie one after another in one pair of arrays (part b from `sizes`' prefix sums).
  const start = new Int32Array(B + 1);
  for (let b = 0; b < B; b++) start[b + 1] = start[b] + sizes[b];
  const outRows = new Int32Array(start[B]);
  const outW = new Float64Array(start[B]);
  const fill = start.slice(0, B);
  for (let i = 0; i < m; i++) {
    const b = branch[i];
    if (b >= 0) {
      const j = fill[b]++;
      outRows[j] = rows[i];
      outW[j] = w[i];
    } else {
      for (let c = 0; c < B; c++) {
        if (!(shares[c] > 0)) continue;
        const j = fill[c]++;
        outRows[j] = rows[i];
        outW[j] = w[i] * shares[c];
      }
    }
  }
  const parts: WeightedRows[] = [];
  for (let b = 0; b < B; b++)
    parts.push({ rows: outRows.subarray(start[b], start[b + 1]), w: outW.subarray(start[b], start[b + 1]) });
  return { parts, known, unknown };
}

/** The share of a row's weight each branch gets when its branch is unknown (`RouteOptions`). */
function unknownShares(
  knownW: number[],
  storedTotals: readonly number[],
  opts: RouteOptions,
  missingBranch: number | undefined,
): number[] {
  const B = storedTotals.length;
  const primary = opts.shares === 'routed' ? knownW : storedTotals;
  const fallback = opts.shares === 'routed' ? storedTotals : knownW;
  const base = total(primary) > 0 ? primary : total(fallback) > 0 ? fallback : new Array<number>(B).fill(1);
  if (missingBranch !== undefined && missingBranch >= 0 && missingBranch < B)
    return base.map((_, b) => (b === missingBranch ? 1 : 0));
  if (opts.missing === 'fractional') {
    const sum = total(base);
    return base.map((x) => x / sum);
  }
  let heaviest = 0;
  for (let b = 1; b < B; b++) if (base[b] > base[heaviest]) heaviest = b;
  return base.map((_, b) => (b === heaviest ? 1 : 0));
}

/** Class weights of rows: one entry per class. */
export function classCounts(data: Dataset, at: WeightedRows, k: number): number[] {
  const counts = new Array<number>(k).fill(0);
  for (let i = 0; i < at.rows.length; i++) counts[data.labels[at.rows[i]]] += at.w[i];
  return counts;
}

/**
 * All rows of `data` (or `rows`) with their weights, leaving out rows of weight 0: as in growing,
 * they reach no node (they would count in `n` and nowhere else).
 */
export function weightedRows(weights: ArrayLike<number>, rows?: ArrayLike<number>): WeightedRows {
  const m = rows ? rows.length : weights.length;
  let kept = 0;
  for (let i = 0; i < m; i++) if (weights[rows ? rows[i] : i] !== 0) kept++;
  const idx = new Int32Array(kept);
  const w = new Float64Array(kept);
  for (let i = 0, j = 0; i < m; i++) {
    const r = rows ? rows[i] : i;
    if (weights[r] === 0) continue;
    idx[j] = r;
    w[j++] = weights[r];
  }
  return { rows: idx, w };
}

/**
 * Route weighted rows through a tree: per node, the class weights (`counts[node][class]`) and the
 * number of rows (`n[node]`, a row split across branches counts once in each) that reach it.
 */
export function routeRows(
  nodes: readonly TreeNode[],
  data: Dataset,
  weights: ArrayLike<number>,
  rows: ArrayLike<number> | undefined,
  opts: RouteOptions,
): { counts: number[][]; n: number[] } {
  const k = data.classes.length;
  const counts = nodes.map(() => new Array<number>(k).fill(0));
  const n = new Array<number>(nodes.length).fill(0);
  routeEach(shapeOf(nodes), data, weights, rows, opts, (id, at) => {
    const c = counts[id];
    for (let i = 0; i < at.rows.length; i++) c[data.labels[at.rows[i]]] += at.w[i];
    n[id] += at.rows.length;
  });
  return { counts, n };
}

/**
 * Route weighted rows through a tree (as `routeRows` does): `visit(id, at)` gets the rows reaching
 * each node they reach, once per node.
 */
function routeEach(
  tree: TreeShape,
  data: Dataset,
  weights: ArrayLike<number>,
  rows: ArrayLike<number> | undefined,
  opts: RouteOptions,
  visit: (id: number, at: WeightedRows) => void,
): void {
  const pending: Array<[id: number, at: WeightedRows]> = [[0, weightedRows(weights, rows)]];
  while (pending.length > 0) {
    const [id, at] = pending.pop()!;
    visit(id, at);
    const B = tree.branches(id);
    if (B === 0 || at.rows.length === 0) continue;
    const stored = Array.from({ length: B }, (_, b) => tree.total(tree.child(id, b)));
    const parts = splitRows(tree.split(id)!, stored, data, at, opts, tree.missingBranch(id));
    for (let b = 0; b < B; b++) pending.push([tree.child(id, b), parts[b]]);
  }
}

/**
 * Per node of `tree`, the weight of `rows` reaching it (`total`, its per-class sums added in class
 * order, as `total(routeRows(…).counts[id])` adds them) and the part of it of the node's majority
 * class (`majority`): a leaf's test errors are their difference. Memory per node, not per class.
 */
export function reachOfMajority(
  tree: TreeStore | readonly TreeNode[],
  data: Dataset,
  weights: ArrayLike<number>,
  rows: ArrayLike<number> | undefined,
  opts: RouteOptions,
): { total: Float64Array; majority: Float64Array } {
  const shape = shapeOf(tree);
  const reach = new Float64Array(shape.size);
  const hit = new Float64Array(shape.size);
  const sums = new Float64Array(data.classes.length);
  const seen = new Uint8Array(data.classes.length);
  // Each class at most once per node (`seen`).
  const touched = new Int32Array(data.classes.length);
  routeEach(shape, data, weights, rows, opts, (id, at) => {
    let p = 0;
    for (let i = 0; i < at.rows.length; i++) {
      const c = data.labels[at.rows[i]];
      if (!seen[c]) {
        seen[c] = 1;
        touched[p++] = c;
      }
      sums[c] += at.w[i];
    }
    const present = touched.subarray(0, p).sort();
    let s = 0;
    for (let j = 0; j < p; j++) s += sums[present[j]];
    reach[id] = s;
    hit[id] = sums[shape.majority(id)];
    for (let j = 0; j < p; j++) {
      sums[present[j]] = 0;
      seen[present[j]] = 0;
    }
  });
  return { total: reach, majority: hit };
}

/**
 * Recompute every node's `counts` and `n` by routing the weighted training rows through the tree
 * (unknown branches: C4.5's rule, shares from the known-value weight of the routed rows, see
 * `RouteOptions`). Returns new node objects (their other arrays are the input's, as
 * compact.ts explains); the input is not modified.
 */
export function recount(
  nodes: readonly TreeNode[],
  data: Dataset,
  weights: ArrayLike<number>,
  rows?: ArrayLike<number>,
  missing: MissingPolicy = 'fractional',
): TreeNode[] {
  const routed = routeRows(nodes, data, weights, rows, { missing, shares: 'routed' });
  return nodes.map((node, i) => ({ ...node, counts: routed.counts[i], n: routed.n[i] }));
}
