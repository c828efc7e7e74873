/** Histogram mode for small nodes: their rows sorted by bin code, and the scan over them. */

import { beats, type Candidate } from './candidate.js';
import type { ScanContext } from './context.js';
import type { BinnedFeature } from './histogram.js';
import { midpoint } from './numeric.js';

/** Nodes with fewer rows than this may be scanned from sorted rows (`scanSortedCodes`). */
export const SMALL_NODE_ROWS = 2048;

/** Features with at most this many codes may be sorted by counting ... */
const COUNTING_CODES = 257;
/** ... at nodes with at least this many rows (fewer: the comparison sort is as fast). */
const COUNTING_ROWS = 48;

/**
 * The rows of the current small subtree sorted by bin code, per numeric feature (feature f's at
 * `f · cap`), with scratch for sorting and partitioning them. A small subtree's root sorts its rows
 * once (`sortNode`); its descendants keep the order by stable partitions (`partitionByCode` in
 * src/learn/partition.ts). Depth-first growth finishes one small subtree before the next starts,
 * so one object serves them all.
 */
export class CodeSortedRows {
  rows = new Int32Array(0);
  codes = new Uint16Array(0);
  /** Room per feature (rows of the largest small subtree so far, at most `SMALL_NODE_ROWS`). */
  cap = 0;
  /** Scratch for partitions: as long as `cap`. */
  scratchRows = new Int32Array(0);
  scratchCodes = new Uint16Array(0);
  private readonly keys = new Int32Array(SMALL_NODE_ROWS);
  private readonly counts = new Int32Array(COUNTING_CODES + 1);

  /**
   * Sort `rows[start..end)` (fewer than `SMALL_NODE_ROWS`) by bin code into the buffers, every
   * numeric feature: `codes` is the row-major code matrix with one column per entry of `binned`
   * (null for a categorical feature, which is not sorted).
   */
  sortNode(
    codes: Uint8Array | Uint16Array | Uint32Array,
    binned: readonly (BinnedFeature | null)[],
    rows: Int32Array,
    start: number,
    end: number,
  ): void {
    const d = binned.length;
    this.reserve(end - start, d);
    for (let f = 0; f < d; f++) {
      const bf = binned[f];
      if (bf) this.sortFeature(codes, d, f, rows, start, end, bf.bins + 1);
    }
  }

  /** Room for `m` rows (fewer than `SMALL_NODE_ROWS`) of each of `d` features. */
  reserve(m: number, d: number): void {
    if (this.cap >= m && this.rows.length >= d * this.cap) return;
    const cap = Math.min(SMALL_NODE_ROWS, Math.max(m, 2 * this.cap));
    this.cap = cap;
    this.rows = new Int32Array(d * cap);
    this.codes = new Uint16Array(d * cap);
    this.scratchRows = new Int32Array(cap);
    this.scratchCodes = new Uint16Array(cap);
  }

  /**
   * Feature `f`'s rows of `rows[start..end)`, ties in row order, to `rows[f · cap ..]` and their
   * codes alongside (room reserved by `reserve`); `codes` is row-major with `d` columns.
   * `codeCount`: the feature's codes (bins and the missing code); when few, a node of enough rows
   * is sorted by counting them.
   */
  sortFeature(
    codes: Uint8Array | Uint16Array | Uint32Array,
    d: number,
    f: number,
    rows: Int32Array,
    start: number,
    end: number,
    codeCount = Number.POSITIVE_INFINITY,
  ): void {
    const m = end - start;
    const at = f * this.cap;
    const { keys, rows: sRows, codes: sCodes } = this;
    if (codeCount <= COUNTING_CODES && m >= COUNTING_ROWS) {
      this.countingSort(codes, d, f, rows, start, m, at, codeCount);
      return;
    }
    // One Int32 key per row: bin code in the high bits, position in the low 11 (m < 2048).
    for (let i = 0; i < m; i++) keys[i] = (codes[rows[start + i] * d + f] << 11) | i;
    const sorted = keys.subarray(0, m).sort();
    for (let i = 0; i < m; i++) {
      const key = sorted[i];
      sRows[at + i] = rows[start + (key & 2047)];
      sCodes[at + i] = key >>> 11;
    }
  }

  /**
   * `sortFeature` by counting (the same order: by code, ties in row order): O(m + codes) where a
   * feature has few codes beside the node's rows.
   */
  private countingSort(
    codes: Uint8Array | Uint16Array | Uint32Array,
    d: number,
    f: number,
    rows: Int32Array,
    start: number,
    m: number,
    at: number,
    codeCount: number,
  ): void {
    const { keys, counts, rows: sRows, codes: sCodes } = this;
    counts.fill(0, 0, codeCount + 1);
    for (let i = 0; i < m; i++) {
      const c = codes[rows[start + i] * d + f];
      keys[i] = c;
      counts[c + 1]++;
    }
    for (let c = 0; c < codeCount; c++) counts[c + 1] += counts[c];
    for (let i = 0; i < m; i++) {
      const c = keys[i];
      const o = at + counts[c]++;
      sRows[o] = rows[start + i];
      sCodes[o] = c;
    }
  }
}

/**
 * Histogram mode for a small node: the same split `scanHistogram` would find (same bins, same
 * counts), from the node's m rows sorted by bin code (`CodeSortedRows`, feature `feature`'s rows
 * from position `from` of its block) — O(m) instead of O(bins), which is what deep nodes of fully
 * grown trees need. The missing code, the largest, sorts last.
 */
export function scanSortedCodes(
  ctx: ScanContext,
  feature: number,
  bf: BinnedFeature,
  sorted: CodeSortedRows,
  from: number,
  m: number,
  out: Candidate,
): void {
  const { k, known, local } = ctx;
  out.reset(feature, 'numeric', k);
  const { label: y, weight: weights } = ctx.pool;
  const at = feature * sorted.cap + from;
  const { rows: sRows, codes: sCodes } = sorted;
  known.fill(0, 0, k);
  let knownEnd = m;
  for (let i = 0; i < m; i++) {
    const r = sRows[at + i];
    if (sCodes[at + i] === bf.bins) {
      if (knownEnd === m) knownEnd = i;
      out.unknown[local[y[r]]] += weights[r];
      out.unknownWeight += weights[r];
    } else known[local[y[r]]] += weights[r];
  }
  if (knownEnd < 2 * ctx.minLeaf || knownEnd < 2) return;
  if (sCodes[at] === sCodes[at + knownEnd - 1]) return;
  const counts = ctx.table.counts;
  const learned = ctx.missing === 'learned' && out.unknownWeight > 0;
  const inc = ctx.startBinaryScan(known, learned);
  let left = 0;
  let right = ctx.table.total;
  for (let i = 0; i < knownEnd - 1; i++) {
    const code = sCodes[at + i];
    const r = sRows[at + i];
    const c = local[y[r]];
    const w = weights[r];
    inc?.move(c, w, counts[c], counts[k + c]);
    counts[c] += w;
    counts[k + c] -= w;
    left += w;
    right -= w;
    const next = sCodes[at + i + 1];
    if (next === code) continue;
    const leftRows = i + 1;
    if (leftRows < ctx.minLeaf) continue;
    if (knownEnd - leftRows < ctx.minLeaf) break;
    if (ctx.tooLight(left, right)) {
      if (right < ctx.minWeightLeaf) break;
      continue;
    }
    out.tried++;
    const score = ctx.scoreBinary(inc, left, right, out.unknown, out.unknownWeight, out.oriented);
    if (beats(score, out.oriented))
      out.keepBinary(score, midpoint(bf.hi[code], bf.lo[next]), learned ? ctx.lastMissingBranch : -1, counts, code);
  }
  out.finishBinary(learned);
}
