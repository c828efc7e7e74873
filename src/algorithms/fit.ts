import { GroveError } from '../core/errors.js';
import type { Dataset } from '../data/dataset.js';
import { growTree } from '../learn/grow.js';
import { DecisionTree } from '../model/decision-tree.js';
import { applyOrderedCategories } from '../model/ordinal.js';
import type { FeatureSchema } from '../model/schema.js';
import { type FitOptions, type ResolvedOptions, resolveOptions, savedOptions } from '../options/options.js';
import { type GrowFn, growAndPrune } from '../prune/index.js';
import { growCmbsv } from './cmbsv/grow.js';
import { cmbsvSavedOptions } from './cmbsv/saved.js';

/**
 * Grow a decision tree on `data`.
 *
 * @param data a Dataset from `readDataset` (Node) or `datasetFromRows` (anywhere)
 * @param options a preset (`algorithm: 'id3' | 'c45' | 'cart' | 'zaki' | 'cmbsv'`, default `cart`) and any
 *   option overriding it; see `TreeOptions` for each option and its default
 * @throws GroveError for an invalid option, an empty data set or bad weights
 *
 * @example
 * ```ts
 * const tree = fit(data, { criterion: 'dcsm', categoricalSplit: 'multiway', maxDepth: 8 });
 * ```
 */
export function fit(data: Dataset, options: FitOptions = {}): DecisionTree {
  const opts = resolveOptions(options);
  if (data.nRows === 0) throw new GroveError('no data rows to learn from', { file: data.source });
  if (data.classes.length === 0) throw new GroveError('no class labels', { file: data.source });
  const weights = applyClassWeight(checkWeights(options.sampleWeight ?? data.weights, data.nRows), data, opts);
  // Post-pruning (src/prune/): grows with growTree, holding rows out or cross-validating as the method needs.
  // Ordered categorical features become their ranks (orderedCategories); C-MBSV has its own grower
  // (src/algorithms/cmbsv/).
  const { data: ranked, levels } = applyOrderedCategories(data, opts.orderedCategories);
  const threads = checkThreads(options.threads);
  const grow: GrowFn =
    opts.algorithm === 'cmbsv' ? (d, w) => growCmbsv(d, opts, w) : (d, w) => growTree(d, opts, w, threads);
  const { nodes, info } = growAndPrune({ options: opts, data: ranked, weights, grow });
  return new DecisionTree({
    target: data.targetName,
    features: ranked.features.map((col) => ({
      ...featureSchema(col),
      ...(levels.has(col.name) ? { levels: levels.get(col.name)! } : {}),
    })),
    classes: data.classes.slice(),
    options: { ...savedOptions(opts), ...cmbsvSavedOptions(opts) },
    nodes,
    ...(info ? { pruning: info } : {}),
  });
}

function checkThreads(threads: FitOptions['threads']): number | 'auto' {
  if (threads === undefined) return 1;
  if (threads === 'auto' || (Number.isInteger(threads) && threads >= 1)) return threads;
  throw new GroveError(`threads must be an integer ≥ 1 or 'auto', got ${String(threads)}`);
}

function featureSchema(col: Dataset['features'][number]): FeatureSchema {
  return col.kind === 'numeric'
    ? { name: col.name, kind: 'numeric' }
    : { name: col.name, kind: 'categorical', categories: col.categories.slice() };
}

/** Multiply each row's weight by its class weight (`balanced`: n / (k · n_c), as scikit-learn). */
function applyClassWeight(weights: Float64Array, data: Dataset, opts: ResolvedOptions): Float64Array {
  const cw = opts.classWeight;
  if (cw === undefined) return weights;
  const k = data.classes.length;
  const perClass = new Float64Array(k).fill(1);
  if (cw === 'balanced') {
    const count = new Float64Array(k);
    for (let i = 0; i < data.nRows; i++) count[data.labels[i]]++;
    for (let c = 0; c < k; c++) perClass[c] = count[c] > 0 ? data.nRows / (k * count[c]) : 0;
  } else {
    const known = new Set(data.classes.map(String));
    for (const label of Object.keys(cw)) {
      if (!known.has(label))
        throw new GroveError(`classWeight names '${label}', which is not a class (classes: ${[...known].join(', ')})`);
    }
    data.classes.forEach((label, c) => (perClass[c] = cw[String(label)] ?? 1));
  }
  for (let i = 0; i < data.nRows; i++) weights[i] *= perClass[data.labels[i]];
  return weights;
}

function checkWeights(given: ArrayLike<number> | undefined, n: number): Float64Array {
  if (given === undefined) return new Float64Array(n).fill(1);
  if (given.length !== n) throw new GroveError(`sampleWeight has ${given.length} entries for ${n} rows`);
  const w = Float64Array.from(given);
  for (let i = 0; i < n; i++) {
    if (!(w[i] >= 0) || !Number.isFinite(w[i]))
      throw new GroveError(`sampleWeight[${i}] must be a finite number ≥ 0, got ${w[i]}`);
  }
  return w;
}
