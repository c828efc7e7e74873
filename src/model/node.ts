import { argMax } from '../core/extent.js';
import type { Split } from './split.js';

/**
 * The forms a tree takes, and what each is for. Every form is read through `NodeSource` (store.ts:
 * `size` and `node(id)`), so code that only reads a tree takes any of them.
 *
 * - `TreeNode[]` (this file): the tree as data: the model file's `nodes` (schema.ts, `ModelFile`),
 *   what pruners take and return and what the exporters read. Ids are the grower's numbering:
 *   children of a node are consecutive ids after it (compact.ts).
 * - `TreeStore` (store.ts): what the growers write, the same nodes in typed arrays (a fraction of
 *   the memory of node objects on a big tree), class weights dense or, over many classes, only
 *   those present per node (node-counts.ts). It is a `NodeSource`; `toNodes()` gives the
 *   `TreeNode[]`, key for key. `DecisionTree` keeps it and makes the objects on first use.
 *   Cost-complexity pruning reads and prunes it as it is (tree-shape.ts), without node objects.
 * - `CompiledTree` (compiled.ts): built from any `NodeSource` for prediction: parallel typed
 *   arrays, thresholds and category tables packed, class distributions normalised. Its
 *   `FastRoutes` (fast-routes.ts) is an index over it, not a tree of its own: binary numeric nodes
 *   renumbered in preorder for the block walk, every other node a stop handed back to
 *   `CompiledTree.route`.
 *
 * Which branch a value takes at a split, and which values a branch receives, are defined once in
 * route.ts; every form above routes and describes branches through it.
 */

/** One node of a fitted tree, as stored in the model file. */
export interface TreeNode {
  /** Weighted training class counts at the node, one per class. */
  counts: number[];
  /**
   * Number of training entries that reached the node (a row split by C4.5's fractional policy counts in each
   * branch).
   */
  n: number;
  /** Root = 0. */
  depth: number;
  /** Absent for a leaf. */
  split?: Split;
  /** Node ids, one per branch of `split` (contiguous ids). */
  children?: number[];
  /** The criterion's raw value for the chosen split, as its paper defines it. */
  score?: number;
  /** Oriented improvement of the split over the node seen as one branch (used for importances). */
  improvement?: number;
  /**
   * Branch taken by a missing value (or a category with no branch) under the `majority` and
   * `learned` policies. Absent under `fractional`: such a row goes down every branch, weighted.
   */
  missingBranch?: number;
  /**
   * C-MBSV (docs/cmbsv.md): a leaf for an empty branch between two non-empty branches of a
   * multi-threshold split — an *unclassified region*. It has no training rows (`counts` all 0,
   * `n` 0); `predict` reports such rows as unclassified (null), unless `knn` is present.
   */
  unclassified?: true;
  /** C-MBSV with `unclassified: 'knn'`: what k-NN needs to label rows of this unclassified region. */
  knn?: KnnRegion;
}

/**
 * The training rows of the parent node of an unclassified region, for k-nearest-neighbour
 * labelling (C-MBSV paper, section 4.1). Distance: Euclidean over every feature, numeric values
 * standardised as `(x − center) / scale`; a categorical feature adds 1 when the codes differ; a
 * value missing on either side adds 1.
 */
export interface KnnRegion {
  /** One row per training row: one value per model feature (numeric value or category code; null = missing). */
  rows: (number | null)[][];
  /** Class index of each row. */
  labels: number[];
  /** Per feature: mean of the known values over `rows` (0 for categorical features). */
  center: number[];
  /** Per feature: their standard deviation (1 when it is 0, and for categorical features). */
  scale: number[];
}

/**
 * Whether `node`, a child of `parent`, is J48's branch for a category unseen at the parent: a
 * child of a categorical split that no training weight reached. It predicts its parent's class
 * distribution, as J48 does (compiled.ts, the exports). Numeric regions without rows (C-MBSV) keep
 * their own.
 */
export function emptyCategoryBranch(node: TreeNode, parent: TreeNode | undefined): boolean {
  if (!parent?.split || parent.split.kind === 'numeric' || node.unclassified) return false;
  for (const w of node.counts) if (w > 0) return false;
  return true;
}

/** The class a node predicts: its majority class, or its parent's for an `emptyCategoryBranch`. */
export function predictedClass(node: TreeNode, parent: TreeNode | undefined): number {
  return emptyCategoryBranch(node, parent) ? majorityClass(parent!.counts) : majorityClass(node.counts);
}

/** Index of the largest count; ties go to the lowest class index. */
export function majorityClass(counts: ArrayLike<number>): number {
  return argMax(counts);
}
