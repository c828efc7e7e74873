import type { Dataset } from '../data/dataset.js';
import { alignInput } from '../model/align.js';
import type { DecisionTree } from '../model/decision-tree.js';
import { addTree } from './combine.js';
import { bootstrapCounts } from './draws.js';
import type { OobEstimate } from './forest.js';
import { codesOf } from './forest.js';
import type { ForestSettings } from './settings.js';

/**
 * The out-of-bag estimate (Breiman 2001): each row of `data` (the rows the trees drew from) gets
 * the combined say of the trees whose bootstrap did not draw it, read again from (seed, i) rather
 * than stored; the score is the accuracy over the rows at least one tree left out (scikit-learn
 * scores every row and warns when some have no estimate; here they are left out and counted).
 */
export function oobEstimate(
  data: Dataset,
  trees: readonly DecisionTree[],
  settings: ForestSettings,
  samples: number,
): OobEstimate {
  const n = data.nRows;
  const k = data.classes.length;
  const { columns } = alignInput(trees[0].features, data);
  const sum = new Float64Array(n * k);
  const own = new Float64Array(n * k);
  const scratch = new Float64Array(n * k);
  const seen = new Int32Array(n);
  for (let t = 0; t < trees.length; t++) {
    const counts = bootstrapCounts(settings.seed, t, n, samples);
    own.fill(0);
    addTree(trees[t], columns, n, settings.vote, own, scratch);
    for (let r = 0; r < n; r++) {
      if (counts[r] !== 0) continue;
      seen[r]++;
      for (let c = 0; c < k; c++) sum[r * k + c] += own[r * k + c];
    }
  }
  let rows = 0;
  let right = 0;
  for (let r = 0; r < n; r++) {
    if (seen[r] === 0) continue;
    for (let c = 0; c < k; c++) sum[r * k + c] /= seen[r];
  }
  const codes = codesOf(sum, k);
  for (let r = 0; r < n; r++) {
    if (seen[r] === 0) continue;
    rows++;
    if (codes[r] === data.labels[r]) right++;
  }
  return { score: rows > 0 ? right / rows : Number.NaN, rows, proba: sum };
}
