import { checkObject } from '../core/args.js';
import { GroveError } from '../core/errors.js';
import { type Aligned, type AlignOptions, alignInput, checkPredictInput, type PredictInput } from '../model/align.js';
import { encodeOrderedInput } from '../model/ordinal.js';
import { checkModel, type ExplainableModel } from './model.js';

/**
 * Rows checked and mapped onto `model`'s features as `predict` reads them (the same errors:
 * a missing feature, an unknown key, a value of the wrong type), for an explanation named `caller`.
 */
export function alignRows(
  model: ExplainableModel,
  input: PredictInput,
  options: AlignOptions | undefined,
  caller: string,
): Aligned {
  checkModel(model, caller);
  checkPredictInput(input, caller);
  if (options !== undefined) {
    checkObject(caller, 'options', options);
    const extra = Object.keys(options).filter((k) => k !== 'allowMissingKeys');
    if (extra.length > 0) throw new GroveError(`${caller}: unknown option '${extra[0]}' (known: allowMissingKeys)`);
  }
  return alignInput(model.features, encodeOrderedInput(model.features, input), options, model.target);
}
