/**
 * Row weights for a fit: sample weights checked, class weights multiplied in, and the result made
 * safe to sum. Class weights are looked up by own property only, so a class named `constructor`
 * or `__proto__` gets its own weight and never one from `Object.prototype`.
 */

import { shareableArrays } from '../core/arrays.js';
import { GroveError } from '../core/errors.js';
import type { Dataset } from './dataset.js';

/** `balanced`, or a weight per class label (the `classWeight` option). */
export type ClassWeightSpec = 'balanced' | 'balancedSubsample' | Readonly<Record<string, number>>;

/** How messages name the two weight options (API field or CLI flag). */
export interface WeightLabels {
  sampleWeight: string;
  classWeight: string;
}

// Weights beyond these bounds are rescaled (divided by the largest): sums of up to 2^32 rows and
// the products of a few sums that criteria form then stay finite and above the subnormal range.
// Ordinary weights never reach them, so ordinary fits see their weights unchanged.
const LARGEST = 1e90;
const SMALLEST = 1e-90;

/** One weight per row: `given` checked (finite, ≥ 0, one per row), or 1 for every row. A new array. */
export function checkSampleWeights(given: unknown, n: number, label: string, file?: string): Float64Array {
  // Shareable: worker threads read the fit's row weights in place (src/learn/threads/).
  if (given === undefined || given === null) return shareableArrays.float64(n).fill(1);
  const length = typeof given === 'object' ? (given as { length?: unknown }).length : undefined;
  if (typeof length !== 'number')
    throw new GroveError(`${label} must be an array of numbers, one per row`, { code: 'E_OPTION', file });
  if (length !== n) throw new GroveError(`${label} has ${length} entries for ${n} rows`, { code: 'E_OPTION', file });
  const src = given as ArrayLike<unknown>;
  const w = shareableArrays.float64(n);
  for (let i = 0; i < n; i++) {
    const v = src[i];
    if (typeof v !== 'number' || !(v >= 0) || !Number.isFinite(v))
      throw new GroveError(`${label}[${i}] must be a finite number ≥ 0, got ${String(v)}`, { code: 'E_OPTION', file });
    w[i] = v;
  }
  return w;
}

/** Multiply each row's weight (in place) by its class weight (`balanced`: n / (k · n_c), as scikit-learn). */
export function applyClassWeight(
  weights: Float64Array,
  data: Dataset,
  spec: ClassWeightSpec | undefined,
  label: string,
): Float64Array {
  if (spec === undefined) return weights;
  const count = new Float64Array(data.classes.length);
  // A single tree's sample is every row: balancedSubsample is balanced there (forests: src/ensemble/).
  if (spec === 'balanced' || spec === 'balancedSubsample') for (let i = 0; i < data.nRows; i++) count[data.labels[i]]++;
  const perClass = classWeights(spec, data.classes, count, data.nRows, label, data.source);
  for (let i = 0; i < data.nRows; i++) weights[i] *= perClass[data.labels[i]];
  return weights;
}

/**
 * Each class's weight: `balanced` from the rows per class (`count`, of `nRows`), or the weights
 * `spec` names (1 for a class it leaves out; a name that is not a class is an error).
 */
export function classWeights(
  spec: ClassWeightSpec,
  classes: readonly Dataset['classes'][number][],
  count: Float64Array,
  nRows: number,
  label: string,
  source?: string,
): Float64Array {
  const k = classes.length;
  const perClass = new Float64Array(k).fill(1);
  if (spec === 'balanced' || spec === 'balancedSubsample') {
    for (let c = 0; c < k; c++) perClass[c] = count[c] > 0 ? nRows / (k * count[c]) : 0;
  } else {
    const known = new Set(classes.map(String));
    for (const name of Object.keys(spec)) {
      if (!known.has(name))
        throw new GroveError(`${label} names '${name}', which is not a class (classes: ${[...known].join(', ')})`, {
          code: 'E_OPTION',
          file: source,
        });
    }
    classes.forEach((c, j) => {
      const name = String(c);
      if (Object.hasOwn(spec, name)) perClass[j] = spec[name];
    });
  }
  return perClass;
}

/**
 * Refuse weights that leave nothing to learn from (every row 0), and rescale (in place) weights so
 * large or so small that sums would overflow or lose precision: all are divided by the largest,
 * which keeps every ratio between weights (so class proportions and scale-free measures) and keeps
 * counts and probabilities finite.
 */
export function finishWeights(weights: Float64Array, file?: string): Float64Array {
  let total = 0;
  let largest = 0;
  for (let i = 0; i < weights.length; i++) {
    total += weights[i];
    if (weights[i] > largest) largest = weights[i];
  }
  if (weights.length > 0 && largest === 0) {
    throw new GroveError('every row has weight 0 (sample and class weights together): nothing to learn from', {
      code: 'E_DATA',
      file,
    });
  }
  if (!Number.isFinite(total) || largest > LARGEST || (largest > 0 && largest < SMALLEST)) {
    for (let i = 0; i < weights.length; i++) weights[i] /= largest;
  }
  return weights;
}
