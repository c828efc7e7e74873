/**
 * The numeric scan with Weka J48's rules (C4.5 as J48 grows it): `scanNumeric`'s pass with J48's
 * smallest branch, its value ties and its 1e-6 margins.
 */
import { type EntropySums, gainOfSums, scoresGain, xlxChange } from '../criteria/incremental.js';
import type { NumericValues } from '../data/dataset.js';
import { type Candidate, J48_SMALL } from './candidate.js';
import type { ScanContext } from './context.js';
import { midpoint, takeOutMissing, unitSumsFit } from './numeric.js';
import { ENTRY, type SortedSlice } from './sorted-slice.js';

/** J48 treats two values closer than this as one (C45Split: `value(i − 1) + 1e-5 < value(i)`). */
const J48_VALUE_TIE = 1e-5;

/**
 * C4.5's smallest branch weight for a numeric split of a node whose known values weigh `known`
 * (Weka's C45Split): 0.1 · known / classes, at least `minLeaf` and at most 25.
 */
export function j48MinSplit(known: number, classes: number, minLeaf: number): number {
  const m = (0.1 * known) / classes;
  if (m - minLeaf < J48_SMALL) return minLeaf;
  return m - 25 > J48_SMALL ? 25 : m;
}

/**
 * `scanNumeric` with Weka J48's rules (C45Split.handleNumericAttribute): both branches must weigh
 * at least `j48MinSplit` (the node needs twice that many known rows), values closer than 1e-5
 * are one value, and a threshold must beat the best so far — and zero — by Weka's 1e-6.
 * `classes` is the data set's number of classes (`ctx.classes`), as in J48, not those present at the node.
 */
export function scanNumericJ48(
  ctx: ScanContext,
  feature: number,
  values: NumericValues,
  { order, labs }: SortedSlice,
  start: number,
  end: number,
  nodeTotals: Float64Array,
  out: Candidate,
): void {
  const { k, table, known, local } = ctx;
  out.reset(feature, 'numeric', k);
  const { weight: w, row } = ctx.pool;
  const knownEnd = takeOutMissing(ctx, values, order, start, end, nodeTotals, out);
  let knownWeight = 0;
  for (let c = 0; c < k; c++) knownWeight += known[c];
  const minSplit = j48MinSplit(knownWeight, ctx.classes, ctx.minLeaf);
  const nKnown = knownEnd - start;
  if (2 * minSplit - nKnown > J48_SMALL || nKnown < 2) return;
  // J48 ranks thresholds by the gain times the known share (C4.5's gain with unknown values).
  const share = knownWeight / (knownWeight + out.unknownWeight);
  const learned = ctx.missing === 'learned' && out.unknownWeight > 0;
  const inc = ctx.startBinaryScan(known, learned);
  if (ctx.unitWeights && unitSumsFit(inc)) {
    scanUnitJ48(ctx, inc as EntropySums, values, order, labs, start, knownEnd, minSplit, share, out);
    return;
  }
  const counts = table.counts;
  let left = 0;
  let right = table.total;
  let best = -1;
  let bestGain = 0;
  for (let j = start; j < knownEnd - 1; j++) {
    const e = order[j] & ENTRY;
    const next = order[j + 1];
    const c = local[labs[j]];
    const we = w[e];
    const l = counts[c];
    const r = counts[k + c];
    inc?.move(c, we, l, r);
    counts[c] = l + we;
    counts[k + c] = r - we;
    left += we;
    right -= we;
    if (next >= 0) continue;
    if (!(values[row[e]] + J48_VALUE_TIE < values[row[next & ENTRY]])) continue;
    if (minSplit - right > J48_SMALL) break;
    if (minSplit - left > J48_SMALL) continue;
    out.tried++;
    const score = ctx.scoreBinary(inc, left, right, out.unknown, out.unknownWeight, out.oriented);
    if (score * share - bestGain > J48_SMALL) {
      out.keepBinary(score, NaN, learned ? ctx.lastMissingBranch : -1, counts);
      bestGain = score * share;
      best = j;
    }
  }
  if (best >= 0) out.threshold = midpoint(values[row[order[best] & ENTRY]], values[row[order[best + 1] & ENTRY]]);
  out.finishBinary(learned);
}

/**
 * `scanNumericJ48`'s loop when every entry weighs 1 and the threshold measure keeps the entropy
 * family's x·ln x sums (every count within `XLogX`'s table): as `scanUnitSums`, the sums in local
 * variables moved by the same table differences as `EntropySums.move` (so the same bits), scored
 * by `gainOfSums` on them (information gain), or by the measure's `value` after they are stored
 * back (the family's other measures).
 */
function scanUnitJ48(
  ctx: ScanContext,
  inc: EntropySums,
  values: NumericValues,
  order: SortedSlice['order'],
  labs: SortedSlice['labs'],
  start: number,
  knownEnd: number,
  minSplit: number,
  share: number,
  out: Candidate,
): void {
  const { k, table, local, sign } = ctx;
  const { row } = ctx.pool;
  const xlx = inc.xlx.integers;
  const { n, parent } = inc;
  const gainOnly = scoresGain(inc);
  const counts = table.counts;
  let here = values[row[order[start] & ENTRY]];
  let sumL = inc.sumL;
  let sumR = inc.sumR;
  let left = 0;
  let right = table.total;
  let best = -1;
  let bestGain = 0;
  let tried = 0;
  for (let j = start; j < knownEnd - 1; j++) {
    const next = order[j + 1];
    const c = local[labs[j]];
    const l = counts[c];
    const r = counts[k + c];
    sumL += xlxChange(xlx, l, l + 1);
    sumR += xlxChange(xlx, r, r - 1);
    counts[c] = l + 1;
    counts[k + c] = r - 1;
    left += 1;
    right -= 1;
    if (next >= 0) continue;
    // Entry j's value is the one read at the last value change (none changed since): one read per change.
    const value = here;
    here = values[row[next & ENTRY]];
    if (!(value + J48_VALUE_TIE < here)) continue;
    if (minSplit - right > J48_SMALL) break;
    if (minSplit - left > J48_SMALL) continue;
    tried++;
    let score: number;
    if (gainOnly) score = sign * gainOfSums(parent, xlx[left], sumL, xlx[right], sumR, n);
    else {
      inc.sumL = sumL;
      inc.sumR = sumR;
      score = sign * inc.value(left, right);
    }
    if (score * share - bestGain > J48_SMALL) {
      out.keepBinary(score, NaN, -1, counts);
      bestGain = score * share;
      best = j;
    }
  }
  out.tried += tried;
  if (best >= 0) out.threshold = midpoint(values[row[order[best] & ENTRY]], values[row[order[best + 1] & ENTRY]]);
  out.finishBinary(false);
}
