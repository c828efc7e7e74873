import { plainArrays } from '../core/arrays.js';
import { GroveError } from '../core/errors.js';
import { checkDataset } from '../data/check.js';
import type { Dataset } from '../data/dataset.js';
import { checkSampleWeights, finishWeights } from '../data/weights.js';
import { type FitOptions, resolveOptions } from '../options/options.js';
import { beats } from '../split/candidate.js';
import { EntryPool } from '../split/entries.js';
import { FeatureEvaluator } from '../split/evaluate.js';
import { newSlice, type SortedSlice } from '../split/sorted-slice.js';
import { sortInto } from './grow.js';

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
  /**
   * Name of the attribute whose split the grower would choose at the root (first in column order on a tie),
   * or null.
   */
  best: string | null;
}

/**
 * Score every attribute's best root split with the chosen criterion and split style (`grove score`).
 * @throws GroveError for a malformed Dataset, an invalid option, no rows, or bad weights
 */
export function scoreAttributes(data: Dataset, options: FitOptions = {}): ScoreReport {
  checkDataset(data, { caller: 'scoreAttributes', labelled: true });
  const opts = resolveOptions(options);
  const crit = opts.criterionImpl;
  const k = data.classes.length;
  const n = data.nRows;
  if (n === 0) throw new GroveError('no data rows to score', { file: data.source, code: 'E_DATA' });
  const given = checkSampleWeights(options.sampleWeight ?? data.weights, n, 'sampleWeight', data.source);
  const weights = finishWeights(given, data.source);
  const pool = new EntryPool(data.labels, weights);
  const evaluator = new FeatureEvaluator(data.features, pool, k, opts);
  const totals = new Float64Array(k);
  for (let i = 0; i < n; i++) totals[data.labels[i]] += weights[i];
  const ids = Int32Array.from({ length: n }, (_, i) => i);
  const cand = evaluator.newCandidate();
  // One feature's slice at a time: each is sorted, scanned and dropped.
  const slices: (SortedSlice | null)[] = data.features.map(() => null);
  const buf = { ids, sorted: slices };
  const root = { start: 0, end: n, totals };
  let bestKey = -Infinity;
  let bestName: string | null = null;

  const attributes = data.features.map((col, f): AttributeScore => {
    let sorted: SortedSlice | null = null;
    if (col.kind === 'numeric') {
      sorted = newSlice(plainArrays, n, k);
      sortInto(col.values, data.labels, sorted);
    }
    slices[f] = sorted;
    evaluator.evaluate(f, buf, root, cand);
    slices[f] = null;
    if (!cand.found) return { name: col.name, type: col.kind, score: null, split: null };
    if (beats(cand.key, bestKey)) {
      bestKey = cand.key;
      bestName = col.name;
    }
    const split = cand.toSplit();
    const names = (codes: number[]) => codes.map((c) => (col.kind === 'categorical' ? col.categories[c] : String(c)));
    return {
      name: col.name,
      type: col.kind,
      score: cand.raw,
      split:
        split.kind === 'numeric'
          ? { threshold: split.thresholds[0] }
          : split.kind === 'multiway'
            ? { values: names(split.values) }
            : { left: names(split.left), right: names(split.right) },
    };
  });
  return { criterion: crit.name, better: crit.better, attributes, best: bestName };
}
