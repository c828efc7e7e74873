/**
 * k-nearest-neighbour labelling of a row that falls in an unclassified region (C-MBSV paper,
 * section 4.1: "One simple method for labeling the test data in the Unclassified Region is using
 * another classification algorithm like the K-Nearest Neighbors algorithm [48]").
 *
 * The neighbours are the training rows of the region's parent node (stored in the model, see
 * `KnnRegion`). Distance: squared Euclidean over all features, numeric values standardised with
 * the region's stored mean and standard deviation; a categorical feature adds 1 when the codes
 * differ; a value missing on either side adds 1. The k nearest (ties in distance: stored row
 * order) vote; the class with most votes wins, a tie in votes going to the class whose member is
 * nearest. The probability vector is the vote share.
 */
import type { KnnRegion } from './node.js';

/**
 * One aligned input column per model feature (numeric values with NaN = missing, or category codes with -1 =
 * missing).
 */
type Columns = ReadonlyArray<ArrayLike<number>>;

/**
 * Vote shares of the k nearest stored rows to row `i` of `columns`, written into
 * `out[offset .. offset + classes)` (added, multiplied by `weight`). Returns the winning class.
 */
export function knnVote(
  region: KnnRegion,
  kinds: ReadonlyArray<'numeric' | 'categorical'>,
  columns: Columns,
  i: number,
  k: number,
  classes: number,
  out?: Float64Array,
  offset = 0,
  weight = 1,
): number {
  const m = region.rows.length;
  const kk = Math.min(k, m);
  if (kk === 0) return -1;
  // The kk smallest (distance, index) pairs, kept sorted by insertion.
  const bestD = new Float64Array(kk).fill(Infinity);
  const bestI = new Int32Array(kk).fill(-1);
  const d = kinds.length;
  for (let r = 0; r < m; r++) {
    const row = region.rows[r];
    let dist = 0;
    for (let f = 0; f < d && dist < bestD[kk - 1]; f++) {
      const v = row[f];
      const x = columns[f][i];
      const missing = v === null || (kinds[f] === 'numeric' ? Number.isNaN(x) : x < 0);
      if (missing) dist += 1;
      else if (kinds[f] === 'numeric') {
        const z = (x - (v as number)) / region.scale[f];
        dist += z * z;
      } else if (x !== v) dist += 1;
    }
    if (!(dist < bestD[kk - 1])) continue; // a tie with the k-th keeps the earlier row
    let p = kk - 1;
    while (p > 0 && bestD[p - 1] > dist) {
      bestD[p] = bestD[p - 1];
      bestI[p] = bestI[p - 1];
      p--;
    }
    bestD[p] = dist;
    bestI[p] = r;
  }
  const votes = new Float64Array(classes);
  const firstRank = new Int32Array(classes).fill(kk);
  for (let p = 0; p < kk; p++) {
    const c = region.labels[bestI[p]];
    votes[c]++;
    if (firstRank[c] === kk) firstRank[c] = p;
  }
  let winner = -1;
  for (let c = 0; c < classes; c++) {
    if (votes[c] === 0) continue;
    if (winner < 0 || votes[c] > votes[winner] || (votes[c] === votes[winner] && firstRank[c] < firstRank[winner]))
      winner = c;
  }
  if (out) for (let c = 0; c < classes; c++) out[offset + c] += (weight * votes[c]) / kk;
  return winner;
}
