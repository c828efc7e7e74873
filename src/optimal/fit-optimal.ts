import { GroveError } from '../core/errors.js';
import { checkDataset } from '../data/check.js';
import type { Dataset } from '../data/dataset.js';
import { growTree } from '../learn/grow.js';
import { prepareRows } from '../learn/prepare.js';
import { DecisionTree, TRUSTED_MODEL } from '../model/decision-tree.js';
import type { OptimalityInfo } from '../model/optimality.js';
import { featureSchemaOf } from '../model/schema.js';
import type { TreeStore } from '../model/store.js';
import {
  type FitOptions,
  type OptionNaming,
  optionDescriptor,
  optionLabel,
  type ResolveContext,
  type ResolvedOptions,
  resolveOptions,
  savedOptions,
} from '../options/options.js';
import { checkThreads } from '../options/threads.js';
import { type Binarised, binarise, countTests, MAX_BINS, SUBSET_CAP, wideCategories } from './binarise.js';
import { buildStore } from './build.js';
import { SLOT_BYTES } from './cache.js';
import { Depth2Solver } from './depth2.js';
import { equivalenceBound } from './lower-bound.js';
import { type MemoryPlan, memoryPlan, NODE_MB, threadShare } from './memory.js';
import { PairTables } from './pair-table.js';
import { addProgress, searchRoot } from './root.js';
import { OptimalSearch, type SearchProgress } from './search.js';

/** How `fitOptimal` names options in messages, and who hears of its progress (about twice a second). */
export interface OptimalContext extends ResolveContext {
  onProgress?: (progress: SearchProgress) => void;
}

export type { SearchProgress } from './search.js';

/** The options an optimal tree takes; any other option given is refused (it shapes greedy trees only). */
const OPTIMAL_KEYS: ReadonlySet<string> = new Set([
  'algorithm',
  'optimal',
  'maxDepth',
  'maxLeaves',
  'objective',
  'alpha',
  'timeLimit',
  'memoryLimit',
  'bins',
  'classWeight',
  'orderedCategories',
  'sampleWeight',
  'threads',
  'seed',
  'randomState',
]);

/**
 * The optimal classification tree of depth ≤ `maxDepth` (1 to 10): the fewest (weighted)
 * misclassified training rows, or with `objective: 'sparse'` the least error rate + `alpha` ×
 * leaves, ties going to fewer leaves, at most `maxLeaves` leaves when given. Its tests are the
 * binary tests a greedy tree could choose: a threshold at every midpoint between distinct values
 * of a numeric feature (with `bins`, between the histogram grower's bins), every subset of the
 * categories a node sees of a categorical one (each category against the rest where a node sees
 * more than 10: `optimality.oneVsRest` names those features); rows missing the feature go the
 * way the search finds best.
 * Found by branch and bound over sub-problems (MurTree, DL8.5): grove's greedy tree of the same
 * depth is the first upper bound, solved sub-problems are cached, and depth 2 has its own solver.
 *
 * With `timeLimit` (seconds), or when the cache reaches `memoryLimit` (MB), the search stops and
 * the best tree found is returned; `optimality` on the model then says it is not proven optimal
 * and gives a lower bound. The model is an ordinary `DecisionTree` (predict, save, export).
 *
 * @throws GroveError for a bad data set or option (a depth out of 1..10, an unknown objective, an
 *   option of greedy trees), or when the tests would not fit the memory bound (it says how many)
 *
 * @example
 * ```ts
 * const tree = fitOptimal(data, { maxDepth: 3, bins: 16 });
 * tree.optimality?.proven; // true
 * ```
 */
export function fitOptimal(data: Dataset, options: FitOptions = {}, context: OptimalContext = {}): DecisionTree {
  checkDataset(data, { caller: 'fitOptimal', labelled: true });
  const naming: OptionNaming = context.names ?? 'fields';
  const opts = resolveOptimalOptions(options, context);
  const threads = checkThreads(options.threads, naming === 'flags' ? '--threads' : 'threads');
  const rows = prepareRows(data, options.sampleWeight, opts, context);
  const b = binarise(rows.data, rows.weights, opts.bins);
  const tests = countTests(b);
  const memory = checkMemory(b, opts, tests, naming);
  const started = Date.now();
  const W = sum(rows.weights);
  const alphaWeight = opts.objective === 'sparse' ? opts.alpha * W : 0;
  const epsilon = tieBreak(rows.weights, opts);
  const penalty = alphaWeight + epsilon;
  const greedy = growTree(rows.data, greedyOptions(opts), rows.weights);
  const greedyErr = storeError(greedy);
  const settings = {
    maxDepth: opts.maxDepth,
    maxLeaves: opts.maxLeaves ?? Infinity,
    penalty,
    deadline: opts.timeLimit === undefined ? undefined : started + opts.timeLimit * 1000,
    maxSlots: memory.maxSlots,
    pairs: memory.pairs,
    memoryBytes: memory.plan.stopBytes,
  };
  const search = new OptimalSearch(b, { ...settings, onProgress: context.onProgress });
  const job = {
    data: b,
    settings,
    threads,
    memory: memory.plan,
    onProgress: context.onProgress,
  };
  const greedyCost = greedyErr + penalty * leafCount(greedy);
  let result = searchRoot(search, job, greedyCost + Math.max(epsilon / 2, 1e-9 * greedyCost));
  // The greedy tree may use a test the search does not have (a subset at a node that sees more
  // than SUBSET_CAP categories): when nothing beats it, search again without its bound.
  if (!result.found && !result.stopped) {
    const again = searchRoot(search, job, Infinity);
    result = { ...again, progress: addProgress(result.progress, again.progress) };
  }
  const { found, stopped, resident, progress: p } = result;
  const useGreedy = !found || (stopped !== undefined && found.cost > greedyCost);
  const store = useGreedy ? greedy : buildStore(b, found!);
  const err = storeError(store);
  const value = (err + alphaWeight * leafCount(store)) / W;
  const bound = (equivalenceBound(b) + alphaWeight) / W;
  const info: OptimalityInfo = {
    proven: stopped === undefined,
    ...(stopped ? { stopped } : {}),
    objective: opts.objective,
    value,
    lowerBound: stopped === undefined ? value : Math.min(value, bound),
    trainingError: err / W,
    greedyError: greedyErr / W,
    tests,
    subproblems: p.subproblems,
    depth2: p.depth2,
    cacheHits: p.cacheHits,
    cacheEntries: p.cacheEntries,
    cacheBytes: p.cacheEntries * SLOT_BYTES,
    memoryLimit: opts.memoryLimit,
    ...(resident !== undefined ? { residentBytes: resident } : {}),
    ...oneVsRest(b, rows.data),
    seconds: (Date.now() - started) / 1000,
  };
  return new DecisionTree(
    {
      target: data.targetName,
      features: rows.data.features.map((col) => featureSchemaOf(col, rows.levels.get(col.name))),
      classes: data.classes.slice(),
      options: { ...savedOptions({ ...opts, prune: 'none' }), criterion: opts.objective },
      nodes: store,
      optimality: info,
    },
    TRUSTED_MODEL,
  );
}

/**
 * An optimal tree's options, checked and resolved without data (so a comparison can refuse a bad
 * configuration before its first fold).
 *
 * @throws GroveError for an option of greedy trees or a value out of range
 */
export function resolveOptimalOptions(options: FitOptions, context: ResolveContext = {}): ResolvedOptions {
  checkKeys(options, context.names ?? 'fields');
  return resolveOptions({ ...options, algorithm: 'optimal', optimal: true }, context);
}

/** The names of the categorical features whose wide nodes the search gives one-vs-rest tests only. */
function oneVsRest(b: Binarised, data: Dataset): Pick<OptimalityInfo, 'oneVsRest'> {
  const wide = wideCategories(b);
  if (wide.length === 0) return {};
  return { oneVsRest: { above: SUBSET_CAP, features: wide.map((g) => data.features[g].name) } };
}

/** Refuse options that shape greedy trees only, naming the first one given. */
function checkKeys(options: FitOptions, naming: OptionNaming): void {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) return;
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined || OPTIMAL_KEYS.has(key)) continue;
    const d = optionDescriptor(key);
    const label = d ? optionLabel(d, naming) : key;
    throw new GroveError(`optimal trees take no ${label} (it shapes greedy trees)`, { code: 'E_OPTION' });
  }
  if (options.algorithm !== undefined && options.algorithm !== 'optimal')
    throw new GroveError(`optimal trees take no algorithm '${String(options.algorithm)}'`, { code: 'E_OPTION' });
}

/**
 * How the search shares `memoryLimit` (see MemoryPlan), and the share of a search on one thread;
 * GroveError when the tables alone would take most of what the limit leaves beside Node itself,
 * naming the tests and what to set.
 */
function checkMemory(
  b: Binarised,
  opts: ResolvedOptions,
  tests: number,
  naming: OptionNaming,
): { plan: MemoryPlan; maxSlots: number; pairs: boolean } {
  const label = (name: string) => optionLabel(optionDescriptor(name)!, naming);
  if (opts.bins === undefined) {
    const wide = b.features.findIndex((f) => f.kind === 'ordinal' && f.bins >= MAX_BINS);
    if (wide >= 0)
      throw new GroveError(
        `optimal trees: feature ${wide + 1} has ${MAX_BINS} or more distinct values; set ${label('bins')} (e.g. 16)`,
        { code: 'E_OPTION' },
      );
  }
  const F = b.features.length;
  const levels = Math.max(0, opts.maxDepth - 2);
  const groupBytes = (bins: number) => bins * 9 + b.n * 4;
  const cells = b.features.reduce((s, f) => s + f.bins + 1, 0);
  const tableBytes = b.n * (F * 4 + 16) + Depth2Solver.bytes(b) + levels * (groupBytes(cells) + 8 * b.n);
  const plan = memoryPlan(opts.memoryLimit, tableBytes, opts.maxDepth >= 2 ? PairTables.bytes(b) : Infinity);
  const one = tableBytes > plan.budgetBytes / 2 ? null : threadShare(plan, 0);
  if (!one) {
    const mb = Math.ceil(tableBytes / 2 ** 20);
    throw new GroveError(
      `optimal trees: ${tests} binary tests over ${b.n} rows need about ${mb} MB of tables, more than half of ` +
        `what ${label('memoryLimit')} ${opts.memoryLimit} leaves beside Node itself (${NODE_MB} MB): set ` +
        `${label('bins')} (e.g. 16), lower ${label('maxDepth')}, or raise ${label('memoryLimit')}`,
      { code: 'E_OPTION' },
    );
  }
  return { plan, ...one };
}

/** Grove's greedy tree of the same depth and leaves over the same kind of tests: the first upper bound. */
function greedyOptions(opts: ResolvedOptions): ResolvedOptions {
  return resolveOptions({
    criterion: 'gini',
    maxDepth: opts.maxDepth,
    missing: 'learned',
    categoricalSplit: 'binary',
    prune: 'none',
    ...(opts.bins !== undefined ? { bins: opts.bins } : {}),
    ...(opts.maxLeaves !== undefined ? { maxLeafNodes: opts.maxLeaves } : {}),
  });
}

function storeError(store: TreeStore): number {
  let err = 0;
  for (let id = 0; id < store.size; id++) {
    if (store.branches[id] > 0) continue;
    let max = 0;
    const counts = store.counts.vector(id);
    for (const c of counts) if (c > max) max = c;
    err += sum(counts) - max;
  }
  return err;
}

function leafCount(store: TreeStore): number {
  let leaves = 0;
  for (let id = 0; id < store.size; id++) if (store.branches[id] === 0) leaves++;
  return leaves;
}

function sum(a: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i];
  return s;
}

/**
 * What each leaf adds to the objective to break ties toward fewer leaves: ε with ε · 2^maxDepth a
 * quarter of the weight unit, when every weight is a multiple of the lightest (unit or integer
 * weights), so that no real difference in error is ever outweighed. Otherwise (fractional weights,
 * or the sparse objective, whose values are not multiples of anything) 0: a tie then goes to the
 * tree met first, which is the one with fewer leaves at each node (a leaf before a split, a
 * smaller leaf budget before a larger one) but not always over the whole tree.
 */
function tieBreak(weights: Float64Array, opts: ResolvedOptions): number {
  if (opts.objective !== 'misclassification') return 0;
  let unit = Infinity;
  for (const w of weights) if (w > 0 && w < unit) unit = w;
  if (unit === Infinity) return 0;
  for (const w of weights) if (Math.abs(w / unit - Math.round(w / unit)) > 1e-9) return 0;
  return 2 ** -(opts.maxDepth + 2) * unit;
}
