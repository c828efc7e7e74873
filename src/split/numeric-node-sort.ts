import { giniOfSquares } from '../criteria/incremental.js';
import type { NumericValues } from '../data/dataset.js';
import { beats, type Candidate } from './candidate.js';
import type { ScanContext } from './context.js';
import { midpoint } from './numeric.js';

/**
 * `scanNumeric` for Gini (the scan measure's incremental form is `SquareSums`) over a node's rows
 * sorted by the per-node sorting grower (src/learn/grow-node-sort.ts): `xs[start, end)` the
 * values in order, `samples` the rows alongside, no missing value, integer weights. It reads the
 * sorted values and the rows' labels and weights directly, with no slice of marks and labels in
 * between, and finds the same candidate as `scanNumeric` (the same sums in the same order within
 * each run of equal values' boundaries: exact integers; the same scores, ties, threshold).
 */
export function scanGiniSorted(
  ctx: ScanContext,
  feature: number,
  values: NumericValues,
  xs: Float64Array,
  samples: Int32Array,
  start: number,
  end: number,
  nodeTotals: Float64Array,
  out: Candidate,
): void {
  const { k, minLeaf, table, local, sign, minWeightLeaf } = ctx;
  out.reset(feature, 'numeric', k);
  const n = end - start;
  if (n < 2 * minLeaf || n < 2) return;
  if (xs[start] === xs[end - 1]) return; // constant at this node
  const counts = table.counts;
  let total = 0;
  let sqR = 0;
  for (let c = 0; c < k; c++) {
    const t = nodeTotals[c];
    table.classTotals[c] = t;
    counts[c] = 0;
    counts[k + c] = t;
    total += t;
    sqR += t * t;
  }
  table.total = total;
  table.branches = 2;
  table.branchTotals[0] = 0;
  table.branchTotals[1] = total;
  const { label, weight } = ctx.pool;
  const unit = ctx.unitWeights;
  let sqL = 0;
  let left = 0;
  let right = total;
  let tried = 0;
  let best = -1;
  const last = end - 1;
  for (let j = start; j < last; j++) {
    const s = samples[j];
    const c = local[label[s]];
    const w = unit ? 1 : weight[s];
    const l = counts[c];
    const r = counts[k + c];
    sqL += w * (2 * l + w);
    sqR += w * (w - 2 * r);
    counts[c] = l + w;
    counts[k + c] = r - w;
    left += w;
    right -= w;
    if (xs[j + 1] === xs[j]) continue; // no threshold inside a run of equal values
    const nLeft = j - start + 1;
    if (nLeft < minLeaf) continue;
    if (n - nLeft < minLeaf) break;
    if (minWeightLeaf > 0 && (left < minWeightLeaf || right < minWeightLeaf)) {
      if (right < minWeightLeaf) break;
      continue;
    }
    tried++;
    const score = sign * giniOfSquares(left, right, sqL, sqR, total);
    if (beats(score, out.oriented)) {
      out.keepBinary(score, NaN, -1, counts);
      best = j;
    }
  }
  out.tried += tried;
  if (best >= 0) out.threshold = midpoint(values[samples[best]], values[samples[best + 1]]);
  out.finishBinary(false);
}
