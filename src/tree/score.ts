import type { Dataset } from '../data/dataset.js';
import { CategoryCounts, scanMultiway, scanSubsets } from '../split/categorical.js';
import { ScanContext } from '../split/context.js';
import { scanNumeric } from '../split/numeric.js';
import { Candidate, beats } from '../split/types.js';
import { argsortNumeric } from './grow.js';
import { resolveOptions, type FitOptions } from './options.js';

/** The root split one attribute would get, with the measure's raw value. */
export interface AttributeScore {
  name: string;
  type: 'numeric' | 'categorical';
  /** The measure's value exactly as its paper defines it; null when the attribute has no valid split. */
  score: number | null;
  /**
   * `threshold` (numeric, `x <= threshold`), `values` (multiway branches) or `left` (the set V of
   * `x ∈ V`, the side with fewer values) with `right` (the other values seen).
   */
  split: { threshold: number } | { values: string[] } | { left: string[]; right: string[] } | null;
}

export interface ScoreReport {
  criterion: string;
  better: 'higher' | 'lower';
  attributes: AttributeScore[];
  /** Name of the attribute with the best score (first in column order on a tie), or null. */
  best: string | null;
}

/** Score every attribute's best root split with the chosen criterion and split style (`grove score`). */
export function scoreAttributes(data: Dataset, options: FitOptions = {}): ScoreReport {
  const opts = resolveOptions(options);
  const crit = opts.criterionImpl;
  const k = data.classes.length;
  const n = data.nRows;
  const weights = Float64Array.from(options.sampleWeight ?? data.weights ?? new Float64Array(n).fill(1));
  const maxCategories = data.features.reduce((m, c) => (c.kind === 'categorical' ? Math.max(m, c.categories.length) : m), 2);
  const ctx = new ScanContext(data.labels, weights, k, crit, opts.minSamplesLeaf, maxCategories);
  const cc = new CategoryCounts(maxCategories, k);
  const totals = new Float64Array(k);
  for (let i = 0; i < n; i++) totals[data.labels[i]] += weights[i];
  const rows = Int32Array.from({ length: n }, (_, i) => i);
  const known = new Float64Array(k);
  const scratch = new Int32Array(maxCategories);
  const cand = new Candidate();
  const best = new Candidate();
  let bestName: string | null = null;

  const attributes = data.features.map((col, f): AttributeScore => {
    if (col.kind === 'numeric') {
      scanNumeric(ctx, f, col.values, argsortNumeric(col.values), 0, n, totals, known, cand);
    } else {
      cc.fill(ctx, col.codes, col.categories.length, rows, 0, n);
      if (opts.categoricalSplit === 'multiway') scanMultiway(ctx, f, cc, cand);
      else scanSubsets(ctx, f, cc, opts.maxSubsetSize, scratch, cand);
    }
    if (!cand.found) return { name: col.name, type: col.kind, score: null, split: null };
    if (beats(cand.oriented, best.oriented)) {
      best.copyFrom(cand);
      bestName = col.name;
    }
    const split = cand.toSplit();
    const names = (codes: number[]) => codes.map((c) => (col.kind === 'categorical' ? col.categories[c] : String(c)));
    return {
      name: col.name,
      type: col.kind,
      score: cand.raw,
      split:
        split.kind === 'numeric' ? { threshold: split.thresholds[0] } : split.kind === 'multiway' ? { values: names(split.values) } : { left: names(split.left), right: names(split.right) },
    };
  });
  return { criterion: crit.name, better: crit.better, attributes, best: bestName };
}
