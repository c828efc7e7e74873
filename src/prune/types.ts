import type { Dataset } from '../data/dataset.js';
import type { TreeNode } from '../model/node.js';
import type { PruningInfo } from '../model/pruning-info.js';
import type { GrownTree } from '../model/store.js';
import type { TreeOptions } from '../options/options.js';

export type { CcpCv, CcpCvRow, CcpPathEntry, PruningInfo } from '../model/pruning-info.js';

/** Grows a full tree on a data set with per-row weights (fit passes growTree with the resolved options). */
export type GrowFn = (data: Dataset, weights: Float64Array) => GrownTree;

/** Options the built-in pruners read (a subset of the tree options). */
export type PruneOptions = Pick<
  TreeOptions,
  'prune' | 'missing' | 'confidence' | 'subtreeRaising' | 'pruneFraction' | 'ccpAlpha' | 'ccpFolds' | 'ccpRule' | 'seed'
>;

/**
 * What a pruner may need besides the tree. `data`/`weights` are the rows the tree was grown on
 * (weights: sample weights × class weights, one per row of `data`), needed for subtree raising
 * (recounting), for reduced-error pruning (with `validationRows`) and for choosing α by CV (with `grow`).
 */
export interface PruneContext {
  /** The method and its settings (any tree option); what is left out takes its default (`DEFAULTS`). */
  options: Partial<TreeOptions> & Pick<PruneOptions, 'prune'>;
  data?: Dataset;
  weights?: Float64Array;
  /** Rows of `data` the tree was grown on (default: all). */
  trainRows?: ArrayLike<number>;
  /**
   * How many training rows each row of `data` stands for (default 1 each): rows that every test of
   * the tree sends alike, grouped into one row of their summed weight (a database's recount). A
   * node's `n` counts them.
   */
  rowCounts?: ArrayLike<number>;
  /** reduced-error: rows of `data` held out for pruning. */
  validationRows?: ArrayLike<number>;
  grow?: GrowFn;
}

export interface PruneResult {
  nodes: TreeNode[];
  info: PruningInfo;
}
