/**
 * The worker's side of the page's "why" pictures: TreeSHAP and partial dependence of a tree grown
 * in the page (src/explain's public functions), drawn as SVG text by the report's drawing code, so
 * the page's main thread only sets it in place.
 */
import { GroveError } from '../core/errors.js';
import type { Dataset } from '../data/dataset.js';
import { subsetRows } from '../data/subset.js';
import { partialDependence } from '../explain/partial.js';
import { shapValues } from '../explain/shap.js';
import { shapSummary } from '../explain/summary.js';
import type { DecisionTree } from '../model/decision-tree.js';
import { partialDependenceSvg } from '../report/partial-svg.js';
import { shapSummarySvg, shapWaterfallSvg } from '../report/shap-svg.js';

/** Most rows the summary averages over: more are sampled evenly (every n-th row). */
export const SUMMARY_ROWS = 2000;
/** Fewest rows it averages over, however large the tree. */
const FEWEST_ROWS = 20;
/**
 * TreeSHAP's work the summary may take, in leaves × depth² × classes per row (its cost, Lundberg
 * et al.), so a deep unpruned tree's summary holds the worker about as long as a small tree's.
 */
const SUMMARY_WORK = 1e8;

/** Rows the summary of `tree` averages over: as many as the work allows, within the bounds above. */
export function summaryRowCount(tree: DecisionTree, nRows: number): number {
  let leaves = 0;
  let height = 0;
  for (const node of tree.nodes)
    if (!node.split) {
      leaves++;
      height = Math.max(height, node.depth);
    }
  const perRow = leaves * (height + 1) ** 2 * tree.classes.length;
  return Math.min(nRows, Math.max(FEWEST_ROWS, Math.min(SUMMARY_ROWS, Math.floor(SUMMARY_WORK / perRow))));
}

/** The pictures of one tree: its summary, one row's waterfall and one feature's partial dependence. */
export interface Explained {
  /** Mean |contribution| per feature, as SVG. */
  summary: string;
  /** Rows the summary averages over. */
  summaryRows: number;
  /** Features with a non-zero mean |contribution| (the others are counted under the bars). */
  contributing: number;
  /** The row explained: its index among the rows held (from 0). */
  row: number;
  /** The class whose probability the waterfall explains: the row's most probable. */
  className: string;
  /** Where the waterfall starts (the expected probability of that class) and ends (the row's). */
  expected: number;
  prediction: number;
  waterfall: string;
  /** The feature of the partial dependence curve (by default the one contributing most). */
  feature: string;
  partial: string;
  ms: number;
}

/** Per tree, its summary (independent of the row and feature asked for). */
const summaries = new WeakMap<DecisionTree, { svg: string; rows: number; contributing: number; top: string }>();

function summaryOf(tree: DecisionTree, data: Dataset) {
  let s = summaries.get(tree);
  if (s) return s;
  const n = data.nRows;
  const count = summaryRowCount(tree, n);
  const rows = n <= count ? data : subsetRows(data, sampleRows(n, count));
  const summary = shapSummary(shapValues(tree, rows));
  const contributing = summary.order.filter((j) => summary.total[j] > 0).length;
  s = {
    svg: shapSummarySvg(summary),
    rows: rows.nRows,
    contributing,
    top: summary.features[summary.order[0]],
  };
  summaries.set(tree, s);
  return s;
}

/** `count` row indices spread evenly over `n` rows (every n/count-th, from the first). */
export function sampleRows(n: number, count: number): Int32Array {
  return Int32Array.from({ length: Math.min(n, count) }, (_, i) => Math.floor((i * n) / Math.min(n, count)));
}

/**
 * The pictures of `tree` on `data`: the SHAP summary, row `row`'s waterfall for its most probable
 * class (`rowName` in its label), and the partial dependence on `feature` (default: the feature
 * contributing most).
 */
export function explainTree(
  tree: DecisionTree,
  data: Dataset,
  row: number,
  feature: string | undefined,
  rowName: string,
): Explained {
  const t0 = performance.now();
  if (!(Number.isInteger(row) && row >= 0 && row < data.nRows))
    throw new GroveError(`row: ${row + 1} is not a row number from 1 to ${data.nRows}`);
  const summary = summaryOf(tree, data);
  const one = subsetRows(data, [row]);
  const shap = shapValues(tree, one);
  const proba = tree.predictProbaFlat(one);
  let c = 0;
  for (let j = 1; j < proba.length; j++) if (proba[j] > proba[c]) c = j;
  const f = shap.features.length;
  const k = shap.classes.length;
  let prediction = shap.expected[c];
  for (let j = 0; j < f; j++) prediction += shap.values[j * k + c];
  const name = feature ?? summary.top;
  return {
    summary: summary.svg,
    summaryRows: summary.rows,
    contributing: summary.contributing,
    row,
    className: String(shap.classes[c]),
    expected: shap.expected[c],
    prediction,
    waterfall: shapWaterfallSvg(shap, 0, c, 10, rowName),
    feature: name,
    partial: partialDependenceSvg(partialDependence(tree, data, name)),
    ms: performance.now() - t0,
  };
}
