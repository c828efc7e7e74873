import type { ShapTree } from './tree-shap.js';

/**
 * Path-dependent TreeSHAP by per-leaf tables: O(L · D) per row and tree instead of Lundberg's
 * O(L · D²), for trees shallow enough that the tables fit a budget (tree-shap.ts does the rest).
 * This file builds a tree's tables; table-shap.ts explains rows with them.
 *
 * A leaf whose path from the root splits on m distinct features j (a feature met twice counts
 * once) contributes, for the subset U of them in the coalition, v · Πⱼ∈U oⱼ · Πⱼ∉U zⱼ, where
 * zⱼ is the product of the shares of the path's edges on j and oⱼ is 1 when the row takes every
 * one of them, else 0. Let S = {j : oⱼ = 1} and P(S) = Πⱼ∉S zⱼ. The Shapley value of a path
 * feature i is then
 *   i ∈ S:  v · (1 − zᵢ) · P(S) · A(S ∖ {i}),     i ∉ S:  −v · P(S) · A(S),
 * with A(T) = Σ_{U ⊆ T} |U|! (m − |U| − 1)! / m! · Πⱼ∈T∖U zⱼ, which depends only on the leaf.
 * A leaf whose zⱼ are all positive keeps B(T) = P(T) · A(T) for all 2^m subsets T of its path:
 * since P(S) = P(S ∖ {i}) / zᵢ, the value of i ∈ S is v · (1 − zᵢ) / zᵢ · B(S ∖ {i}) and that of
 * i ∉ S is −v · B(S), one lookup each. A leaf with some zⱼ = 0 (a branch no training weight
 * reached) keeps A and multiplies P out per row. A row needs its S at each leaf: one bit per path
 * feature, set down the tree node by node.
 */

/** Most table entries (doubles) one tree may keep: a full depth-8 binary tree's 256 leaves × 2^8. */
const MAX_ENTRIES = 1 << 16;
/** Deeper trees are left to tree-shap.ts without looking further. */
const MAX_DEPTH = 16;

/**
 * A tree's leaf tables: what table-shap.ts reads, built once per tree by {@link buildLeafTables}.
 * Per-split arrays are indexed by the split's place in `splits`; per-leaf ones by the leaf's in `leaves`.
 */
export interface LeafTables {
  readonly tree: ShapTree;
  /** Split nodes, each after its parent. */
  readonly splits: Int32Array;
  /** Per split: its feature, first child and number of branches (the tree's, kept together). */
  readonly splitFeature: Int32Array;
  readonly splitFirst: Int32Array;
  readonly splitBranches: Int32Array;
  /** Per split: `binaryCut` of the tree (NaN when the tree's own routing decides). */
  readonly cut: Float64Array;
  /** Per split: the bit of its feature's slot on the path, set when a row agrees if the feature is new there. */
  readonly setBit: Int32Array;
  /** Per split: the bit of its feature's slot (cleared when a row takes another branch). */
  readonly slotBit: Int32Array;
  /** Leaves with a non-zero value. */
  readonly leaves: Int32Array;
  /** Leaves whose value is zero everywhere: they add nothing. */
  readonly silent: Int32Array;
  /** Per leaf: its number of path features m. */
  readonly width: Uint8Array;
  /** Per leaf: 1 when its table holds B (every zⱼ > 0), 0 when it holds A. */
  readonly direct: Uint8Array;
  /** Per leaf: where its m slots start in the slot arrays. */
  readonly slotStart: Int32Array;
  /** Per slot: its feature × classes (an offset into a row's contributions), zⱼ and (1 − zⱼ) / zⱼ. */
  readonly slotOut: Int32Array;
  readonly slotZero: Float64Array;
  readonly slotRatio: Float64Array;
  /** Per leaf: where its 2^m entries start in `table`. */
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
  const splits: number[] = [];
  const setBit: number[] = [];
  const slotBit: number[] = [];
  const leaves: number[] = [];
  const silent: number[] = [];
  let entries = 0;
  for (const v of order) {
    if (tree.isLeaf(v)) {
      if (zeroValue(tree, v)) silent.push(v);
      else {
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
    slotBit.push(1 << slot[v]);
    setBit.push(isNew ? 1 << slot[v] : 0);
    const first = tree.firstChild[v];
    for (let c = 0; c < tree.branches[v]; c++) {
      parent[first + c] = v;
      slotsAbove[first + c] = slotsAbove[v] + (isNew ? 1 : 0);
    }
  }
  const s = Int32Array.from(splits);
  const nodes = {
    splits: s,
    splitFeature: s.map((v) => tree.feature[v]),
    splitFirst: s.map((v) => tree.firstChild[v]),
    splitBranches: s.map((v) => tree.branches[v]),
    cut: Float64Array.from(splits, (v) => tree.binaryCut(v)),
    setBit: Int32Array.from(setBit),
    slotBit: Int32Array.from(slotBit),
    silent: Int32Array.from(silent),
  };
  return { tree, ...nodes, ...fillLeaves(tree, leaves, { parent, slot, slotsAbove }, entries) };
}

type LeafPart = Omit<LeafTables, 'tree' | 'splits' | 'splitFeature' | 'splitFirst' | 'splitBranches' | 'cut'>;

/** The tables' leaf part: each leaf's path features, zero fractions and its table. */
function fillLeaves(
  tree: ShapTree,
  leaves: number[],
  walk: { parent: Int32Array; slot: Int32Array; slotsAbove: Int32Array },
  entries: number,
): Omit<LeafPart, 'setBit' | 'slotBit' | 'silent'> {
  const { parent, slot, slotsAbove } = walk;
  const width = new Uint8Array(leaves.length);
  const direct = new Uint8Array(leaves.length);
  const slotStart = new Int32Array(leaves.length + 1);
  let widest = 0;
  for (let l = 0; l < leaves.length; l++) {
    width[l] = slotsAbove[leaves[l]];
    widest = Math.max(widest, width[l]);
    slotStart[l + 1] = slotStart[l] + width[l];
  }
  const slots = slotStart[leaves.length];
  const slotOut = new Int32Array(slots);
  const slotZero = new Float64Array(slots).fill(1);
  const slotRatio = new Float64Array(slots);
  const tableStart = new Int32Array(leaves.length);
  const table = new Float64Array(entries);
  const scratch = new SubsetSums(widest);
  let at = 0;
  for (let l = 0; l < leaves.length; l++) {
    const s = slotStart[l];
    for (let v = leaves[l], u = parent[v]; u >= 0; v = u, u = parent[u]) {
      slotOut[s + slot[u]] = tree.feature[u] * tree.classes;
      slotZero[s + slot[u]] *= tree.share[v];
    }
    direct[l] = 1;
    for (let j = s; j < s + width[l]; j++) {
      if (slotZero[j] > 0) slotRatio[j] = (1 - slotZero[j]) / slotZero[j];
      else direct[l] = 0;
    }
    tableStart[l] = at;
    scratch.fill(slotZero, s, width[l], direct[l] === 1, table, at);
    at += 2 ** width[l];
  }
  return {
    leaves: Int32Array.from(leaves),
    width,
    direct,
    slotStart,
    slotOut,
    slotZero,
    slotRatio,
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

/** Computes A(T), or B(T) = P(T) · A(T), of every subset T of a leaf's path features (see the top of this file). */
class SubsetSums {
  /** e[T * (maxWidth + 1) + r]: the r-th elementary symmetric sum of the zero fractions in T. */
  private readonly e: Float64Array;
  private readonly stride: number;
  private readonly coefficient: Float64Array;
  /** product[T]: Πⱼ∈T zⱼ. */
  private readonly product: Float64Array;

  constructor(maxWidth: number) {
    this.stride = maxWidth + 1;
    this.e = new Float64Array((1 << maxWidth) * this.stride);
    this.coefficient = new Float64Array(this.stride);
    this.product = new Float64Array(1 << maxWidth);
  }

  /**
   * A(T), times P(T) when `timesOutside`, for T = 0 … 2^m − 1 (bit j = slot j) into
   * `out[at + T]`; the full set's entry is unused (0).
   */
  fill(zero: Float64Array, from: number, m: number, timesOutside: boolean, out: Float64Array, at: number): void {
    const { e, stride, coefficient, product } = this;
    // |U|! (m − |U| − 1)! / m! = 1 / (m · C(m − 1, |U|)).
    let binomial = 1;
    for (let u = 0; u < m; u++) {
      coefficient[u] = 1 / (m * binomial);
      binomial = (binomial * (m - 1 - u)) / (u + 1);
    }
    e[0] = 1;
    for (let r = 1; r <= m; r++) e[r] = 0;
    product[0] = 1;
    const full = (1 << m) - 1;
    out[at] = m > 0 ? coefficient[0] : 0;
    for (let t = 1; t <= full; t++) {
      const j = 31 - Math.clz32(t);
      const z = zero[from + j];
      const base = (t ^ (1 << j)) * stride;
      const row = t * stride;
      product[t] = product[t ^ (1 << j)] * z;
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
    if (timesOutside) for (let t = 0; t < full; t++) out[at + t] *= product[full ^ t];
  }
}

function popcount(x: number): number {
  let n = 0;
  for (let y = x; y !== 0; y &= y - 1) n++;
  return n;
}
