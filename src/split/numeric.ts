import {
  EntropySums,
  gainOfSums,
  giniOfSquares,
  type IncrementalForm,
  SquareSums,
  scoresGain,
  xlxChange,
} from '../criteria/incremental.js';
import type { NumericValues } from '../data/dataset.js';
import type { Candidate } from './candidate.js';
import { beats } from './candidate.js';
import type { ScanContext } from './context.js';
import { ENTRY, type SortedSlice } from './sorted-slice.js';

/**
 * Zaki's EVALUATE-NUMERIC-ATTRIBUTE as one incremental pass: `order[start..end)` is the node's
 * sorted slice of the feature (src/split/sorted-slice.ts: entry ids in value order, missing values
 * last, `NEW_VALUE` where the value changes, labels alongside), so the pass reads memory in order. Moving an entry
 * from the right branch to the left updates the count table in O(1) (and the criterion's running
 * sums, when it has an incremental form); the criterion is evaluated only where the next entry
 * starts a new value, at the midpoint, the only place the pass reads `values` (the column, by row).
 * Ties keep the lowest threshold. The node's range and totals come as separate arguments, not as
 * the grower's node object, with which V8 compiled this loop less tightly (docs/performance.md,
 * "What was done for speed").
 */
export function scanNumeric(
  ctx: ScanContext,
  feature: number,
  values: NumericValues,
  { order, labs }: SortedSlice,
  start: number,
  end: number,
  nodeTotals: Float64Array,
  out: Candidate,
): void {
  const { k, minLeaf, table, known, local } = ctx;
  out.reset(feature, 'numeric', k);
  const { weight: w, row } = ctx.pool;
  const knownEnd = takeOutMissing(ctx, values, order, start, end, nodeTotals, out);
  const nKnown = knownEnd - start;
  if (nKnown < 2 * minLeaf || nKnown < 2) return;
  if (values[row[order[start] & ENTRY]] === values[row[order[knownEnd - 1] & ENTRY]]) return; // constant at this node

  const learned = ctx.missing === 'learned' && out.unknownWeight > 0;
  const inc = ctx.startBinaryScan(known, learned);
  const unit = ctx.unitWeights;
  // Exactly these classes (a subclass could score otherwise); entropy's counts within its x·ln x table.
  if (unit && (inc?.constructor === SquareSums || unitSumsFit(inc))) {
    scanUnitSums(ctx, inc as SquareSums | EntropySums, values, order, labs, start, knownEnd, out);
    return;
  }
  const counts = table.counts;
  let left = 0;
  let right = table.total;
  const last = knownEnd - 1;
  let next = order[start];
  let best = -1;
  for (let j = start; j < last; j++) {
    const e = next & ENTRY;
    next = order[j + 1];
    const c = local[labs[j]];
    const we = unit ? 1 : w[e];
    const l = counts[c];
    const r = counts[k + c];
    inc?.move(c, we, l, r);
    counts[c] = l + we;
    counts[k + c] = r - we;
    left += we;
    right -= we;
    if (next >= 0) continue; // the next entry has the same value: no threshold here
    const nLeft = j - start + 1;
    if (nLeft < minLeaf) continue;
    if (nKnown - nLeft < minLeaf) break;
    if (ctx.tooLight(left, right)) {
      if (right < ctx.minWeightLeaf) break;
      continue;
    }
    out.tried++;
    const score = ctx.scoreBinary(inc, left, right, out.unknown, out.unknownWeight, out.oriented);
    if (beats(score, out.oriented)) {
      out.keepBinary(score, NaN, learned ? ctx.lastMissingBranch : -1, counts);
      best = j;
    }
  }
  // The threshold of the best position only: the scan improves on its best many times.
  if (best >= 0) out.threshold = midpoint(values[row[order[best] & ENTRY]], values[row[order[best + 1] & ENTRY]]);
  out.finishBinary(learned);
}

/**
 * Whether `inc` is exactly the entropy family's sums (a subclass could score otherwise) with every
 * count within its x·ln x table.
 */
export function unitSumsFit(inc: IncrementalForm | null): boolean {
  return inc?.constructor === EntropySums && (inc as EntropySums).n < (inc as EntropySums).xlx.integers.length;
}

/**
 * `scanNumeric`'s loop when every entry weighs 1 and the measure keeps running sums of the Gini
 * family's squares or the entropy family's x·ln x (every count within `XLogX`'s table): the sums
 * in local variables, moved by the same numbers in the same order as the classes' `move` (so the
 * same bits) without a call per entry — the general loop's calls through `IncrementalForm` stop
 * being inlined once a worker has scanned with several measures. A candidate threshold is scored
 * by the function behind the measure's `value` called with the local sums (`giniOfSquares`,
 * `gainOfSums`), or, for the entropy family's other measures, by `value` after the sums are
 * stored back.
 */
function scanUnitSums(
  ctx: ScanContext,
  inc: SquareSums | EntropySums,
  values: NumericValues,
  order: SortedSlice['order'],
  labs: SortedSlice['labs'],
  start: number,
  knownEnd: number,
  out: Candidate,
): void {
  const { k, minLeaf, table, local, sign, minWeightLeaf } = ctx;
  const { row } = ctx.pool;
  const squares = inc instanceof SquareSums ? inc : null;
  const entropy = inc instanceof EntropySums ? inc : null;
  // x·ln x of each integer count for the entropy family; null: the squares' (l + 1)² − l² = 2l + 1.
  const xlx = entropy ? entropy.xlx.integers : null;
  const counts = table.counts;
  const nKnown = knownEnd - start;
  const n = inc.n;
  const gainOnly = entropy !== null && scoresGain(entropy);
  const parent = entropy ? entropy.parent : 0;
  let sumL = squares ? squares.sqL : (entropy as EntropySums).sumL;
  let sumR = squares ? squares.sqR : (entropy as EntropySums).sumR;
  let left = 0;
  let right = table.total;
  let tried = 0;
  const last = knownEnd - 1;
  let best = -1;
  for (let j = start; j < last; j++) {
    const next = order[j + 1];
    const c = local[labs[j]];
    const l = counts[c];
    const r = counts[k + c];
    if (xlx === null) {
      sumL += 2 * l + 1;
      sumR += 1 - 2 * r;
    } else {
      sumL += xlxChange(xlx, l, l + 1);
      sumR += xlxChange(xlx, r, r - 1);
    }
    counts[c] = l + 1;
    counts[k + c] = r - 1;
    left += 1;
    right -= 1;
    if (next >= 0) continue; // the next entry has the same value: no threshold here
    const nLeft = j - start + 1;
    if (nLeft < minLeaf) continue;
    if (nKnown - nLeft < minLeaf) break;
    if (minWeightLeaf > 0 && (left < minWeightLeaf || right < minWeightLeaf)) {
      if (right < minWeightLeaf) break;
      continue;
    }
    tried++;
    let score: number;
    if (squares) score = sign * giniOfSquares(left, right, sumL, sumR, n);
    else if (gainOnly) {
      // EntropySums.gain, its x·ln x of the (integer) branch weights read from the table.
      const x = xlx as Float64Array;
      score = sign * gainOfSums(parent, x[left], sumL, x[right], sumR, n);
    } else {
      (entropy as EntropySums).sumL = sumL;
      (entropy as EntropySums).sumR = sumR;
      score = sign * inc.value(left, right);
    }
    if (beats(score, out.oriented)) {
      out.keepBinary(score, NaN, -1, counts);
      best = j;
    }
  }
  out.tried += tried;
  if (best >= 0) out.threshold = midpoint(values[row[order[best] & ENTRY]], values[row[order[best + 1] & ENTRY]]);
  out.finishBinary(false);
}

/**
 * Start the node's known class weights from its totals and take out the entries with a missing
 * value (they sit at the end of the sorted slice) into the candidate's unknown weights; returns
 * the end of the known entries.
 */
export function takeOutMissing(
  ctx: ScanContext,
  values: NumericValues,
  order: SortedSlice['order'],
  start: number,
  end: number,
  nodeTotals: Float64Array,
  out: Candidate,
): number {
  const { k, known, local } = ctx;
  const { label: y, weight: w, row } = ctx.pool;
  for (let c = 0; c < k; c++) known[c] = nodeTotals[c];
  let knownEnd = end;
  while (knownEnd > start && Number.isNaN(values[row[order[knownEnd - 1] & ENTRY]])) {
    knownEnd--;
    const e = order[knownEnd] & ENTRY;
    const c = local[y[e]];
    known[c] -= w[e];
    out.unknown[c] += w[e];
    out.unknownWeight += w[e];
  }
  return knownEnd;
}

/** Fold the unknown entries into one branch of the candidate's table (the `learned` policy). */
export function addUnknownToBranch(out: Candidate, b: number): void {
  const k = out.k;
  for (let c = 0; c < k; c++) out.table[b * k + c] += out.unknown[c];
  out.unknownInTable = true;
}

/** Midpoint of two successive distinct values that still sends `lo` left and `hi` right. */
export function midpoint(lo: number, hi: number): number {
  let t = lo / 2 + hi / 2;
  if (!(t < hi) || t < lo) t = lo;
  return t;
}
