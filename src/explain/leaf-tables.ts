import { NO_BRANCH } from '../model/route.js';
import type { ShapTree } from './tree-shap.js';

/**
 * Path-dependent TreeSHAP by per-leaf tables: O(L · D) per row and tree instead of Lundberg's
 * O(L · D²), for trees shallow enough that the tables fit a budget (tree-shap.ts does the rest).
 *
 * A leaf whose path from the root splits on m distinct features j (a feature met twice counts
 * once) contributes, for the subset U of them in the coalition, v · Πⱼ∈U oⱼ · Πⱼ∉U zⱼ, where
 * zⱼ is the product of the shares of the path's edges on j and oⱼ is 1 when the row takes every
 * one of them, else 0. Let S = {j : oⱼ = 1} and P = Πⱼ∉S zⱼ. The Shapley value of a path
 * feature i is then
 *   i ∈ S:  v · (1 − zᵢ) · P · A(S ∖ {i}),     i ∉ S:  −v · P · A(S),
 * with A(T) = Σ_{U ⊆ T} |U|! (m − |U| − 1)! / m! · Πⱼ∈T∖U zⱼ, which depends only on the leaf.
 * So each leaf keeps A of all 2^m subsets T of its path, and a row needs its S at each leaf (one
 * bit per path feature, set down the tree node by node), P, and m lookups.
 *
 * A row that C4.5's fractional policy spreads at some node (no branch for it) changes the path
 * itself; such a row is left to tree-shap.ts for that tree.
 */

/** Most table entries (doubles) one tree may keep: a full depth-8 binary tree's 256 leaves × 2^8. */
const MAX_ENTRIES = 1 << 16;
/** Deeper trees are left to tree-shap.ts without looking further. */
const MAX_DEPTH = 16;

/** A tree's leaf tables: what `explainByTables` reads, built once per tree by {@link buildLeafTables}. */
export interface LeafTables {
  readonly tree: ShapTree;
  /** Split nodes, each after its parent. */
  readonly splits: Int32Array;
  /** Per node: the bit of its split feature's slot on the path, set when a row agrees if the feature is new there. */
  readonly setBit: Int32Array;
  /** Per node: the bit of its split feature's slot (cleared when a row takes another branch). */
  readonly slotBit: Int32Array;
  /** Leaves with a non-zero value. */
  readonly leaves: Int32Array;
  /** Per leaf (index into `leaves`): its number of path features m. */
  readonly width: Uint8Array;
  /** Per leaf: where its m features and zero fractions start in `slotFeature` and `slotZero`. */
  readonly slotStart: Int32Array;
  readonly slotFeature: Int32Array;
  readonly slotZero: Float64Array;
  /** Per leaf: where its 2^m entries of A start in `table`. */
  readonly tableStart: Int32Array;
  readonly table: Float64Array;
}

/** The tables of `tree`, or null when it is too deep or they would exceed the budget. */
export function buildLeafTables(tree: ShapTree): LeafTables | null {
  const order = parentFirst(tree);
  if (order === null) return null;
  const n = tree.feature.length;
  const parent = new Int32Array(n).fill(-1);
  const slot = new Int32Array(n);
  const slotsAbove = new Int32Array(n);
  const setBit = new Int32Array(n);
  const slotBit = new Int32Array(n);
  const splits: number[] = [];
  const leaves: number[] = [];
  let entries = 0;
  for (const v of order) {
    if (tree.isLeaf(v)) {
      if (!zeroValue(tree, v)) {
        leaves.push(v);
        entries += 2 ** slotsAbove[v];
        if (entries > MAX_ENTRIES) return null;
      }
      continue;
    }
    splits.push(v);
    let u = parent[v];
    while (u >= 0 && tree.feature[u] !== tree.feature[v]) u = parent[u];
    const isNew = u < 0;
    slot[v] = isNew ? slotsAbove[v] : slot[u];
    slotBit[v] = 1 << slot[v];
    setBit[v] = isNew ? slotBit[v] : 0;
    const first = tree.firstChild[v];
    for (let c = 0; c < tree.branches[v]; c++) {
      parent[first + c] = v;
      slotsAbove[first + c] = slotsAbove[v] + (isNew ? 1 : 0);
    }
  }
  return fillLeaves(
    tree,
    { splits: Int32Array.from(splits), setBit, slotBit },
    leaves,
    { parent, slot, slotsAbove },
    entries,
  );
}

/** The tables' leaf part: each leaf's path features, zero fractions and A. */
function fillLeaves(
  tree: ShapTree,
  nodes: Pick<LeafTables, 'splits' | 'setBit' | 'slotBit'>,
  leaves: number[],
  walk: { parent: Int32Array; slot: Int32Array; slotsAbove: Int32Array },
  entries: number,
): LeafTables {
  const { parent, slot, slotsAbove } = walk;
  const width = new Uint8Array(leaves.length);
  const slotStart = new Int32Array(leaves.length + 1);
  let widest = 0;
  for (let l = 0; l < leaves.length; l++) {
    width[l] = slotsAbove[leaves[l]];
    widest = Math.max(widest, width[l]);
    slotStart[l + 1] = slotStart[l] + width[l];
  }
  const slotFeature = new Int32Array(slotStart[leaves.length]);
  const slotZero = new Float64Array(slotStart[leaves.length]).fill(1);
  const tableStart = new Int32Array(leaves.length);
  const table = new Float64Array(entries);
  const scratch = new SubsetSums(widest);
  let at = 0;
  for (let l = 0; l < leaves.length; l++) {
    const s = slotStart[l];
    for (let v = leaves[l], u = parent[v]; u >= 0; v = u, u = parent[u]) {
      slotFeature[s + slot[u]] = tree.feature[u];
      slotZero[s + slot[u]] *= tree.share[v];
    }
    tableStart[l] = at;
    scratch.fill(slotZero, s, width[l], table, at);
    at += 2 ** width[l];
  }
  return {
    tree,
    ...nodes,
    leaves: Int32Array.from(leaves),
    width,
    slotStart,
    slotFeature,
    slotZero,
    tableStart,
    table,
  };
}

/** Split and leaf nodes reachable from the root, each after its parent; null past MAX_DEPTH. */
function parentFirst(tree: ShapTree): number[] | null {
  const order: number[] = [];
  const stack = [0];
  const depth = [0];
  while (stack.length > 0) {
    const v = stack.pop()!;
    const d = depth.pop()!;
    order.push(v);
    if (tree.isLeaf(v)) continue;
    if (d >= MAX_DEPTH) return null;
    const first = tree.firstChild[v];
    for (let c = tree.branches[v] - 1; c >= 0; c--) {
      stack.push(first + c);
      depth.push(d + 1);
    }
  }
  return order;
}

function zeroValue(tree: ShapTree, leaf: number): boolean {
  const k = tree.classes;
  for (let c = 0; c < k; c++) if (tree.proba[leaf * k + c] !== 0) return false;
  return true;
}

/** Computes A(T) of every subset T of a leaf's path features (see the top of this file). */
class SubsetSums {
  /** e[T * (maxWidth + 1) + r]: the r-th elementary symmetric sum of the zero fractions in T. */
  private readonly e: Float64Array;
  private readonly stride: number;
  private readonly coefficient: Float64Array;

  constructor(maxWidth: number) {
    this.stride = maxWidth + 1;
    this.e = new Float64Array((1 << maxWidth) * this.stride);
    this.coefficient = new Float64Array(this.stride);
  }

  /** A(T) for T = 0 … 2^m − 1 (bit j = slot j) into `out[at + T]`; the full set's entry is unused (0). */
  fill(zero: Float64Array, from: number, m: number, out: Float64Array, at: number): void {
    const { e, stride, coefficient } = this;
    // |U|! (m − |U| − 1)! / m! = 1 / (m · C(m − 1, |U|)).
    let binomial = 1;
    for (let u = 0; u < m; u++) {
      coefficient[u] = 1 / (m * binomial);
      binomial = (binomial * (m - 1 - u)) / (u + 1);
    }
    e[0] = 1;
    for (let r = 1; r <= m; r++) e[r] = 0;
    const full = (1 << m) - 1;
    out[at] = m > 0 ? coefficient[0] : 0;
    for (let t = 1; t <= full; t++) {
      const j = 31 - Math.clz32(t);
      const z = zero[from + j];
      const base = (t ^ (1 << j)) * stride;
      const row = t * stride;
      e[row] = 1;
      for (let r = 1; r <= m; r++) e[row + r] = e[base + r] + z * e[base + r - 1];
      if (t === full) {
        out[at + t] = 0;
        continue;
      }
      const size = popcount(t);
      let a = 0;
      for (let r = 0; r <= size; r++) a += coefficient[size - r] * e[row + r];
      out[at + t] = a;
    }
  }
}

function popcount(x: number): number {
  let n = 0;
  for (let y = x; y !== 0; y &= y - 1) n++;
  return n;
}

/** Per-thread scratch for {@link explainByTables}: per node, the row's agreement bits and a sum. */
export class TableScratch {
  bits = new Int32Array(64);
  /** sums[node * k + c]: Σ over the node's leaves of their off-path contribution × value. */
  sums = new Float64Array(64);

  reserve(n: number, k: number): void {
    if (this.bits.length < n) this.bits = new Int32Array(Math.max(n, this.bits.length * 2));
    if (this.sums.length < n * k) this.sums = new Float64Array(Math.max(n * k, this.sums.length * 2));
  }
}

/**
 * Add `weight` × row i's contributions of the tree of `tables` into `out[offset + f * k + c]`,
 * as `TreeShapExplainer.explainRow` does; false (and nothing added) when the row is spread at some
 * node, which the tables cannot explain.
 */
export function explainByTables(
  tables: LeafTables,
  scratch: TableScratch,
  columns: Parameters<ShapTree['branchAt']>[0],
  i: number,
  out: Float64Array,
  offset: number,
  weight: number,
): boolean {
  const { tree, splits, setBit, slotBit } = tables;
  const n = tree.feature.length;
  const k = tree.classes;
  scratch.reserve(n, k);
  const { bits, sums } = scratch;
  const { firstChild, branches } = tree;
  bits[0] = 0;
  for (let q = 0; q < splits.length; q++) {
    const v = splits[q];
    const b = tree.branchAt(columns, i, v);
    if (b === NO_BRANCH) return false;
    const base = bits[v];
    const other = base & ~slotBit[v];
    const first = firstChild[v];
    for (let c = branches[v] - 1; c >= 0; c--) bits[first + c] = other;
    bits[first + b] = base | setBit[v];
  }
  sums.fill(0, 0, n * k);
  addLeaves(tables, bits, sums, out, offset, weight);
  addOffPath(tables, sums, out, offset);
  return true;
}

/**
 * Every leaf's contributions to the features the row agrees with (S) into `out`, and its
 * contribution to each of the others, the same for all of them, × its value into `sums`.
 */
function addLeaves(
  tables: LeafTables,
  bits: Int32Array,
  sums: Float64Array,
  out: Float64Array,
  offset: number,
  weight: number,
): void {
  const { tree, leaves, width, slotStart, slotFeature, slotZero, tableStart, table } = tables;
  const k = tree.classes;
  const proba = tree.proba;
  for (let l = 0; l < leaves.length; l++) {
    const leaf = leaves[l];
    const s = bits[leaf];
    const from = slotStart[l];
    let outside = weight;
    for (let r = ~s & ((1 << width[l]) - 1); r !== 0; r &= r - 1) outside *= slotZero[from + lowBit(r)];
    if (outside === 0) continue;
    const t = tableStart[l];
    // Every path feature first gets the off-path value (through `sums`); S's get the difference.
    const off = -outside * table[t + s];
    const at = leaf * k;
    for (let c = 0; c < k; c++) sums[at + c] = off * proba[at + c];
    for (let r = s; r !== 0; r &= r - 1) {
      const j = lowBit(r);
      const phi = (1 - slotZero[from + j]) * outside * table[t + (s ^ (1 << j))] - off;
      const o = offset + slotFeature[from + j] * k;
      for (let c = 0; c < k; c++) out[o + c] += phi * proba[at + c];
    }
  }
}

/**
 * The off-path part: each split where a feature first appears on the way down gives that feature
 * the sum over the leaves below it (a leaf's path features are those of such splits above it).
 */
function addOffPath(tables: LeafTables, sums: Float64Array, out: Float64Array, offset: number): void {
  const { tree, splits, setBit } = tables;
  const { firstChild, branches, feature } = tree;
  const k = tree.classes;
  for (let q = splits.length - 1; q >= 0; q--) {
    const v = splits[q];
    const first = firstChild[v];
    const at = v * k;
    for (let b = 0; b < branches[v]; b++) for (let c = 0; c < k; c++) sums[at + c] += sums[(first + b) * k + c];
    if (setBit[v] === 0) continue;
    const o = offset + feature[v] * k;
    for (let c = 0; c < k; c++) out[o + c] += sums[at + c];
  }
}

/** Index of the lowest set bit of r (r ≠ 0). */
function lowBit(r: number): number {
  return 31 - Math.clz32(r & -r);
}
