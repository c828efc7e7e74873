import type { AlignedColumn } from '../model/align.js';
import type { UnclassifiedPolicy } from '../model/compiled.js';
import type { DecisionTree, PredictOptions } from '../model/decision-tree.js';
import type { ForestVote } from './settings.js';

/** A tree's C-MBSV policy for unclassified regions: its own settings, overridden by `options`. */
export function treePolicy(tree: DecisionTree, options?: PredictOptions): UnclassifiedPolicy {
  const saved = tree.options.cmbsv;
  return {
    unclassified: options?.unclassified ?? saved?.unclassified ?? 'none',
    knnK: options?.knnK ?? saved?.knnK ?? 1,
  };
}

/**
 * Add one tree's say about `nRows` rows into `sum` (row-major, k classes): its probabilities
 * (`proba`), or a vote of 1 for its most probable class (`majority`; ties to the lowest index, no
 * vote for a row of zeros). `scratch` holds the tree's probabilities.
 */
export function addTree(
  tree: DecisionTree,
  columns: AlignedColumn[],
  nRows: number,
  vote: ForestVote,
  sum: Float64Array,
  scratch: Float64Array<ArrayBuffer>,
  options?: PredictOptions,
): Float64Array {
  const k = tree.classes.length;
  const p = tree.compiled.predictProba(columns, nRows, scratch, treePolicy(tree, options));
  if (vote === 'proba') {
    for (let i = 0; i < nRows * k; i++) sum[i] += p[i];
    return p;
  }
  for (let i = 0; i < nRows; i++) {
    let best = -1;
    for (let c = 0; c < k; c++) if (p[i * k + c] > 0 && (best < 0 || p[i * k + c] > p[i * k + best])) best = c;
    if (best >= 0) sum[i * k + best] += 1;
  }
  return p;
}

/**
 * The forest's class probabilities for aligned rows: the mean over trees of their probabilities
 * (`proba`) or of their votes (`majority`). Trees are added in order, so the sums are the same
 * bits however the forest was grown.
 */
export function combineTrees(
  trees: readonly DecisionTree[],
  columns: AlignedColumn[],
  nRows: number,
  vote: ForestVote,
  options?: PredictOptions,
): Float64Array {
  const k = trees[0].classes.length;
  const sum = new Float64Array(nRows * k);
  const scratch = new Float64Array(nRows * k);
  for (const tree of trees) addTree(tree, columns, nRows, vote, sum, scratch, options);
  const t = trees.length;
  for (let i = 0; i < sum.length; i++) sum[i] /= t;
  return sum;
}
