import type { Candidate } from './types.js';
import type { NumericValues } from '../data/dataset.js';
import { beats } from './types.js';
import type { ScanContext } from './context.js';

/**
 * Zaki's EVALUATE-NUMERIC-ATTRIBUTE as one incremental pass: `order[start..end)` holds the node's
 * entries sorted by the feature (missing values last) and `vals` their values in the same order,
 * so the pass reads memory sequentially. Moving an entry from the right branch to the left
 * updates the count table in O(1) (and the criterion's running sums, when it has an incremental
 * form); the criterion is evaluated only between successive distinct values, at the midpoint.
 * Ties keep the lowest threshold. `known` is scratch (classes).
 */
export function scanNumeric(
  ctx: ScanContext,
  feature: number,
  vals: NumericValues,
  order: Int32Array,
  start: number,
  end: number,
  nodeTotals: Float64Array,
  known: Float64Array,
  out: Candidate,
): void {
  out.reset(feature, 'numeric');
  const { classes: k, minLeaf, table } = ctx;
  const { label: y, weight: w } = ctx.pool;
  for (let c = 0; c < k; c++) known[c] = nodeTotals[c];
  // Entries with a missing value sit at the end of the slice: take them out of the table.
  let knownEnd = end;
  while (knownEnd > start && Number.isNaN(vals[knownEnd - 1])) {
    knownEnd--;
    const e = order[knownEnd];
    known[y[e]] -= w[e];
    out.unknown[y[e]] += w[e];
    out.unknownWeight += w[e];
  }
  const nKnown = knownEnd - start;
  if (nKnown < 2 * minLeaf || nKnown < 2) return;
  if (vals[start] === vals[knownEnd - 1]) return; // constant at this node

  const learned = ctx.missing === 'learned' && out.unknownWeight > 0;
  const inc = ctx.startBinaryScan(known, learned);
  const counts = table.counts;
  const unit = ctx.unitWeights;
  let left = 0;
  let right = table.total;
  const last = knownEnd - 1;
  for (let j = start; j < last; j++) {
    const e = order[j];
    const c = y[e];
    const we = unit ? 1 : w[e];
    const l = counts[c];
    const r = counts[k + c];
    inc?.move(c, we, l, r);
    counts[c] = l + we;
    counts[k + c] = r - we;
    left += we;
    right -= we;
    const xv = vals[j];
    const xn = vals[j + 1];
    if (xn <= xv) continue; // not a boundary between distinct values
    const nLeft = j - start + 1;
    if (nLeft < minLeaf) continue;
    if (nKnown - nLeft < minLeaf) break;
    out.tried++;
    const score = ctx.scoreBinary(inc, left, right, out.unknown, out.unknownWeight, out.oriented);
    if (beats(score, out.oriented)) out.keepBinary(score, midpoint(xv, xn), learned ? ctx.lastMissingBranch : -1, counts);
  }
  out.finishBinary(learned);
}

/** Fold the unknown entries into one branch of the candidate's table (the `learned` policy). */
export function addUnknownToBranch(out: Candidate, b: number): void {
  const k = out.unknown.length;
  for (let c = 0; c < k; c++) out.table[b * k + c] += out.unknown[c];
  out.unknownInTable = true;
}

/** Midpoint of two successive distinct values that still sends `lo` left and `hi` right. */
export function midpoint(lo: number, hi: number): number {
  let t = lo / 2 + hi / 2;
  if (!(t < hi) || t < lo) t = lo;
  return t;
}
