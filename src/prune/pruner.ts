import type { Dataset } from '../data/dataset.js';
import type { TreeNode } from '../model/node.js';
import type { PruningInfo } from '../model/pruning-info.js';
import type { GrownTree } from '../model/store.js';
import type { OptionName, TreeOptions } from '../options/options.js';
import type { GrowFn } from './types.js';

/** What a pruner is given: the tree as grown, the options, and the rows it was grown on. */
export interface PrunerInput {
  /** The tree as grown; a pruner returns a new tree and leaves this one as it is. */
  nodes: TreeNode[];
  /** Every tree option, defaults filled in. */
  options: TreeOptions;
  /** The rows the tree was grown from (with `trainRows`), and their weights (sample × class weights). */
  data?: Dataset;
  weights?: Float64Array;
  /** Rows of `data` the tree was grown on (default: all). */
  trainRows?: ArrayLike<number>;
  /** How many training rows each row of `data` stands for (default 1 each; `PruneContext.rowCounts`). */
  rowCounts?: ArrayLike<number>;
  /** Rows of `data` held out from growing (pruners with `holdOut`). */
  validationRows?: ArrayLike<number>;
  /** Grows a tree on other rows (cross-validation). */
  grow?: GrowFn;
}

/** What a pruner adds to the model's `pruning` record beyond the method and the leaf counts. */
export type PruningDetails = Omit<PruningInfo, 'method' | 'leavesBefore' | 'leavesAfter'>;

export interface PrunerOutput {
  /** The pruned tree: renumbered, children consecutive, depths recomputed (`compactTree` does this). */
  nodes: TreeNode[];
  details?: PruningDetails;
}

/** A pruner's input with the tree as the grower made it (a `TreeStore`, or node objects). */
export interface GrownPrunerInput extends Omit<PrunerInput, 'nodes'> {
  tree: GrownTree;
}

/** A pruned tree as grown: a `TreeStore` in, a `TreeStore` out; node objects in, node objects out. */
export interface GrownPrunerOutput {
  nodes: GrownTree;
  details?: PruningDetails;
}

/**
 * A post-pruning method: one entry of the pruner table. `fit(data, { prune: name })` grows a tree
 * and hands it to `prune`; the model file records `name` as `pruning.method`.
 */
export interface Pruner {
  /** The value of the `prune` option (and of the CLI's `--prune`) that selects this method. */
  readonly name: string;
  /** One line for `--help` and the docs. */
  readonly description: string;
  /** The tree options the method reads besides `prune` (listed in help and docs). */
  readonly reads: readonly OptionName[];
  /**
   * Rows to hold out from growing, for a method that judges subtrees on unseen rows: the tree is
   * grown on `train` and `prune` receives `validation` as `validationRows`.
   */
  readonly holdOut?: (data: Dataset, options: TreeOptions) => { train: number[]; validation: number[] };
  prune(input: PrunerInput): PrunerOutput;
  /**
   * Optional: `prune` on the tree as grown, for a method that can read a `TreeStore` as it is
   * (its class weights dense or sparse) instead of node objects, whose class counts are dense.
   */
  pruneGrown?(input: GrownPrunerInput): GrownPrunerOutput;
}
