import { GroveError } from '../core/errors.js';
import type { Dataset } from '../data/dataset.js';
import { applyClassWeight, checkSampleWeights, finishWeights } from '../data/weights.js';
import { applyOrderedCategories } from '../model/ordinal.js';
import { optionDescriptor, type ResolveContext, type ResolvedOptions } from '../options/options.js';
import { withoutZeroWeights } from './zero-weights.js';

/** The rows a fit learns from, from `prepareRows`. */
export interface PreparedRows {
  /** The rows every tree grows on: ordered categories as their ranks, rows of weight 0 left out. */
  readonly data: Dataset;
  /** The weight of each row of `data` (sample and class weights applied). */
  readonly weights: Float64Array;
  /** Each ordered categorical feature's levels, in order (saved in the model). */
  readonly levels: Map<string, string[]>;
}

/**
 * What every learner does to a checked data set before learning: refuse an empty one, apply
 * sample and class weights, map ordered categories to their ranks and leave out rows of weight 0
 * (every tree grown, pruning's folds and hold-outs too, sees only the others).
 */
export function prepareRows(
  data: Dataset,
  sampleWeight: ArrayLike<number> | undefined,
  opts: ResolvedOptions,
  context: ResolveContext,
): PreparedRows {
  const label = (name: 'classWeight' | 'orderedCategories') =>
    context.names === 'flags' ? `--${optionDescriptor(name)!.flag}` : name;
  if (data.nRows === 0) throw new GroveError('no data rows to learn from', { file: data.source, code: 'E_DATA' });
  if (data.classes.length === 0) throw new GroveError('no class labels', { file: data.source, code: 'E_DATA' });
  const given = checkSampleWeights(sampleWeight ?? data.weights, data.nRows, 'sampleWeight', data.source);
  const weights = finishWeights(applyClassWeight(given, data, opts.classWeight, label('classWeight')), data.source);
  const { data: ranked, levels } = applyOrderedCategories(data, opts.orderedCategories, label('orderedCategories'));
  const kept = withoutZeroWeights(ranked, weights);
  return { data: kept.data, weights: kept.weights, levels };
}
