import { checkObject } from '../core/args.js';
import { GroveError } from '../core/errors.js';
import type { ClassLabel } from '../data/dataset.js';
import type { AlignedColumn, PredictInput } from '../model/align.js';
import { DecisionTree } from '../model/decision-tree.js';
import { NO_BRANCH } from '../model/route.js';
import { dataGrid, type Grid, givenGrid } from './grid.js';
import { type ExplainableModel, predictTrees, weightedTrees } from './model.js';
import { alignRows } from './rows.js';
import type { ShapTree } from './tree-shap.js';

/** What `partialDependence` computes, and at which values. Every field is optional. */
export interface PartialDependenceOptions {
  /** The values to compute at: numbers for a numeric feature, category names otherwise. Default: from the data. */
  grid?: ReadonlyArray<number | string>;
  /** Most points of a numeric grid drawn from the data (default 100). */
  gridResolution?: number;
  /** Lowest and highest quantile of a numeric grid drawn from the data (default [0.05, 0.95]). */
  percentiles?: readonly [number, number];
  /** `average` (the curve, default), `individual` (ICE: one curve per row) or `both`. */
  kind?: 'average' | 'individual' | 'both';
  /**
   * `recursion`: one weighted walk of the tree per grid value, independent of the rows (as
   * scikit-learn's method of that name): at a split on the feature the walk takes the grid
   * value's branch, at any other split every branch, weighted by the training weight of each
   * child. `brute`: every row's prediction with the feature set to the grid value, averaged.
   * `auto` (default): recursion for a tree's average, brute for a forest (as a forest's curve is
   * the average over rows) and whenever individual curves are asked for. A forest's recursion is
   * the mean of its trees'.
   */
  method?: 'auto' | 'recursion' | 'brute';
}

/** A partial dependence curve, and individual (ICE) curves, of one feature. */
export interface PartialDependence {
  feature: string;
  /** The grid: numbers for a numeric feature, category (or level) names otherwise. */
  grid: (number | string)[];
  classes: ClassLabel[];
  method: 'recursion' | 'brute';
  /** average[g * classes.length + c]: the probability of class c with the feature at grid[g]. */
  average: Float64Array;
  /** ICE, when asked for: individual[(row * grid.length + g) * classes.length + c]. */
  individual?: Float64Array;
}

const OPTION_NAMES = new Set(['grid', 'gridResolution', 'percentiles', 'kind', 'method']);

/**
 * Partial dependence of the predicted class probabilities on one feature, and individual
 * conditional expectation (ICE) curves: how the prediction moves as the feature sweeps a grid.
 * C-MBSV unclassified regions count as all-zero probabilities (as `predictProba` with
 * `unclassified: 'none'`). Rows are read as `predict` reads them; GroveError for an unknown
 * feature (naming the model's features) or a bad option.
 *
 * @example
 * ```ts
 * const pd = partialDependence(tree, data, 'petal_length');
 * pd.grid;          // [1.1, 1.3, …]
 * pd.average[0];    // P(first class) with petal_length = 1.1
 * ```
 */
export function partialDependence(
  model: ExplainableModel,
  input: PredictInput,
  feature: string,
  options: PartialDependenceOptions = {},
): PartialDependence {
  const caller = 'partialDependence';
  const { columns, nRows } = alignRows(model, input, undefined, caller);
  const o = checkOptions(options, caller);
  const d = featureIndex(model, feature, caller);
  const f = model.features[d];
  const grid = o.grid ? givenGrid(f, o.grid, caller) : dataGrid(f, columns[d], o, caller);
  const forest = !(model instanceof DecisionTree);
  const method = o.method === 'auto' ? (o.kind === 'average' && !forest ? 'recursion' : 'brute') : o.method;
  if (method === 'recursion' && o.kind !== 'average')
    throw new GroveError(`${caller}: method 'recursion' gives the average only (use 'brute' for individual curves)`);
  const k = model.classes.length;
  const trees = weightedTrees(model);
  const result: PartialDependence = {
    feature: f.name,
    grid: grid.labels,
    classes: model.classes,
    method,
    average: new Float64Array(grid.values.length * k),
  };
  if (method === 'recursion') {
    for (const t of trees) recursionCurve(t.tree, d, grid, columns.length, result.average, t.weight);
    return result;
  }
  const ice = iceCurves((cols, out) => predictTrees(trees, cols, nRows, k, out), columns, nRows, d, grid, k);
  for (let i = 0; i < nRows; i++)
    for (let j = 0; j < grid.values.length * k; j++) result.average[j] += ice[i * grid.values.length * k + j];
  for (let j = 0; j < result.average.length; j++) result.average[j] /= nRows;
  if (o.kind !== 'average') result.individual = ice;
  return result;
}

/** Index of feature `name` in the model, or GroveError naming the features there are. */
export function featureIndex(model: ExplainableModel, name: string, caller: string): number {
  const d = model.features.findIndex((f) => f.name === name);
  if (d < 0) {
    const names = model.features.map((f) => f.name).join(', ');
    throw new GroveError(`${caller}: unknown feature '${String(name)}' (the model's features: ${names})`);
  }
  return d;
}

/**
 * Add `weight` × the tree's recursion curve into `out` (grid × classes): per grid value, a walk
 * that takes the value's branch at splits on feature d (through the model's routing, so an
 * unknown category takes the node's missing-value branch or is spread as the model spreads it)
 * and every branch, by training weight, elsewhere.
 */
export function recursionCurve(
  tree: ShapTree,
  d: number,
  grid: Grid,
  nFeatures: number,
  out: Float64Array,
  weight = 1,
  root = 0,
): void {
  const k = tree.classes;
  const columns: AlignedColumn[] = Array.from({ length: nFeatures }, () => grid.values);
  const nodes: number[] = [];
  const weights: number[] = [];
  for (let g = 0; g < grid.values.length; g++) {
    nodes.push(root);
    weights.push(weight);
    while (nodes.length > 0) {
      const v = nodes.pop()!;
      const w = weights.pop()!;
      if (tree.isLeaf(v)) {
        for (let c = 0; c < k; c++) out[g * k + c] += w * tree.proba[v * k + c];
        continue;
      }
      const first = tree.firstChild[v];
      const b = tree.feature[v] === d ? tree.branchAt(columns, g, v) : NO_BRANCH;
      if (b !== NO_BRANCH) {
        nodes.push(first + b);
        weights.push(w);
        continue;
      }
      for (let c = tree.branches[v] - 1; c >= 0; c--) {
        if (tree.share[first + c] === 0) continue;
        nodes.push(first + c);
        weights.push(w * tree.share[first + c]);
      }
    }
  }
}

/**
 * ICE curves: (row × grid × classes) probabilities of every row with feature d set to each grid
 * value in turn, `predict(columns, out)` writing rows × classes.
 */
export function iceCurves(
  predict: (columns: AlignedColumn[], out: Float64Array<ArrayBuffer>) => void,
  columns: AlignedColumn[],
  nRows: number,
  d: number,
  grid: Grid,
  k: number,
): Float64Array {
  const n = grid.values.length;
  const out = new Float64Array(nRows * n * k);
  const swept = columns.slice();
  const fixed = new (grid.values.constructor as new (n: number) => Float64Array | Int32Array)(nRows);
  swept[d] = fixed;
  const proba = new Float64Array(nRows * k);
  for (let g = 0; g < n; g++) {
    fixed.fill(grid.values[g]);
    predict(swept, proba);
    for (let i = 0; i < nRows; i++) for (let c = 0; c < k; c++) out[(i * n + g) * k + c] = proba[i * k + c];
  }
  return out;
}

function checkOptions(
  options: PartialDependenceOptions,
  caller: string,
): Required<Omit<PartialDependenceOptions, 'grid'>> & { grid?: ReadonlyArray<number | string> } {
  checkObject(caller, 'options', options);
  for (const key of Object.keys(options))
    if (!OPTION_NAMES.has(key))
      throw new GroveError(`${caller}: unknown option '${key}' (known: ${[...OPTION_NAMES].join(', ')})`);
  const { gridResolution = 100, percentiles = [0.05, 0.95], kind = 'average', method = 'auto' } = options;
  if (!Number.isSafeInteger(gridResolution) || gridResolution < 2)
    throw new GroveError(`${caller}: gridResolution must be an integer ≥ 2, got ${String(gridResolution)}`);
  if (
    !Array.isArray(percentiles) ||
    percentiles.length !== 2 ||
    !percentiles.every((p) => typeof p === 'number' && p >= 0 && p <= 1) ||
    !(percentiles[0] < percentiles[1])
  )
    throw new GroveError(`${caller}: percentiles must be two numbers 0 ≤ low < high ≤ 1`);
  if (kind !== 'average' && kind !== 'individual' && kind !== 'both')
    throw new GroveError(`${caller}: kind must be 'average', 'individual' or 'both', got ${String(kind)}`);
  if (method !== 'auto' && method !== 'recursion' && method !== 'brute')
    throw new GroveError(`${caller}: method must be 'auto', 'recursion' or 'brute', got ${String(method)}`);
  return { gridResolution, percentiles, kind, method, ...(options.grid !== undefined ? { grid: options.grid } : {}) };
}
