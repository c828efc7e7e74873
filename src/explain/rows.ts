import { checkObject, describeType } from '../core/args.js';
import { GroveError } from '../core/errors.js';
import { type Aligned, type AlignOptions, alignInput, checkPredictInput, type PredictInput } from '../model/align.js';
import { DecisionTree } from '../model/decision-tree.js';
import { encodeOrderedInput } from '../model/ordinal.js';

/**
 * Rows checked and mapped onto `model`'s features as `predict` reads them (the same errors:
 * a missing feature, an unknown key, a value of the wrong type), for an explanation named `caller`.
 */
export function alignRows(
  model: DecisionTree,
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

/** Throw GroveError unless `model` is a fitted DecisionTree. */
export function checkModel(model: unknown, caller: string): asserts model is DecisionTree {
  if (!(model instanceof DecisionTree))
    throw new GroveError(`${caller}: expected a fitted DecisionTree, got ${describeType(model)}`);
}
