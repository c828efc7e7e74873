import { cmbsvSavedOptions } from '../algorithms/cmbsv/saved.js';
import { type FitContext, type FitPlan, fitPlanned, modelFeatures, planFit } from '../algorithms/fit.js';
import { GroveError } from '../core/errors.js';
import type { Dataset, NumericColumn, NumericValues } from '../data/dataset.js';
import { classWeights } from '../data/weights.js';
import { featureCount } from '../learn/feature-draw.js';
import { forgetRanks } from '../learn/node-ranks.js';
import { dropScratch, keepScratch } from '../learn/node-scratch.js';
import { nodeSortApplies } from '../learn/node-sort-applies.js';
import { withoutZeroWeights } from '../learn/zero-weights.js';
import { DecisionTree, TRUSTED_MODEL } from '../model/decision-tree.js';
import type { FeatureSchema, ModelFile, SavedOptions } from '../model/schema.js';
import type { Split } from '../model/split.js';
import { type GrownTree, TreeStore } from '../model/store.js';
import { type FitOptions, type ResolvedOptions, savedOptions } from '../options/options.js';
import { NO_PRUNING } from '../prune/none.js';
import { bootstrapCounts, subspaceFeatures, treeSeed } from './draws.js';
import { Forest } from './forest.js';
import { type ForestBins, forestBins, growOnBins, usesForestBins } from './forest-bins.js';
import { oobEstimate } from './oob.js';
import { bootstrapSize, type ForestSettings, forestSettings } from './settings.js';

/** What `fitForest` tells while it works, and a forest to extend. */
export interface ForestContext extends FitContext {
  /** Called after each tree grown (progress on a terminal). */
  onTree?: (progress: { grown: number; total: number }) => void;
  /**
   * scikit-learn's `warm_start`: keep this forest's trees and grow only trees `forest.trees.length`
   * to `trees - 1`. The result equals the forest grown at once with the same data and options;
   * the options must equal the ones `forest` was grown with, but for `trees` (GroveError otherwise).
   */
  warmStart?: Forest;
}

/**
 * Grow a forest on `data`: `trees` trees (default 100), each grown by the tree growers with every
 * tree option (any criterion, preset, histogram mode, missing-value policy, pruning).
 *
 * - `random-forest` (default): a bootstrap sample of rows per tree, `maxFeatures: 'sqrt'` features drawn per node;
 * - `extra-trees`: every row, `sqrt` features per node, one random threshold per drawn numeric feature;
 * - `bagging`: a bootstrap sample per tree, every feature;
 * - `random-subspace`: every row, a random subset of the features per tree (`maxFeatures`, default half).
 *
 * Defaults equal scikit-learn's `RandomForestClassifier`: 100 trees, gini, `sqrt`, bootstrap,
 * grown until pure, `minSamplesLeaf` 1. Tree i is seeded by (`seed`, i) alone, so the forest is
 * the same on any number of threads and when grown in steps (`context.warmStart`).
 *
 * @throws GroveError for bad data or options (`trees` < 1, `maxSamples` 0 or above the rows,
 *   `oobScore` without bootstrap, ...), naming the option
 *
 * @example
 * ```ts
 * const forest = fitForest(data, { forest: 'extra-trees', criterion: 'dcsm', trees: 200, seed: 7 });
 * forest.predict(rows);
 * forest.featureImportances();
 * ```
 */
export function fitForest(data: Dataset, options: FitOptions = {}, context: ForestContext = {}): Forest {
  const job = prepareForest(data, options, context);
  const { plan, settings, features, samples } = job;
  const previous = context.warmStart ? warmTrees(context.warmStart, settings, features, plan) : [];
  const trees = previous.slice(0, settings.trees);
  const todo = Array.from({ length: Math.max(0, settings.trees - trees.length) }, (_, j) => trees.length + j);
  const report = (grown: number) => context.onTree?.({ grown, total: settings.trees });
  const header = { target: plan.given.targetName, features, classes: plan.given.classes.slice() };
  const sortColumns = nodeSortColumns(job);
  if (sortColumns) keepScratch();
  try {
    const parallel =
      plan.threads !== 1 && parallelForest && todo.length > 1
        ? parallelForest(
            data,
            options,
            header,
            todo,
            plan.threads,
            (done) => report(trees.length + done),
            (i) => growForestTree(job, i),
            sortColumns,
            usesForestBins(plan, settings.subspace !== null) ? job : null,
          )
        : null;
    if (parallel) for (const tree of parallel) trees.push(tree);
    else
      for (const i of todo) {
        trees.push(growForestTree(job, i));
        report(i + 1);
      }
  } finally {
    // The ranks (4 bytes a value) would otherwise stay as long as the data, beside the trees; a fit
    // that throws lets them and the kept scratch go too.
    if (sortColumns) {
      forgetRanks(sortColumns);
      dropScratch();
    }
  }
  const oob = settings.oobScore ? oobEstimate(plan.data, trees, settings, samples) : undefined;
  return new Forest({
    target: plan.given.targetName,
    features,
    classes: plan.given.classes.slice(),
    settings,
    options: forestTreeOptions(plan),
    trees,
    ...(oob ? { oob } : {}),
  });
}

/** The trees' options as a model file records them, with the forest's seed (each tree has its own). */
function forestTreeOptions(plan: FitPlan): SavedOptions {
  return { ...savedOptions(plan.opts), ...cmbsvSavedOptions(plan.opts) };
}

/** What every tree of a forest grows from: the checked options and data, shared by all threads. */
export interface ForestJob {
  readonly plan: FitPlan;
  readonly settings: ForestSettings;
  /** The model's features (all of them, whatever a tree's subspace). */
  readonly features: FeatureSchema[];
  /** Rows each bootstrap draws. */
  readonly samples: number;
  /**
   * Histogram mode: the rows binned once for every tree this thread grows (made by the first, or
   * by all the threads together before it).
   */
  bins?: ForestBins;
}

/** `fitForest`'s checks and preparation, up to growing (the same on every thread). */
export function prepareForest(data: Dataset, options: FitOptions, context: ForestContext = {}): ForestJob {
  const { settings, treeOptions } = forestSettings(options, context);
  const plan = planFit(data, treeOptions, context);
  const n = plan.data.nRows;
  const samples = settings.bootstrap ? bootstrapSize(settings, n, context) : n;
  return { plan, settings, features: modelFeatures(plan.data, plan.levels), samples };
}

/**
 * Grows trees `indices` of the forest `fitForest(data, options)` on `threads` threads, this one
 * among them (`here` grows tree i on it), in index order, each over `header` (the forest's target,
 * features and classes), telling `onTree` the count grown so far; null when it cannot (then they
 * grow here). `sortColumns`: the columns the trees sort by rank (per-node sorting), whose ranks
 * the threads can share; null when the trees grow otherwise. `binJob`: the job whose trees grow on
 * the forest's bins, which the threads bin together (its `bins` set before the first tree here);
 * null when they do not. Installed by the Node entry (src/ensemble/threads/); browsers grow on one
 * thread.
 */
export type ParallelForest = (
  data: Dataset,
  options: FitOptions,
  header: Pick<ModelFile, 'target' | 'features' | 'classes'>,
  indices: number[],
  threads: number | 'auto',
  onTree: (grown: number) => void,
  here: (i: number) => DecisionTree,
  sortColumns: NumericValues[] | null,
  binJob: ForestJob | null,
) => DecisionTree[] | null;
let parallelForest: ParallelForest | undefined;

/** Install the worker-thread forest grower (the Node entry does). */
export function setParallelForest(grow: ParallelForest | undefined): void {
  parallelForest = grow;
}

/**
 * Tree `i` of the forest: its rows (bootstrap counts as weights), its features, its seed. It
 * depends on (the job, i) alone, so any thread grows the same tree. Its store comes compacted.
 */
export function growForestTree(job: ForestJob, i: number): DecisionTree {
  return compacted(growTree(job, i));
}

function growTree(job: ForestJob, i: number): DecisionTree {
  const { plan, settings, features, samples } = job;
  // Trees share out the threads; each grows on one.
  const seed = treeSeed(settings.seed, i);
  const n = plan.data.nRows;
  const weights = plan.weights.slice();
  if (settings.bootstrap) {
    const counts = bootstrapCounts(settings.seed, i, n, samples);
    for (let r = 0; r < n; r++) weights[r] *= counts[r];
    if (settings.balancedSubsample) balanceSample(plan.data, counts, samples, weights);
  } else if (settings.balancedSubsample) balanceSample(plan.data, null, n, weights);
  const opts = { ...plan.opts, seed };
  if (usesForestBins(plan, settings.subspace !== null)) {
    job.bins ??= forestBins(plan);
    return fitPlanned({ ...plan, opts, weights, threads: 1 }, growOnBins(job.bins, plan, opts, weights));
  }
  // The per-node sorting grower leaves the rows of weight 0 out itself: no copy of the drawn rows.
  if (sortsNodes(job, opts, weights)) return fitPlanned({ ...plan, opts, weights, threads: 1 });
  let kept = withoutZeroWeights(plan.data, weights);
  let subset: Int32Array | null = null;
  if (settings.subspace !== null) {
    const d = plan.data.features.length;
    subset = subspaceFeatures(settings.seed, i, d, featureCount(settings.subspace, d));
    kept = {
      data: { ...kept.data, features: Array.from(subset, (f) => kept.data.features[f]) },
      weights: kept.weights,
    };
  }
  const tree = fitPlanned({
    ...plan,
    opts,
    data: kept.data,
    weights: kept.weights,
    threads: 1,
  });
  return subset ? onAllFeatures(tree, subset, features) : tree;
}

/** Whether a tree with these options and weights grows with the per-node sorting grower (after the forest's bins). */
function sortsNodes(job: ForestJob, opts: ResolvedOptions, weights: Float64Array): boolean {
  return job.settings.subspace === null && opts.prune === NO_PRUNING && nodeSortApplies(job.plan.data, opts, weights);
}

/** The columns the trees will sort by rank, judged from the forest's own weights (null: none). */
function nodeSortColumns(job: ForestJob): NumericValues[] | null {
  const { plan, settings } = job;
  if (usesForestBins(plan, settings.subspace !== null) || !sortsNodes(job, plan.opts, plan.weights)) return null;
  return plan.data.features.map((col) => (col as NumericColumn).values);
}

/** Multiply in class weights balanced over one bootstrap sample (`counts`; null: every row once). */
function balanceSample(data: Dataset, counts: Int32Array | null, samples: number, weights: Float64Array): void {
  const perClass = new Float64Array(data.classes.length);
  for (let r = 0; r < data.nRows; r++) perClass[data.labels[r]] += counts ? counts[r] : 1;
  const w = classWeights('balanced', data.classes, perClass, samples, 'classWeight', data.source);
  for (let r = 0; r < data.nRows; r++) weights[r] *= w[data.labels[r]];
}

/** A tree grown on a subset of the features, renumbered onto all of them (random subspaces). */
function onAllFeatures(tree: DecisionTree, subset: Int32Array, features: FeatureSchema[]): DecisionTree {
  const grown = tree.grown();
  const nodes: GrownTree = Array.isArray(grown)
    ? grown.map((node) =>
        node.split ? { ...node, split: { ...node.split, feature: subset[node.split.feature] } } : node,
      )
    : storeOnAll(grown, subset);
  const { target, classes, options, pruning } = tree;
  return new DecisionTree(
    { target, features, classes, options, nodes, ...(pruning ? { pruning } : {}) },
    TRUSTED_MODEL,
  );
}

/** A store's splits renumbered from feature subset indices to the features themselves (a trimmed copy). */
function storeOnAll(store: TreeStore, subset: Int32Array): TreeStore {
  const d = store.data();
  for (let i = 0; i < d.size; i++) if (d.feature[i] >= 0) d.feature[i] = subset[d.feature[i]];
  const splits = new Map<number, Split>();
  for (const [id, split] of d.splits) splits.set(id, { ...split, feature: subset[split.feature] });
  return TreeStore.fromData({ ...d, splits });
}

/** The tree with its store compacted (`TreeStore.compact`): a forest keeps millions of nodes. */
function compacted(tree: DecisionTree): DecisionTree {
  const grown = tree.grown();
  if (!Array.isArray(grown)) grown.compact();
  return tree;
}

/** The trees of `forest` to keep for a warm start, after checking it was grown as asked now. */
function warmTrees(forest: Forest, settings: ForestSettings, features: FeatureSchema[], plan: FitPlan): DecisionTree[] {
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  const { trees: _a, ...was } = forest.settings;
  const { trees: _b, ...now } = settings;
  if (!same(was, now) || !same(forest.features, features) || !same(forest.classes, plan.given.classes))
    throw new GroveError('warmStart: the forest was grown with other forest options or other data columns', {
      code: 'E_OPTION',
    });
  if (!same(forest.options, forestTreeOptions(plan)))
    throw new GroveError('warmStart: the forest was grown with other tree options', { code: 'E_OPTION' });
  return forest.trees.slice();
}
