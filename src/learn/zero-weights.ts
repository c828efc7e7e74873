import type { Dataset } from '../data/dataset.js';
import { subsetRows } from '../data/subset.js';

/**
 * The rows a grower learns from: those of non-zero weight. A row of weight 0 must not change the
 * tree (as in scikit-learn), yet it would count toward `minSamplesLeaf` / `minSamplesSplit`, stay
 * a threshold candidate and move histogram bin edges; dropping it before growing settles all of
 * that at once. Unchanged when no weight is 0, or when every weight is (`fit` refuses that case).
 */
export function withoutZeroWeights(data: Dataset, weights: Float64Array): { data: Dataset; weights: Float64Array } {
  const n = data.nRows;
  let kept = 0;
  for (let i = 0; i < n; i++) if (weights[i] !== 0) kept++;
  if (kept === n || kept === 0) return { data, weights };
  const rows = new Int32Array(kept);
  const keptWeights = new Float64Array(kept);
  for (let i = 0, j = 0; i < n; i++) {
    if (weights[i] === 0) continue;
    rows[j] = i;
    keptWeights[j++] = weights[i];
  }
  return { data: subsetRows(data, rows), weights: keptWeights };
}
