import { mulberry32 } from '../core/random.js';
import type { NumericValues } from '../data/dataset.js';
import type { Candidate } from './candidate.js';
import type { ScanContext } from './context.js';
import { takeOutMissing } from './numeric.js';
import { ENTRY, type SortedSlice } from './sorted-slice.js';

/** The generator of feature `feature`'s random split at the node with draw seed `nodeSeed`. */
export function featureRandom(nodeSeed: number, feature: number): () => number {
  return mulberry32(featureSeed(nodeSeed, feature));
}

/** Mixes a node's draw seed with a feature index (murmur3's finaliser), so each feature draws apart. */
function featureSeed(nodeSeed: number, feature: number): number {
  let h = (nodeSeed ^ Math.imul(feature + 1, 0x85ebca6b) ^ 0x27d4eb2f) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * Extremely randomised trees (Geurts, Ernst & Wehenkel 2006; scikit-learn's `splitter='random'`):
 * one threshold drawn uniformly in [min, max) of the feature's known values at the node, from a
 * generator seeded by the node's draw seed and the feature (so threads and growth order give the
 * same draw), scored by the scan criterion. A threshold equal to the maximum (rounding) becomes
 * the minimum, as scikit-learn does, so both sides always get rows. The candidate is found only
 * when both sides hold `minLeaf` rows and the weights `minWeightLeaf` asks for.
 */
export function scanNumericRandom(
  ctx: ScanContext,
  feature: number,
  values: NumericValues,
  { order, labs }: SortedSlice,
  start: number,
  end: number,
  nodeTotals: Float64Array,
  nodeSeed: number,
  out: Candidate,
): void {
  const { k, minLeaf, table, known, local } = ctx;
  out.reset(feature, 'numeric', k);
  const { weight: w, row } = ctx.pool;
  const knownEnd = takeOutMissing(ctx, values, order, start, end, nodeTotals, out);
  const nKnown = knownEnd - start;
  if (nKnown < 2 * minLeaf || nKnown < 2) return;
  const lo = values[row[order[start] & ENTRY]];
  const hi = values[row[order[knownEnd - 1] & ENTRY]];
  if (lo === hi) return; // constant at this node
  let t = lo + featureRandom(nodeSeed, feature)() * (hi - lo);
  if (t >= hi || t < lo) t = lo;
  const learned = ctx.missing === 'learned' && out.unknownWeight > 0;
  ctx.startBinaryScan(known, learned);
  const counts = table.counts;
  let left = 0;
  let right = table.total;
  let j = start;
  // Sorted slice: the left branch is a prefix (values ≤ t).
  for (; j < knownEnd && values[row[order[j] & ENTRY]] <= t; j++) {
    const we = w[order[j] & ENTRY];
    const c = local[labs[j]];
    counts[c] += we;
    counts[k + c] -= we;
    left += we;
    right -= we;
  }
  const nLeft = j - start;
  out.tried++;
  if (nLeft < minLeaf || nKnown - nLeft < minLeaf || ctx.tooLight(left, right)) return;
  const score = ctx.scoreBinary(null, left, right, out.unknown, out.unknownWeight, out.oriented);
  out.keepBinary(score, t, learned ? ctx.lastMissingBranch : -1, counts);
  out.finishBinary(learned);
}
