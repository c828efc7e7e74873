import type { Candidate } from './types.js';
import { beats } from './types.js';
import type { ScanContext } from './context.js';

/**
 * Zaki's EVALUATE-NUMERIC-ATTRIBUTE as one incremental pass: `order[start..end)` holds the node's
 * rows sorted by `x` (missing values last). Moving a row from the right branch to the left updates
 * the count table in O(1); the criterion is evaluated only between successive distinct values,
 * at the midpoint. Ties keep the lowest threshold. `known` is scratch of length `classes`.
 */
export function scanNumeric(
  ctx: ScanContext,
  feature: number,
  x: Float64Array,
  order: Int32Array,
  start: number,
  end: number,
  nodeTotals: Float64Array,
  known: Float64Array,
  out: Candidate,
): void {
  out.reset(feature, 'numeric');
  const { labels: y, weights: w, classes: k, minLeaf, table } = ctx;
  let knownEnd = end;
  for (let c = 0; c < k; c++) known[c] = nodeTotals[c];
  // Rows with a missing value sit at the end of the slice: take them out of the table.
  while (knownEnd > start && Number.isNaN(x[order[knownEnd - 1]])) {
    knownEnd--;
    const r = order[knownEnd];
    known[y[r]] -= w[r];
  }
  const nKnown = knownEnd - start;
  if (nKnown < 2 * minLeaf || nKnown < 2) return;
  if (x[order[start]] === x[order[knownEnd - 1]]) return; // constant at this node

  out.parentOriented = ctx.loadParent(known);
  const counts = table.counts;
  const bt = table.branchTotals;
  table.branches = 2;
  for (let c = 0; c < k; c++) {
    counts[c] = 0;
    counts[k + c] = known[c];
  }
  bt[0] = 0;
  bt[1] = table.total;

  const sign = ctx.sign;
  const crit = ctx.criterion;
  const last = knownEnd - 1;
  for (let j = start; j < last; j++) {
    const r = order[j];
    const c = y[r];
    const wr = w[r];
    counts[c] += wr;
    counts[k + c] -= wr;
    bt[0] += wr;
    bt[1] -= wr;
    const xv = x[r];
    const xn = x[order[j + 1]];
    if (xn <= xv) continue; // not a boundary between distinct values
    const nLeft = j - start + 1;
    if (nLeft < minLeaf) continue;
    if (nKnown - nLeft < minLeaf) break;
    const score = sign * crit.evaluate(table);
    if (beats(score, out.oriented)) {
      out.found = true;
      out.oriented = score;
      out.raw = sign * score;
      out.threshold = midpoint(xv, xn);
    }
  }
}

/** Midpoint of two successive distinct values that still sends `lo` left and `hi` right. */
export function midpoint(lo: number, hi: number): number {
  let t = lo / 2 + hi / 2;
  if (!(t < hi) || t < lo) t = lo;
  return t;
}
