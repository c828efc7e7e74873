import { GroveError } from '../core/errors.js';
import type { ClassLabel } from '../data/dataset.js';
import type { AlignedColumn, AlignOptions, PredictInput } from '../model/align.js';
import { buildLeafTables, type LeafTables } from './leaf-tables.js';
import { type ExplainableModel, type WeightedTree, weightedTrees } from './model.js';
import { alignRows } from './rows.js';
import { columnBlock, explainRowsByTables, TableScratch } from './table-shap.js';
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
 * explained. Cost per row and tree: O(L · D) for L leaves and depth D with per-leaf tables
 * (trees of depth ≤ 16 whose tables fit a budget), else O(L · D²) (Lundberg et al. 2020).
 *
 * Rows are read as `predict` reads them (same errors). GroveError for anything else. With
 * `threads` (Node), rows are shared out among the calling thread and threads − 1 worker threads.
 *
 * @example
 * ```ts
 * const shap = shapValues(tree, rows);
 * const k = shap.classes.length, f = shap.features.length;
 * const contribution = shap.values[(0 * f + 2) * k + 1]; // row 0, feature 2, class 1
 * const fast = shapValues(forest, rows, { threads: 2 }); // the same values, on this thread and a worker
 * ```
 */
export function shapValues(model: ExplainableModel, input: PredictInput, options?: ShapOptions): ShapValues {
  const caller = 'shapValues';
  const { columns, nRows } = alignRows(model, input, options, caller, ['allowMissingKeys', 'onProgress', 'threads']);
  const onProgress = options?.onProgress;
  if (onProgress !== undefined && typeof onProgress !== 'function')
    throw new GroveError(`${caller}: options.onProgress must be a function, got ${typeof onProgress}`);
  const threads = checkThreads(options?.threads, caller);
  const k = model.classes.length;
  const f = model.features.length;
  const trees = weightedTrees(model);
  const job: ShapJob = { model, columns, nRows, nFeatures: f, nClasses: k, block: shapBlock(nRows) };
  const report = (rows: number) => onProgress?.({ rows, total: nRows });
  const values = (threads !== 1 && parallelShap?.(job, threads, report)) || rowsOnThisThread(job, trees, report);
  if (nRows === 0) onProgress?.({ rows: 0, total: 0 });
  return {
    nRows,
    features: model.features.map((x) => x.name),
    classes: model.classes,
    values,
    expected: treesExpected(trees, k),
  };
}

/** Every row's contributions on this thread, a block at a time (`report` hears of each block). */
function rowsOnThisThread(job: ShapJob, trees: readonly WeightedTree[], report: (rows: number) => void): Float64Array {
  const { columns, nRows, nFeatures: f, nClasses: k, block } = job;
  const values = new Float64Array(nRows * f * k);
  const explainer = new TreesExplainer(trees, f, k);
  for (let from = 0; from < nRows; from += block) {
    const to = Math.min(nRows, from + block);
    values.set(explainer.explain(columns, from, to), from * f * k);
    report(to);
  }
  return values;
}

/** Rows per block: a listener hears of each hundredth of the rows, not of every row. */
function shapBlock(nRows: number): number {
  return Math.max(1, Math.ceil(nRows / 100));
}

function checkThreads(threads: ShapOptions['threads'], caller: string): number | 'auto' {
  if (threads === undefined) return 1;
  if (threads === 'auto' || (Number.isInteger(threads) && threads >= 1)) return threads;
  throw new GroveError(`${caller}: options.threads must be an integer ≥ 1 or 'auto', got ${String(threads)}`, {
    code: 'E_OPTION',
  });
}

/** What `shapValues` shares out among threads: the model, its aligned rows, and the block size. */
export interface ShapJob {
  model: ExplainableModel;
  columns: AlignedColumn[];
  nRows: number;
  nFeatures: number;
  nClasses: number;
  /** Rows per block handed out (progress is reported per block). */
  block: number;
}

/**
 * Computes every row's contributions (rows × features × classes) on worker threads, telling
 * `report` the number of rows finished after each block, or returns null to leave the work to
 * this thread. Installed by the Node entry (src/explain/threads/); browsers explain on one thread.
 */
export type ParallelShap = (
  job: ShapJob,
  threads: number | 'auto',
  report: (rows: number) => void,
) => Float64Array | null;

let parallelShap: ParallelShap | undefined;

/** Install (or remove) the worker-thread explainer: done by importing src/explain/threads/parallel-shap.ts. */
export function setParallelShap(run: ParallelShap | undefined): void {
  parallelShap = run;
}

/** How `shapValues` reads rows (as `predict` does), and who hears of its progress. */
export interface ShapOptions extends AlignOptions {
  /**
   * Told of the rows explained so far (`rows` of `total`), after each hundredth of them and at
   * the end (`rows` = `total`).
   */
  onProgress?: (progress: { rows: number; total: number }) => void;
  /**
   * Threads (Node; the `grove/node` entry, which installs them), the calling one included: a
   * number, or `auto` for the machine's cores when the work is large enough to pay for starting
   * workers. Each row is
   * explained whole on one thread, so the values are the same, bit for bit, on any number of
   * threads. Default 1; browsers always use one.
   */
  threads?: number | 'auto';
}

/**
 * Explains rows of the weighted sum of some trees: each tree prepared once (its leaf tables where
 * they fit, leaf-tables.ts; else Lundberg's walk, tree-shap.ts), then any blocks of rows.
 */
export class TreesExplainer {
  private readonly tables: (LeafTables | null)[];
  private readonly walk: TreeShapExplainer;
  private readonly scratch = new TableScratch();
  private rows = new Float64Array(0);

  constructor(
    private readonly trees: readonly WeightedTree[],
    private readonly nFeatures: number,
    private readonly nClasses: number,
  ) {
    this.tables = trees.map((t) => buildLeafTables(t.tree));
    this.walk = new TreeShapExplainer(nFeatures);
  }

  /** Contributions (rows × features × classes) of rows [from, to) of `columns`. */
  explain(columns: AlignedColumn[], from: number, to: number): Float64Array {
    const { trees, tables, walk, scratch } = this;
    const stride = this.nFeatures * this.nClasses;
    const out = new Float64Array((to - from) * stride);
    if (this.rows.length < (to - from) * columns.length) this.rows = new Float64Array((to - from) * columns.length);
    columnBlock(columns, from, to, this.rows);
    // Tree by tree over the block, so that one tree's tables stay in cache; each row still adds
    // its trees' contributions in the trees' order.
    for (let t = 0; t < trees.length; t++) {
      const { tree, weight } = trees[t];
      const table = tables[t];
      const handed =
        table === null ? -1 : explainRowsByTables(table, scratch, columns, this.rows, from, to, out, weight);
      if (handed === 0) continue;
      for (let i = from; i < to; i++)
        if (handed < 0 || scratch.handed[i - from] === 1)
          walk.explainRow(tree, columns, i, out, (i - from) * stride, weight);
    }
    return out;
  }
}

/** Expected value per class of the weighted sum of `trees`. */
export function treesExpected(trees: readonly WeightedTree[], nClasses: number): Float64Array {
  const out = new Float64Array(nClasses);
  for (const t of trees) expectedValue(t.tree, out, t.weight);
  return out;
}
