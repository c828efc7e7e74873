import { GroveError } from '../core/errors.js';
import type { ClassLabel } from '../data/dataset.js';
import type { AlignedColumn, AlignOptions, PredictInput } from '../model/align.js';
import { type ExplainableModel, type WeightedTree, weightedTrees } from './model.js';
import { alignRows } from './rows.js';
import { expectedValue, TreeShapExplainer } from './tree-shap.js';

/**
 * SHAP values of a model's class probabilities: how much each feature moves each row's predicted
 * probability of each class away from the expected value (exact path-dependent TreeSHAP).
 *
 * Layout: `values[(row * features.length + feature) * classes.length + c]` — rows, then
 * features in the model's order, then classes in the order of `classes` (innermost). For every
 * row and class, `expected[c]` plus the row's contributions over all features equals the
 * predicted probability of class c (local accuracy).
 */
export interface ShapValues {
  /** Number of rows explained. */
  readonly nRows: number;
  /** The model's feature names (the middle axis). */
  readonly features: string[];
  /** The model's classes (the innermost axis). */
  readonly classes: ClassLabel[];
  /** Contributions, rows × features × classes (see the layout above). */
  readonly values: Float64Array;
  /** The expected value per class: the probabilities weighted by the training weight reaching each leaf. */
  readonly expected: Float64Array;
}

/**
 * Exact SHAP values (path-dependent TreeSHAP, as `shap.TreeExplainer(model,
 * feature_perturbation="tree_path_dependent")` and XGBoost's `pred_contribs` compute them) of the
 * predicted class probabilities of `model` for every row of `input`. A forest's are the mean of its
 * trees' (each tree explained, weighted by 1 / trees); a forest voting by majority is refused.
 *
 * A feature absent from the coalition follows every branch of a split weighted by the training
 * weight that reached each child; a present one follows the model's own routing (missing values
 * by the node's policy, categories and multiway splits by their branches). A C4.5 row spread over
 * the branches of a node because its value is missing gives that feature nothing at that node.
 * C-MBSV unclassified regions count as all-zero probabilities (as `predictProba` with
 * `unclassified: 'none'`): their k-NN labels depend on every feature at once and are not
 * explained. Cost per row: O(L · D²) for L leaves and depth D (Lundberg et al. 2020).
 *
 * Rows are read as `predict` reads them (same errors). GroveError for anything else.
 *
 * @example
 * ```ts
 * const shap = shapValues(tree, rows);
 * const k = shap.classes.length, f = shap.features.length;
 * const contribution = shap.values[(0 * f + 2) * k + 1]; // row 0, feature 2, class 1
 * ```
 */
export function shapValues(model: ExplainableModel, input: PredictInput, options?: ShapOptions): ShapValues {
  const caller = 'shapValues';
  const { columns, nRows } = alignRows(model, input, options, caller, ['allowMissingKeys', 'onProgress']);
  const onProgress = options?.onProgress;
  if (onProgress !== undefined && typeof onProgress !== 'function')
    throw new GroveError(`${caller}: options.onProgress must be a function, got ${typeof onProgress}`);
  const k = model.classes.length;
  const f = model.features.length;
  const trees = weightedTrees(model);
  const values = new Float64Array(nRows * f * k);
  // A block at a time, so that a listener hears of each hundredth of the rows, not of every row.
  const block = Math.max(1, Math.ceil(nRows / 100));
  for (let from = 0; from < nRows; from += block) {
    const to = Math.min(nRows, from + block);
    values.set(treesShap(trees, columns, nRows, f, k, from, to), from * f * k);
    onProgress?.({ rows: to, total: nRows });
  }
  if (nRows === 0) onProgress?.({ rows: 0, total: 0 });
  return {
    nRows,
    features: model.features.map((x) => x.name),
    classes: model.classes,
    values,
    expected: treesExpected(trees, k),
  };
}

/** How `shapValues` reads rows (as `predict` does), and who hears of its progress. */
export interface ShapOptions extends AlignOptions {
  /**
   * Told of the rows explained so far (`rows` of `total`), after each hundredth of them and at
   * the end (`rows` = `total`).
   */
  onProgress?: (progress: { rows: number; total: number }) => void;
}

/** Contributions (rows × features × classes) of the weighted sum of `trees`. */
export function treesShap(
  trees: readonly WeightedTree[],
  columns: AlignedColumn[],
  nRows: number,
  nFeatures: number,
  nClasses: number,
  from = 0,
  to = nRows,
): Float64Array {
  const out = new Float64Array((to - from) * nFeatures * nClasses);
  const explainer = new TreeShapExplainer(nFeatures);
  const stride = nFeatures * nClasses;
  for (let i = from; i < to; i++)
    for (const t of trees) explainer.explainRow(t.tree, columns, i, out, (i - from) * stride, t.weight);
  return out;
}

/** Expected value per class of the weighted sum of `trees`. */
export function treesExpected(trees: readonly WeightedTree[], nClasses: number): Float64Array {
  const out = new Float64Array(nClasses);
  for (const t of trees) expectedValue(t.tree, out, t.weight);
  return out;
}
