import type { PruneMethod, TreeOptions } from '../options/options.js';

/** One tree of the cost-complexity (weakest-link) sequence: T(α) for α in [alpha, next alpha). */
export interface CcpPathEntry {
  /** α_k, on scikit-learn's scale (misclassified weight divided by the root's total weight). */
  alpha: number;
  /** Leaves of T(α_k). */
  leaves: number;
  /** R(T(α_k)): weighted training misclassification of T(α_k) over the root's total weight. */
  trainingError: number;
}

/** One row of the cross-validation table used to choose α. */
export interface CcpCvRow {
  /** α_k of the full tree's sequence (the tree chosen with this row is T(α_k)). */
  alpha: number;
  /**
   * α at which every fold tree was evaluated: the geometric midpoint √(α_k α_{k+1}); 1 for the
   * last row (any α ≥ 1 prunes to the root).
   */
  evalAlpha: number;
  /** Leaves of the full tree's T(α_k). */
  leaves: number;
  /** Pooled CV error: misclassified test weight over all folds / total weight. */
  error: number;
  /** Binomial standard error of `error`: √(e(1 − e) / n_eff), n_eff = (Σw)² / Σw² (= rows for unit weights). */
  se: number;
  /** Each fold's weighted test error at `evalAlpha`. */
  foldErrors: number[];
}

/** How α was chosen by cross-validation. */
export interface CcpCv {
  folds: number;
  rule: TreeOptions['ccpRule'];
  seed: number;
  table: CcpCvRow[];
  /** Row with the smallest CV error (the first such row, i.e. the smallest α, on a tie). */
  minIndex: number;
  /** Row chosen by the rule (`1se`: the largest α whose error ≤ error[min] + se[min]). */
  chosenIndex: number;
}

/** What pruning did; saved in the model file as `pruning`. */
export interface PruningInfo {
  /** The pruner's name in the pruner table. */
  method: PruneMethod;
  /** Leaves of the tree before pruning (the tree grown on the rows pruning trains on). */
  leavesBefore: number;
  leavesAfter: number;
  /** error-based: the confidence factor used. */
  confidence?: number;
  /** error-based: whether subtree raising was tried. */
  subtreeRaising?: boolean;
  /** reduced-error: rows held out to prune with (the tree is grown on the others). */
  validationRows?: number;
  /** cost-complexity: the α used. */
  alpha?: number;
  /** cost-complexity: the weakest-link sequence of the full tree. */
  path?: CcpPathEntry[];
  /** cost-complexity with α chosen by cross-validation. */
  cv?: CcpCv;
}
