/** When the per-node sorting grower grows a tree: the trees must equal the presorted grower's. */
import { SquareSums } from '../criteria/incremental.js';
import { getCriterion } from '../criteria/registry.js';
import type { Dataset, NumericValues } from '../data/dataset.js';
import type { ResolvedOptions } from '../options/options.js';
import { featureCount } from './feature-draw.js';
import { NodeSortGrower } from './grow-node-sort.js';

/**
 * Nodes draw at most 1 / MOST_DRAWN of the features, unless every column has few values under Gini
 * (`fewValues`): with more, sorting each one at each node costs more than keeping every feature
 * sorted (docs/performance.md, "Per-node sorting").
 */
const MOST_DRAWN = 4;

/** Total weight under which Gini's running sums of squared class weights are exact integers. */
const MAX_EXACT_WEIGHT = 2 ** 26;

/** Numeric columns found to hold no missing value (a forest asks for every tree). */
const complete = new WeakSet<NumericValues>();

/**
 * Whether `NodeSortGrower` grows the tree `growTree(data, opts, weights)` would: exact mode, the
 * best threshold of every feature (no random thresholds, no J48 rules), numeric features without
 * missing values, integer weights, and a measure whose scan sums are then exact in any order (Gini's
 * squares, or none: the count table scored at each threshold). Equal values are sorted in no
 * particular order here and by row in the presorted layout; exact sums make the trees the same.
 * The entropy family's running x·ln x sums round differently in another order, so it stays there.
 */
export function nodeSortApplies(data: Dataset, opts: ResolvedOptions, weights: Float64Array): boolean {
  if (!NodeSortGrower.enabled || opts.bins !== undefined || opts.splitter !== 'best' || opts.j48Rules) return false;
  const d = data.features.length;
  if (data.nRows >= 2 ** 31 || d === 0) return false;
  const scan = opts.thresholdCriterion ? getCriterion(opts.thresholdCriterion) : opts.criterionImpl;
  const form = scan.incremental?.();
  if (form && form.constructor !== SquareSums) return false;
  const many = MOST_DRAWN * featureCount(opts.maxFeatures, d) > d;
  if (many && !form) return false;
  let total = 0;
  for (let r = 0; r < weights.length; r++) {
    const w = weights[r];
    if (w !== Math.floor(w)) return false;
    total += w;
  }
  if (total > MAX_EXACT_WEIGHT) return false;
  for (const col of data.features) {
    if (col.kind !== 'numeric') return false;
    if (complete.has(col.values)) continue;
    const values = col.values;
    for (let r = 0; r < values.length; r++) if (values[r] !== values[r]) return false;
    complete.add(values);
  }
  return !many || data.features.every((col) => fewValues((col as { values: NumericValues }).values));
}

/** Columns found to hold at most `FEW_VALUES` distinct values, or more. */
const fewCache = new WeakMap<NumericValues, boolean>();

/**
 * Whether `values` holds at most `FEW_VALUES` distinct values: then Gini scans bin every node's
 * rows by rank and never sort them, and nodes may draw every feature (letter-recognition's 16
 * features of 16 values each: an unpruned tree of every feature 80–93 against the presorted
 * grower's 118–134 ms of CPU; docs/performance.md, "Per-node sorting").
 */
function fewValues(values: NumericValues): boolean {
  let few = fewCache.get(values);
  if (few !== undefined) return few;
  const seen = new Set<number>();
  few = true;
  for (let r = 0; r < values.length && few; r++) {
    seen.add(values[r] === 0 ? 0 : values[r]); // -0 is 0
    if (seen.size > FEW_VALUES) few = false;
  }
  fewCache.set(values, few);
  return few;
}

/** At most this many distinct values in every column lift the `MOST_DRAWN` limit under Gini. */
const FEW_VALUES = 256;
