import type { FitPlan } from '../algorithms/fit.js';
import { hasMissing } from '../data/dataset.js';
import { growNodes } from '../learn/best-first.js';
import { featureCount } from '../learn/feature-draw.js';
import { HistGrower } from '../learn/grow-hist.js';
import { DrawnHistGrower } from '../learn/grow-hist-drawn.js';
import { binAll, type HistLayout } from '../learn/hist-layout.js';
import { TreeStore } from '../model/store.js';
import type { ResolvedOptions } from '../options/options.js';
import { NO_PRUNING } from '../prune/none.js';

/**
 * Histogram mode in a forest: the forest's rows are binned once (bin edges from all of them, as
 * LightGBM and scikit-learn's histogram estimators bin once per model), and every tree grows on
 * those codes over its own rows, the ones its bootstrap drew. Binning each tree's sample afresh
 * would sort every feature again for every tree. The bins depend only on the data and options, so
 * every thread that bins them gets the same, and the forest stays the same on any number of threads.
 */
export interface ForestBins {
  layout: HistLayout;
}

/**
 * Whether tree growth may use the forest's bins: histogram mode grown directly (no pruning, which
 * may grow on held-out parts; no J48 thresholds, which are the tree's own training values; not
 * C-MBSV; no fractional missing values, which have their own grower) on all the features (random
 * subspaces grow on a subset).
 */
export function usesForestBins(plan: FitPlan, subspace: boolean): boolean {
  const o = plan.opts;
  return (
    o.bins !== undefined &&
    !subspace &&
    o.prune === NO_PRUNING &&
    !o.j48Rules &&
    o.algorithm !== 'cmbsv' &&
    !(o.missing === 'fractional' && hasMissing(plan.data))
  );
}

/** The forest's rows binned (once per thread that grows trees). */
export function forestBins(plan: FitPlan): ForestBins {
  return { layout: binAll(plan.data, plan.opts.bins!) };
}

/**
 * A tree grown on the forest's bins over the rows of non-zero `weights` (in row order, as
 * `withoutZeroWeights` keeps them): the tree the histogram grower makes of those rows alone,
 * given the same bin edges.
 */
export function growOnBins(bins: ForestBins, plan: FitPlan, opts: ResolvedOptions, weights: Float64Array): TreeStore {
  const { data } = plan;
  let m = 0;
  for (let r = 0; r < data.nRows; r++) if (weights[r] !== 0) m++;
  const rows = new Int32Array(m);
  for (let r = 0, j = 0; r < data.nRows; r++) if (weights[r] !== 0) rows[j++] = r;
  const layout: HistLayout = { ...bins.layout, rows };
  const k = data.classes.length;
  // A node that draws a few features builds their histograms alone (grow-hist-drawn.ts).
  const drawn = featureCount(opts.maxFeatures, data.features.length) < data.features.length;
  const Grower = drawn ? DrawnHistGrower : HistGrower;
  const grower = new Grower(data.features, layout, data.labels, weights, k, opts, m);
  return growNodes(grower, TreeStore.root(k), grower.rootEntry(), opts.maxLeafNodes, opts.criterionImpl);
}
