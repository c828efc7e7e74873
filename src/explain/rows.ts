import { checkObject } from '../core/args.js';
import { GroveError } from '../core/errors.js';
import { type Aligned, type AlignOptions, alignInput, checkPredictInput, type PredictInput } from '../model/align.js';
import { encodeOrderedInput } from '../model/ordinal.js';
import { checkModel, type ExplainableModel } from './model.js';

/**
 * Rows checked and mapped onto `model`'s features as `predict` reads them (the same errors:
 * a missing feature, an unknown key, a value of the wrong type), for an explanation named `caller`
 * whose options may have the keys `known`.
 */
export function alignRows(
  model: ExplainableModel,
  input: PredictInput,
  options: AlignOptions | undefined,
  caller: string,
  known: readonly string[] = ['allowMissingKeys'],
): Aligned {
  checkModel(model, caller);
  checkPredictInput(input, caller);
  if (options !== undefined) {
    checkObject(caller, 'options', options);
    const extra = Object.keys(options).filter((k) => !known.includes(k));
    if (extra.length > 0) throw new GroveError(`${caller}: unknown option '${extra[0]}' (known: ${known.join(', ')})`);
  }
  return alignInput(model.features, encodeOrderedInput(model.features, input), options, model.target);
}
