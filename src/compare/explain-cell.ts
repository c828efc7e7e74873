/**
 * The report's explanation pictures of one (data set, configuration), computed while `grove
 * compare` has the data: the configuration's model fitted on all rows (the same fit as the
 * report's tree), explained on a seeded sample of the rows, so the cost stays bounded on any data
 * set. Mean |SHAP| per feature and class, one representative row's SHAP values (the waterfall),
 * and the partial dependence of the features contributing most.
 */
import { mulberry32 } from '../core/random.js';
import type { Dataset } from '../data/dataset.js';
import { subsetRows } from '../data/subset.js';
import { Forest } from '../ensemble/forest.js';
import type { ExplanationRecord } from '../eval/explanations.js';
import { partialDependence } from '../explain/partial.js';
import { type ShapValues, shapValues } from '../explain/shap.js';
import { shapSummary } from '../explain/summary.js';
import type { DecisionTree } from '../model/decision-tree.js';

/** Most rows explained. */
export const MOST_ROWS = 500;
/** Fewest rows explained (when the data set has them), however large the model. */
const FEWEST_ROWS = 10;
/** TreeSHAP's work allowed per cell, in leaves × (depth + 1)² × classes per row summed over trees (its cost bound). */
const WORK = 2e9;
/** Partial dependence curves drawn: of this many features contributing most. */
export const PARTIAL_FEATURES = 3;
/** Points of a numeric feature's partial dependence grid. */
export const GRID_POINTS = 40;

/** Rows `model` is explained on among `nRows`: as many as the work allows, within the bounds above. */
export function explainedRowCount(model: DecisionTree | Forest, nRows: number): number {
  const trees = model instanceof Forest ? model.trees : [model];
  let perRow = 0;
  for (const t of trees) {
    const s = t.stats();
    perRow += s.leaves * (s.height + 1) ** 2 * model.classes.length;
  }
  return Math.min(nRows, Math.max(FEWEST_ROWS, Math.min(MOST_ROWS, Math.floor(WORK / Math.max(1, perRow)))));
}

/** `count` distinct row indices of `nRows`, drawn with `seed`, in increasing order (all rows when count ≥ nRows). */
export function explanationSample(nRows: number, count: number, seed: number): Int32Array {
  const all = Int32Array.from({ length: nRows }, (_, i) => i);
  if (count >= nRows) return all;
  const random = mulberry32(seed);
  // The first `count` places of a Fisher–Yates shuffle.
  for (let i = 0; i < count; i++) {
    const j = i + Math.floor(random() * (nRows - i));
    const t = all[i];
    all[i] = all[j];
    all[j] = t;
  }
  return all.subarray(0, count).sort();
}

/**
 * The sampled row the waterfall shows: among the rows predicted as the most often predicted class,
 * the one whose SHAP values for that class are nearest (Euclidean) their mean, the first on a tie.
 * Returns its place in `shap` and the class index.
 */
export function representativeRow(shap: ShapValues): { row: number; class: number } {
  const f = shap.features.length;
  const k = shap.classes.length;
  const predicted = new Int32Array(shap.nRows);
  const votes = new Float64Array(k);
  for (let i = 0; i < shap.nRows; i++) {
    let best = 0;
    let bestP = -Infinity;
    for (let c = 0; c < k; c++) {
      let p = shap.expected[c];
      for (let j = 0; j < f; j++) p += shap.values[(i * f + j) * k + c];
      if (p > bestP) [best, bestP] = [c, p];
    }
    predicted[i] = best;
    votes[best]++;
  }
  let c = 0;
  for (let x = 1; x < k; x++) if (votes[x] > votes[c]) c = x;
  const mean = new Float64Array(f);
  for (let i = 0; i < shap.nRows; i++)
    if (predicted[i] === c) for (let j = 0; j < f; j++) mean[j] += shap.values[(i * f + j) * k + c] / votes[c];
  let row = 0;
  let nearest = Infinity;
  for (let i = 0; i < shap.nRows; i++) {
    if (predicted[i] !== c) continue;
    let d = 0;
    for (let j = 0; j < f; j++) d += (shap.values[(i * f + j) * k + c] - mean[j]) ** 2;
    if (d < nearest) [row, nearest] = [i, d];
  }
  return { row, class: c };
}

/**
 * What the report's pictures of `model` (fitted on all of `data` from `fitStart`, a performance.now()
 * time) show, or undefined for a forest voting by majority (not an average of probabilities, so SHAP
 * values do not add up to its prediction).
 */
export function explainCell(
  data: Dataset,
  model: DecisionTree | Forest,
  seed: number,
  names: { dataset: string; config: string },
  fitStart: number,
): ExplanationRecord | undefined {
  if (model instanceof Forest && model.settings.vote !== 'proba') return undefined;
  const rows = explanationSample(data.nRows, explainedRowCount(model, data.nRows), seed);
  const sample = rows.length === data.nRows ? data : subsetRows(data, rows);
  const shap = shapValues(model, sample);
  const summary = shapSummary(shap);
  const { row, class: c } = representativeRow(shap);
  const stride = shap.features.length * shap.classes.length;
  const top = summary.order.filter((j) => summary.total[j] > 0).slice(0, PARTIAL_FEATURES);
  const partial = top.map((j) => {
    const pd = partialDependence(model, sample, shap.features[j], { gridResolution: GRID_POINTS });
    return { feature: pd.feature, grid: pd.grid, method: pd.method, average: Array.from(pd.average) };
  });
  return {
    ...names,
    rows: rows.length,
    seed,
    features: shap.features,
    classes: shap.classes.map(String),
    expected: Array.from(shap.expected),
    meanAbs: Array.from(summary.perClass),
    row: {
      index: rows[row],
      class: c,
      contributions: Array.from(shap.values.subarray(row * stride, (row + 1) * stride)),
    },
    partial,
    ms: performance.now() - fitStart,
  };
}
