import { giniOfSquares } from '../criteria/incremental.js';
import type { CountTable } from '../criteria/types.js';
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
 * The candidate's `splitBin` is the value in `xs` below the threshold (the grower's rank).
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
  let sqR = openBinaryTable(table, nodeTotals, k);
  const total = table.total;
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
      out.keepBinary(score, NaN, -1, counts, xs[j]);
      best = j;
    }
  }
  out.tried += tried;
  if (best >= 0) out.threshold = midpoint(values[samples[best]], values[samples[best + 1]]);
  out.finishBinary(false);
}

/**
 * Scratch of `scanGiniRanks`: per rank of a column, its class weights at the node (`k` cells a
 * rank from `rank · k`, `k` the node's classes; integers: int32 adds are quicker than float64
 * ones in the binning loop's chain of read-add-writes) and its row count. Whoever bins a node's
 * rows (the grower) leaves every cell zero again after the scan (`scanGiniRanks` does), so nothing
 * is cleared before a node.
 */
export class RankBins {
  readonly classWeights: Int32Array;
  readonly rows: Int32Array;

  /** Zeroed arrays with room for every rank's classes (`classWeights`) and rows (`rows`). */
  constructor(classWeights: Int32Array, rows: Int32Array) {
    this.classWeights = classWeights;
    this.rows = rows;
  }
}

/**
 * `scanGiniSorted` without the sort: the node's `n` rows binned by rank in `bins` (the grower sums
 * each rank's class weights, and its row count when a leaf needs more than one row, as it gathers
 * the ranks), ranks [min, min + span), then scanned in order, as a counting sort would have ordered
 * the rows. The sums at each threshold are the same exact integers (a rank's class weight w adds
 * w·(2l + w) to Σ L², as its rows one by one would), so the scores, ties and threshold are
 * `scanGiniSorted`'s; `distinct` is the column's values by rank. The candidate's `splitBin` is the
 * largest rank on the left. Rows are counted per rank only when a leaf needs more than one: else a
 * rank holds rows where it holds weight. It pays O(rows + span · classes) where sorting and
 * scanning the rows pays for three passes over them. The bins are left zero.
 */
export function scanGiniRanks(
  ctx: ScanContext,
  feature: number,
  distinct: Float64Array,
  n: number,
  min: number,
  span: number,
  nodeTotals: Float64Array,
  bins: RankBins,
  out: Candidate,
): void {
  const { k } = ctx;
  out.reset(feature, 'numeric', k);
  if (n >= 2 * ctx.minLeaf && n >= 2 && span > 1) {
    scanBins(ctx, distinct, n, min, span, nodeTotals, bins, out);
    out.finishBinary(false);
  }
  bins.classWeights.fill(0, min * k, (min + span) * k);
  if (ctx.minLeaf > 1) bins.rows.fill(0, min, min + span);
}

/** The scan of `scanGiniRanks`. */
function scanBins(
  ctx: ScanContext,
  distinct: Float64Array,
  n: number,
  min: number,
  span: number,
  nodeTotals: Float64Array,
  bins: RankBins,
  out: Candidate,
): void {
  const { k, minLeaf, table, sign, minWeightLeaf } = ctx;
  const cw = bins.classWeights;
  const rows = bins.rows;
  const counted = minLeaf > 1;
  const counts = table.counts;
  let sqR = openBinaryTable(table, nodeTotals, k);
  const total = table.total;
  let sqL = 0;
  let left = 0;
  let right = total;
  let nLeft = 0;
  let tried = 0;
  let best = -1;
  const last = min + span - 1; // the node's largest rank: no threshold above it
  for (let b = min; b < last; b++) {
    const at = b * k;
    const before = left;
    for (let c = 0; c < k; c++) {
      const w = cw[at + c];
      if (w === 0) continue;
      const l = counts[c];
      const r = counts[k + c];
      sqL += w * (2 * l + w);
      sqR += w * (w - 2 * r);
      counts[c] = l + w;
      counts[k + c] = r - w;
      left += w;
      right -= w;
    }
    if (left === before) continue; // no row of this rank
    nLeft += counted ? rows[b] : 1;
    if (nLeft < minLeaf) continue;
    if (n - nLeft < minLeaf) break;
    if (minWeightLeaf > 0 && (left < minWeightLeaf || right < minWeightLeaf)) {
      if (right < minWeightLeaf) break;
      continue;
    }
    tried++;
    const score = sign * giniOfSquares(left, right, sqL, sqR, total);
    if (beats(score, out.oriented)) {
      out.keepBinary(score, NaN, -1, counts, b);
      best = b;
    }
  }
  out.tried += tried;
  if (best >= 0) {
    let next = best + 1;
    while (rankWeight(cw, next, k) === 0) next++;
    out.threshold = midpoint(distinct[best], distinct[next]);
  }
}

/** Weight of rank bin `b` (its `k` class weights summed). */
function rankWeight(cw: Int32Array, b: number, k: number): number {
  let w = 0;
  for (let c = b * k; c < b * k + k; c++) w += cw[c];
  return w;
}

/**
 * The scan's two-branch table at its start, every row on the right: class totals from the node's,
 * left counts zero. Returns the sum of the squared class totals (the right side's Σ R²).
 */
function openBinaryTable(table: CountTable, nodeTotals: ArrayLike<number>, k: number): number {
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
  return sqR;
}
