import type { AlignedColumn } from '../model/align.js';
import type { UnclassifiedPolicy } from '../model/compiled.js';
import type { DecisionTree, PredictOptions } from '../model/decision-tree.js';
import type { ForestVote } from './settings.js';

/** A tree's C-MBSV policy for unclassified regions: its own settings, overridden by `options`. */
export function treePolicy(tree: Pick<DecisionTree, 'options'>, options?: PredictOptions): UnclassifiedPolicy {
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
  for (let i = 0; i < nRows; i++) addVote(p, i * k, k, sum, i * k);
  return p;
}

/**
 * One vote into `sum[at..at + k)` for the most probable class of `p[from..from + k)` (ties to the
 * lowest index; no vote for a row of zeros).
 */
export function addVote(p: ArrayLike<number>, from: number, k: number, sum: Float64Array, at: number): void {
  let best = -1;
  for (let c = 0; c < k; c++) if (p[from + c] > 0 && (best < 0 || p[from + c] > p[from + best])) best = c;
  if (best >= 0) sum[at + best] += 1;
}

/**
 * The forest's class probabilities for aligned rows, one tree at a time over all rows: the mean
 * over trees of their probabilities (`proba`) or of their votes (`majority`). Trees are added in
 * order, so the sums are the same bits however the forest was grown. `Forest` predicts with
 * `CompiledForest` (compiled-forest.ts), which adds the same terms in the same order; this is
 * its reference in tests and benchmarks.
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
