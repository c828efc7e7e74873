import type { AlignedColumn } from '../model/align.js';
import { NO_BRANCH } from '../model/route.js';
import type { LeafTables } from './leaf-tables.js';

/**
 * Rows explained with a tree's leaf tables (built and explained in leaf-tables.ts), a group of
 * rows at a time and node by node, so that a leaf's table stays in the nearest cache while every
 * row of the group reads it: one pass down the splits sets each row's agreement bits S at every
 * node; one pass over the leaves adds the values of S's features and leaves the off-path value
 * (the same for every feature outside S) in `sums`; one pass up the splits adds those sums to the
 * feature of each split where it first appears on the way down (a leaf's path features are those
 * of such splits above it). A row's additions come in the same order whatever the group.
 */

/** Most entries of `sums` (nodes × rows × classes) a group of rows may use. */
const SUMS_BUDGET = 1 << 16;

/** Per-thread scratch: per node and row of a group, the agreement bits and off-path sums. */
export class TableScratch {
  /** bits[node * group + r]. */
  bits = new Int32Array(64);
  /** sums[(node * group + r) * k + c]: Σ over the node's leaves of their off-path contribution × value. */
  sums = new Float64Array(64);
  /** handed[r]: row r of the block is spread at some node (left to Lundberg's walk). */
  handed = new Uint8Array(64);
  /** One row's values, for `explainByTables`. */
  row = new Float64Array(64);

  reserve(bits: number, sums: number, rows: number): void {
    if (this.bits.length < bits) this.bits = new Int32Array(Math.max(bits, this.bits.length * 2));
    if (this.sums.length < sums) this.sums = new Float64Array(Math.max(sums, this.sums.length * 2));
    if (this.handed.length < rows) this.handed = new Uint8Array(Math.max(rows, this.handed.length * 2));
  }
}

/** Rows [from, to) of `columns` as numbers, column by column: `out[f * (to − from) + (i − from)]`. */
export function columnBlock(columns: AlignedColumn[], from: number, to: number, out: Float64Array): void {
  const n = to - from;
  for (let f = 0; f < columns.length; f++) {
    const column = columns[f];
    for (let i = from, at = f * n; i < to; i++, at++) out[at] = column[i];
  }
}

/**
 * Add `weight` × the contributions of the tree of `tables` for rows [from, to) into
 * `out[(i − from) * stride + f * k + c]` (stride = features × classes), as
 * `TreeShapExplainer.explainRow` does. `block` holds the same rows (`columnBlock`). A row spread
 * at some node (C4.5's fractional policy), which the tables cannot explain, gets nothing and
 * `scratch.handed[i − from] = 1`; returns how many were.
 */
export function explainRowsByTables(
  tables: LeafTables,
  scratch: TableScratch,
  columns: AlignedColumn[],
  block: Float64Array,
  from: number,
  to: number,
  out: Float64Array,
  weight: number,
): number {
  const n = tables.tree.feature.length;
  const k = tables.tree.classes;
  const group = Math.max(1, Math.min(to - from, Math.floor(SUMS_BUDGET / (n * k))));
  scratch.reserve(n * group, n * group * k, to - from);
  let handed = 0;
  for (let g = from; g < to; g += group) {
    const end = Math.min(to, g + group);
    const spread = setBits(tables, scratch, columns, block, from, to, g, end);
    handed += spread;
    addLeaves(tables, scratch, g - from, end - g, columns.length * k, out, weight, spread > 0);
    addOffPath(tables, scratch, g - from, end - g, columns.length * k, out, spread > 0);
  }
  return handed;
}

/** Each row's agreement bits at every node, for rows [g, end) of the block [from, to); the number spread. */
function setBits(
  tables: LeafTables,
  scratch: TableScratch,
  columns: AlignedColumn[],
  block: Float64Array,
  from: number,
  to: number,
  g: number,
  end: number,
): number {
  const { tree, splits, splitFeature, splitFirst, splitBranches, cut, setBit, slotBit } = tables;
  const { bits, handed } = scratch;
  const size = end - g;
  const rows = to - from;
  const r0 = g - from;
  let spread = 0;
  for (let r = 0; r < size; r++) {
    bits[r] = 0;
    handed[r0 + r] = 0;
  }
  for (let q = 0; q < splits.length; q++) {
    const x0 = splitFeature[q] * rows + r0;
    const t = cut[q];
    const at = splits[q] * size;
    const other = ~slotBit[q];
    const set = setBit[q];
    const first = splitFirst[q] * size;
    const branches = splitBranches[q];
    for (let r = 0; r < size; r++) {
      const x = block[x0 + r];
      const base = bits[at + r];
      let b: number;
      if (x > t) b = 1;
      else if (x <= t) b = 0;
      else {
        b = tree.branchAt(columns, g + r, splits[q]);
        if (b === NO_BRANCH) {
          if (handed[r0 + r] === 0) spread++;
          handed[r0 + r] = 1;
          b = 0;
        }
      }
      if (branches === 2) {
        bits[first + r] = b === 0 ? base | set : base & other;
        bits[first + size + r] = b === 1 ? base | set : base & other;
        continue;
      }
      for (let c = 0; c < branches; c++) bits[first + c * size + r] = base & other;
      bits[first + b * size + r] = base | set;
    }
  }
  return spread;
}

/**
 * Every leaf's contributions to the features each row agrees with (S) into `out`, and its
 * contribution to each of the others, the same for all of them, × its value into `sums`.
 */
function addLeaves(
  tables: LeafTables,
  scratch: TableScratch,
  r0: number,
  size: number,
  stride: number,
  out: Float64Array,
  weight: number,
  anyHanded: boolean,
): void {
  const { tree, leaves, silent, direct, slotStart, slotOut, slotRatio, tableStart, table } = tables;
  const { bits, sums, handed } = scratch;
  const k = tree.classes;
  const proba = tree.proba;
  for (let l = 0; l < leaves.length; l++) {
    const leaf = leaves[l];
    if (direct[l] === 0) {
      addLeafByProducts(tables, scratch, l, r0, size, stride, out, weight);
      continue;
    }
    const from = slotStart[l];
    const t = tableStart[l];
    const at = leaf * k;
    // The first three classes' values held apart: most models have two or three classes.
    const p0 = proba[at];
    const p1 = k > 1 ? proba[at + 1] : 0;
    const p2 = k > 2 ? proba[at + 2] : 0;
    for (let r = 0; r < size; r++) {
      if (anyHanded && handed[r0 + r] === 1) continue;
      const s = bits[leaf * size + r];
      // Every path feature first gets the off-path value (through `sums`); S's get the difference.
      const off = -weight * table[t + s];
      const sum = (leaf * size + r) * k;
      const o = (r0 + r) * stride;
      if (k === 3) {
        sums[sum] = off * p0;
        sums[sum + 1] = off * p1;
        sums[sum + 2] = off * p2;
        for (let m = s; m !== 0; m &= m - 1) {
          const j = lowBit(m);
          const phi = weight * slotRatio[from + j] * table[t + (s ^ (1 << j))] - off;
          const oj = o + slotOut[from + j];
          out[oj] += phi * p0;
          out[oj + 1] += phi * p1;
          out[oj + 2] += phi * p2;
        }
      } else if (k === 2) {
        sums[sum] = off * p0;
        sums[sum + 1] = off * p1;
        for (let m = s; m !== 0; m &= m - 1) {
          const j = lowBit(m);
          const phi = weight * slotRatio[from + j] * table[t + (s ^ (1 << j))] - off;
          const oj = o + slotOut[from + j];
          out[oj] += phi * p0;
          out[oj + 1] += phi * p1;
        }
      } else {
        for (let c = 0; c < k; c++) sums[sum + c] = off * proba[at + c];
        for (let m = s; m !== 0; m &= m - 1) {
          const j = lowBit(m);
          const phi = weight * slotRatio[from + j] * table[t + (s ^ (1 << j))] - off;
          const oj = o + slotOut[from + j];
          for (let c = 0; c < k; c++) out[oj + c] += phi * proba[at + c];
        }
      }
    }
  }
  for (let l = 0; l < silent.length; l++) sums.fill(0, silent[l] * size * k, (silent[l] + 1) * size * k);
}

/** `addLeaves` for a leaf whose table holds A (some zⱼ = 0): P(S) multiplied out per row. */
function addLeafByProducts(
  tables: LeafTables,
  scratch: TableScratch,
  l: number,
  r0: number,
  size: number,
  stride: number,
  out: Float64Array,
  weight: number,
): void {
  const { tree, leaves, width, slotStart, slotOut, slotZero, tableStart, table } = tables;
  const { bits, sums, handed } = scratch;
  const k = tree.classes;
  const proba = tree.proba;
  const from = slotStart[l];
  const leaf = leaves[l];
  const at = leaf * k;
  const t = tableStart[l];
  const all = (1 << width[l]) - 1;
  for (let r = 0; r < size; r++) {
    const sum = (leaf * size + r) * k;
    if (handed[r0 + r] === 1) continue;
    const s = bits[leaf * size + r];
    let outside = weight;
    for (let m = ~s & all; m !== 0; m &= m - 1) outside *= slotZero[from + lowBit(m)];
    if (outside === 0) {
      for (let c = 0; c < k; c++) sums[sum + c] = 0;
      continue;
    }
    const off = -outside * table[t + s];
    for (let c = 0; c < k; c++) sums[sum + c] = off * proba[at + c];
    const o = (r0 + r) * stride;
    for (let m = s; m !== 0; m &= m - 1) {
      const j = lowBit(m);
      const phi = (1 - slotZero[from + j]) * outside * table[t + (s ^ (1 << j))] - off;
      const oj = o + slotOut[from + j];
      for (let c = 0; c < k; c++) out[oj + c] += phi * proba[at + c];
    }
  }
}

/** The off-path part: each split where a feature first appears gives it the sum over the leaves below. */
function addOffPath(
  tables: LeafTables,
  scratch: TableScratch,
  r0: number,
  size: number,
  stride: number,
  out: Float64Array,
  anyHanded: boolean,
): void {
  const { tree, splits, splitFeature, splitFirst, splitBranches, setBit } = tables;
  const { sums, handed } = scratch;
  const k = tree.classes;
  const width = size * k;
  for (let q = splits.length - 1; q >= 0; q--) {
    const at = splits[q] * width;
    const first = splitFirst[q] * width;
    const end = first + splitBranches[q] * width;
    if (splitBranches[q] === 2)
      for (let e = 0; e < width; e++) sums[at + e] = sums[first + e] + sums[first + width + e];
    else
      for (let e = 0; e < width; e++) {
        let sum = sums[first + e];
        for (let b = first + width + e; b < end; b += width) sum += sums[b];
        sums[at + e] = sum;
      }
    if (setBit[q] === 0) continue;
    const feature = splitFeature[q] * k;
    for (let r = 0; r < size; r++) {
      if (anyHanded && handed[r0 + r] === 1) continue;
      const o = (r0 + r) * stride + feature;
      for (let c = 0; c < k; c++) out[o + c] += sums[at + r * k + c];
    }
  }
}

/**
 * Add `weight` × row i's contributions into `out[offset + f * k + c]` (one row of
 * `explainRowsByTables`); false (and nothing added) when the row is spread at some node.
 */
export function explainByTables(
  tables: LeafTables,
  scratch: TableScratch,
  columns: AlignedColumn[],
  i: number,
  out: Float64Array,
  offset: number,
  weight: number,
): boolean {
  if (scratch.row.length < columns.length) scratch.row = new Float64Array(columns.length);
  columnBlock(columns, i, i + 1, scratch.row);
  const one = out.subarray(offset, offset + columns.length * tables.tree.classes);
  return explainRowsByTables(tables, scratch, columns, scratch.row, i, i + 1, one, weight) === 0;
}

/** Index of the lowest set bit of r (r ≠ 0). */
function lowBit(r: number): number {
  return 31 - Math.clz32(r & -r);
}
