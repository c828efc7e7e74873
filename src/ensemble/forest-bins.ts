import type { FitPlan } from '../algorithms/fit.js';
import { sharedArrays } from '../core/arrays.js';
import { hasMissing } from '../data/dataset.js';
import { growNodes } from '../learn/best-first.js';
import { featureCount } from '../learn/feature-draw.js';
import { HistGrower } from '../learn/grow-hist.js';
import { DrawnHistGrower } from '../learn/grow-hist-drawn.js';
import { binAll, binInto, type CodeMatrix, codeMatrix, finishLayout, type HistLayout } from '../learn/hist-layout.js';
import { TreeStore } from '../model/store.js';
import type { ResolvedOptions } from '../options/options.js';
import { NO_PRUNING } from '../prune/none.js';
import type { BinnedFeature } from '../split/histogram.js';
import { SortWork } from '../split/sort-work.js';

/**
 * Histogram mode in a forest: the forest's rows are binned once (bin edges from all of them, as
 * LightGBM and scikit-learn's histogram estimators bin once per model), and every tree grows on
 * those codes over its own rows, the ones its bootstrap drew. Binning each tree's sample afresh
 * would sort every feature again for every tree. On several threads the threads bin the features
 * together into one shared code matrix (`shareBinning`); the bins depend only on the data and
 * options, so the forest stays the same on any number of threads.
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

/** The forest's rows binned (by the thread that grows all the trees). */
export function forestBins(plan: FitPlan): ForestBins {
  return { layout: binAll(plan.data, plan.opts.bins!) };
}

/** Each numeric feature's bin edges (null: not binned here, or categorical). */
export type BinEdges = (BinnedFeature | null)[];

/**
 * Binning shared out between threads: one code matrix in a SharedArrayBuffer, which every thread
 * reads, and the numeric features dealt out to the threads, each binning its own into the matrix
 * (`parts[0]` this thread's): one binning for the forest, its sorts spread over the threads.
 */
export interface SharedBinning {
  codes: CodeMatrix;
  parts: number[][];
}

/** The shared code matrix of `plan`'s data and its numeric features dealt out to `threads` threads. */
export function shareBinning(plan: FitPlan, threads: number): SharedBinning {
  const parts: number[][] = Array.from({ length: threads }, () => []);
  let j = 0;
  plan.data.features.forEach((col, f) => {
    if (col.kind === 'numeric') parts[j++ % threads].push(f);
  });
  return { codes: codeMatrix(plan.data, plan.opts.bins!, sharedArrays), parts };
}

/** Bin `features` of `plan`'s data into their columns of `codes`; their edges (null elsewhere). */
export function binShare(plan: FitPlan, codes: CodeMatrix, features: readonly number[]): BinEdges {
  const { data } = plan;
  const d = data.features.length;
  const edges: BinEdges = data.features.map(() => null);
  const work = new SortWork();
  for (const f of features) {
    const col = data.features[f];
    if (col.kind === 'numeric') edges[f] = binInto({ codes }, f, d, col, plan.opts.bins!, work);
  }
  work.release();
  return edges;
}

/**
 * The forest's bins over a shared code matrix once every thread has binned its features (`edges`
 * all of them). The thread that codes the categorical features (`first`) does so before the
 * others receive the edges; they only read the matrix.
 */
export function sharedForestBins(plan: FitPlan, codes: CodeMatrix, edges: BinEdges, first: boolean): ForestBins {
  const n = plan.data.nRows;
  if (first) return { layout: finishLayout(plan.data, codes, edges, new SortWork()) };
  // Each tree brings its own rows (`growOnBins`); the branch of each row is this thread's scratch.
  return { layout: { codes, binned: edges, rows: new Int32Array(0), branchOf: new Int32Array(n) } };
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
