import { GroveError } from '../core/errors.js';
import type { ClassLabel, Dataset } from '../data/dataset.js';
import type { PredictInput } from './align.js';

/** True for a loaded Dataset (what `score` reads labels from), false for arrays of rows. */
export function isDataset(input: PredictInput): input is Dataset {
  return !Array.isArray(input) && typeof input === 'object' && input !== null && 'labels' in input;
}

/**
 * The share of rows whose predicted class (`predictCodes()`, −1 for none) is their label: `labels`,
 * or a Dataset's target. What `score` computes for trees and forests alike.
 */
export function accuracy(
  input: PredictInput,
  labels: ArrayLike<ClassLabel> | undefined,
  classes: readonly ClassLabel[],
  predictCodes: () => ArrayLike<number>,
): number {
  let truth: ArrayLike<ClassLabel>;
  if (labels !== undefined) truth = labels;
  else if (isDataset(input)) truth = Array.from(input.labels, (c) => input.classes[c]);
  else
    throw new GroveError('score: pass the labels, one per row (or a Dataset, scored against its target)', {
      code: 'E_INPUT',
    });
  const codes = predictCodes();
  if (truth.length !== codes.length)
    throw new GroveError(`score: ${truth.length} labels for ${codes.length} rows`, { code: 'E_INPUT' });
  if (codes.length === 0) throw new GroveError('score: no rows to score', { code: 'E_INPUT' });
  let right = 0;
  for (let i = 0; i < codes.length; i++) if (codes[i] >= 0 && String(classes[codes[i]]) === String(truth[i])) right++;
  return right / codes.length;
}
