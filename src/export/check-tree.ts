import { GroveError } from '../core/errors.js';
import { describeType } from '../data/check.js';
import { DecisionTree } from '../model/decision-tree.js';

/** Throw GroveError (E_INPUT) unless `tree` is a DecisionTree: the exporters' argument check. */
export function checkTree(tree: unknown, caller: string): asserts tree is DecisionTree {
  if (!(tree instanceof DecisionTree))
    throw new GroveError(`${caller}: expected a DecisionTree (from fit or loadModel), got ${describeType(tree)}`);
}
