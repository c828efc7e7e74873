import type { ShapValues } from './shap.js';

/** Mean absolute contribution of each feature, overall and per class (what a SHAP bar summary shows). */
export interface ShapSummary {
  features: string[];
  /** perClass[f * classes + c]: mean over rows of |contribution of feature f to class c|. */
  perClass: Float64Array;
  /** total[f]: the sum of feature f's per-class means. */
  total: Float64Array;
  /** Feature indices by decreasing `total` (ties in feature order). */
  order: number[];
}

/** The mean absolute contribution of every feature in `shap`, per class and summed over classes. */
export function shapSummary(shap: ShapValues): ShapSummary {
  const f = shap.features.length;
  const k = shap.classes.length;
  const perClass = new Float64Array(f * k);
  for (let i = 0; i < shap.nRows; i++)
    for (let j = 0; j < f * k; j++) perClass[j] += Math.abs(shap.values[i * f * k + j]);
  const total = new Float64Array(f);
  for (let j = 0; j < f * k; j++) {
    perClass[j] /= Math.max(1, shap.nRows);
    total[Math.floor(j / k)] += perClass[j];
  }
  const order = Array.from({ length: f }, (_, j) => j).sort((a, b) => total[b] - total[a] || a - b);
  return { features: shap.features, perClass, total, order };
}
