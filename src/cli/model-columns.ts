import type { Forest } from '../ensemble/forest.js';
import type { DecisionTree } from '../model/decision-tree.js';

/** Reader options that read `tree`'s features with the model's types and its target (or `target`). */
export function modelReadOptions(tree: DecisionTree | Forest, target: string | undefined) {
  return {
    target: target ?? tree.target,
    ignoreUnknownColumns: true,
    // An ordered categorical feature (levels) is read as categorical and mapped to its rank by the model.
    categorical: tree.features.filter((f) => f.kind === 'categorical' || f.levels).map((f) => f.name),
    numeric: tree.features.filter((f) => f.kind === 'numeric' && !f.levels).map((f) => f.name),
  };
}
