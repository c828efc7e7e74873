import { GroveError } from '../core/errors.js';
import { checkDataset } from '../data/check.js';
import type { Dataset } from '../data/dataset.js';
import { limitLeaves } from '../learn/best-first.js';
import { growTree } from '../learn/grow.js';
import { j48Thresholds } from '../learn/j48-thresholds.js';
import { prepareRows } from '../learn/prepare.js';
import { type GrowProgress, metered } from '../learn/progress.js';
import { DecisionTree, TRUSTED_MODEL } from '../model/decision-tree.js';
import type { PruningInfo } from '../model/pruning-info.js';
import { type FeatureSchema, featureSchemaOf } from '../model/schema.js';
import { type GrownTree, nodesOf, type TreeStore } from '../model/store.js';
import { fitOptimal } from '../optimal/fit-optimal.js';
import {
  type FitOptions,
  OPTION_DESCRIPTORS,
  type ResolveContext,
  type ResolvedOptions,
  resolveOptions,
  savedOptions,
} from '../options/options.js';
import { checkThreads } from '../options/threads.js';
import { collapseTree, type GrowFn, growThenPrune } from '../prune/index.js';
import { NO_PRUNING } from '../prune/none.js';
import { growCmbsv } from './cmbsv/grow.js';
import { cmbsvSavedOptions } from './cmbsv/saved.js';

/**
 * Grow a decision tree on `data`.
 *
 * @param data a Dataset from `readDataset` (Node) or `datasetFromRows` (anywhere)
 * @param options a preset (`algorithm: 'id3' | 'c45' | 'cart' | 'zaki' | 'cmbsv'`, default `cart`) and any
 *   option overriding it; see `TreeOptions` for each option and its default
 * @param context how error messages name options: by field (`classWeight`, default) or by CLI flag
 *   (`--class-weight`); and `onGrown`, to hear of each tree grown while pruning is still to come
 * @throws GroveError for a malformed Dataset, an invalid option, an empty data set, or bad weights
 *   (negative, not finite, or zero on every row)
 *
 * @example
 * ```ts
 * const tree = fit(data, { criterion: 'dcsm', categoricalSplit: 'multiway', maxDepth: 8 });
 * ```
 */
export function fit(data: Dataset, options: FitOptions = {}, context: FitContext = {}): DecisionTree {
  // Optimal trees (src/optimal/) are searched, not grown.
  if (typeof options === 'object' && options !== null && (options.optimal === true || options.algorithm === 'optimal'))
    return fitOptimal(data, options, { names: context.names });
  return fitPlanned(planFit(data, options, context));
}

/**
 * What `fit` grows on, from `planFit`: the options resolved and the rows and weights every tree
 * grows on (ordered categories as their ranks, rows of weight 0 left out). `fitPlanned` finishes it.
 */
export interface FitPlan {
  /** The options, resolved (preset, defaults, the measure's implementation). */
  readonly opts: ResolvedOptions;
  /** The rows every tree grows on: ordered categories as their ranks, rows of weight 0 left out. */
  readonly data: Dataset;
  /** The weight of each row of `data` (sample and class weights applied). */
  readonly weights: Float64Array;
  /** Threads to grow with (`threads` checked). */
  readonly threads: number | 'auto';
  /** The data set given to `fit` (its target and classes name the model's). */
  readonly given: Dataset;
  /** Each ordered categorical feature's levels, in order (saved in the model). */
  readonly levels: Map<string, string[]>;
  /** How messages name options, and who hears of each tree grown. */
  readonly context: FitContext;
}

/** `fit`'s checks and preparation, up to growing. */
export function planFit(data: Dataset, options: FitOptions = {}, context: FitContext = {}): FitPlan {
  checkDataset(data, { caller: 'fit', labelled: true });
  refuseForestOptions(options, context);
  const opts = resolveOptions(options, context);
  if (opts.optimal)
    throw new GroveError('an optimal tree is searched by fitOptimal, not grown step by step', { code: 'E_OPTION' });
  const threads = checkThreads(options.threads, context.names === 'flags' ? '--threads' : 'threads');
  const kept = prepareRows(data, options.sampleWeight, opts, context);
  return { opts, data: kept.data, weights: kept.weights, threads, given: data, levels: kept.levels, context };
}

/**
 * Grow and prune what `plan` describes and make the model. `grown`, when given, is the tree
 * `growTree(plan.data, plan.opts, plan.weights)` gives (C-MBSV: its grower's tree, without k-NN
 * regions), grown elsewhere (the explore page grows it on two workers) from `plan.data` with
 * `plan.weights`: it stands for the tree grown on all of `plan.data`, and must be used (a pruning
 * that never grows on all of it gets no such tree).
 * @throws GroveError (E_MODEL) when `grown` went unused
 */
export function fitPlanned(plan: FitPlan, grown?: TreeStore): DecisionTree {
  return fitInSteps(plan, grown).prune();
}

/**
 * `fitPlanned` in two steps: the tree that pruning cuts is grown (and `onGrown` told of it) when
 * this returns; `prune` prunes it and makes the model. The explore page shows that tree in between.
 * @throws GroveError (E_MODEL) when `grown` went unused
 */
export function fitInSteps(plan: FitPlan, grown?: TreeStore): { prune(): DecisionTree } {
  const { opts, data: kept, weights, threads, given: data, levels, context } = plan;
  // Post-pruning (src/prune/): grows with growTree, holding rows out or cross-validating as the method needs.
  // C-MBSV has its own grower (src/algorithms/cmbsv/). growTree grows best-first under maxLeafNodes;
  // of C-MBSV's trees it keeps the best-first part (src/learn/best-first.ts).
  let pregrown = grown;
  const { onGrown, onProgress } = context;
  const pruned = opts.prune !== NO_PRUNING;
  // Pruning grows the tree it cuts first, then (cost-complexity without ccpAlpha) one tree per fold.
  const total = pruned && opts.prune === 'cost-complexity' && opts.ccpAlpha === undefined ? 1 + opts.ccpFolds : 1;
  let begun = 0;
  const grow: GrowFn = (d, w) => {
    const index = ++begun;
    const heard = onProgress && ((p: GrowProgress) => onProgress({ ...p, tree: index, trees: Math.max(total, index) }));
    if (opts.algorithm === 'cmbsv') {
      const given = pregrown && d === kept ? pregrown : undefined;
      if (given) pregrown = undefined;
      const tree = metered(
        w,
        heard,
        (meter) => growCmbsv(d, opts, w, given, meter),
        (nodes) => nodes.length,
      );
      return opts.maxLeafNodes === undefined ? tree : limitLeaves(tree, opts.maxLeafNodes, opts.criterionImpl);
    }
    let tree: TreeStore;
    if (pregrown && d === kept) {
      tree = pregrown;
      pregrown = undefined;
    } else tree = growTree(d, opts, w, threads, heard);
    // J48 puts thresholds at training values and collapses, as part of growing, every subtree
    // that does not cut training errors (also unpruned).
    return opts.j48Rules ? collapseTree(j48Thresholds(nodesOf(tree), d)) : tree;
  };
  const model = (nodes: GrownTree, info?: PruningInfo) =>
    new DecisionTree(
      {
        target: data.targetName,
        features: modelFeatures(kept, levels),
        classes: data.classes.slice(),
        options: { ...savedOptions(opts), ...cmbsvSavedOptions(opts) },
        nodes,
        ...(info ? { pruning: info } : {}),
      },
      TRUSTED_MODEL,
    );
  let count = 0;
  const growing: GrowFn =
    onGrown && pruned
      ? (d, w) => {
          const tree = grow(d, w);
          count++;
          onGrown({ grown: count, total, ...(count === 1 ? { tree: model(tree) } : {}) });
          return tree;
        }
      : grow;
  const steps = growThenPrune({ options: opts, data: kept, weights, grow: growing });
  if (pregrown) throw new GroveError('internal: the tree grown elsewhere was not used', { code: 'E_MODEL' });
  return {
    prune: () => {
      const { nodes, info } = steps.prune();
      return model(nodes, info);
    },
  };
}

/** How `fit` names options in its messages, and what it tells while it works. */
export interface FitContext extends ResolveContext {
  /**
   * Called, when the tree will be pruned, after each tree grown: first (`grown` 1) the tree that
   * pruning will cut, as `tree` (before pruning; the model `fit` returns is this tree pruned), then
   * each tree pruning grows to choose its settings (cost-complexity's cross-validation: one per
   * fold, `total` = 1 + folds). Not called when nothing is pruned.
   */
  onGrown?: (progress: { grown: number; total: number; tree?: DecisionTree }) => void;
  /**
   * Told how far growing is, a batch of nodes at a time (every few hundred nodes or a tenth of a
   * second, and once when each tree is grown): the tree growing (`tree` of `trees`: pruning by
   * cost-complexity's cross-validation grows one per fold after the first) and its nodes and
   * settled weight (`settled` reaches `weight` when the tree is grown). Greedy in-memory trees
   * (exact and histogram mode, on any number of threads) and C-MBSV trees; optimal trees do not call it.
   */
  onProgress?: (progress: FitProgress) => void;
}

/** How far `fit` is (`FitContext.onProgress`). */
export interface FitProgress extends GrowProgress {
  /** The tree growing, from 1. */
  tree: number;
  /** The trees the fit grows. */
  trees: number;
}

/** A forest option given to `fit` would be silently ignored: refuse it, naming `fitForest`. */
function refuseForestOptions(options: FitOptions, context: FitContext): void {
  if (options === null || typeof options !== 'object') return;
  for (const d of OPTION_DESCRIPTORS) {
    if (d.group !== 'forest' || (options as Record<string, unknown>)[d.name] === undefined) continue;
    const label = context.names === 'flags' ? `--${d.flag}` : d.name;
    throw new GroveError(`${label} is a forest option: grow a forest with fitForest (grove fit --forest KIND)`, {
      code: 'E_OPTION',
    });
  }
}

/** The model's features for growing on `data` (its columns, ordered categories' levels from `levels`). */
export function modelFeatures(data: Dataset, levels: ReadonlyMap<string, string[]>): FeatureSchema[] {
  return data.features.map((col) => featureSchemaOf(col, levels.get(col.name)));
}
