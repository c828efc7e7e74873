import { describeType } from '../core/args.js';
import { GroveError } from '../core/errors.js';
import { Forest } from '../ensemble/forest.js';
import type { AlignedColumn } from '../model/align.js';
import { DecisionTree } from '../model/decision-tree.js';
import type { ShapTree } from './tree-shap.js';

/** What the explanations take: one tree, or a forest that averages its trees' probabilities. */
export type ExplainableModel = DecisionTree | Forest;

/** One tree of a model, with its weight in the model's average. */
export interface WeightedTree {
  tree: ShapTree & { predictProba(columns: AlignedColumn[], nRows: number, out: Float64Array<ArrayBuffer>): unknown };
  weight: number;
}

/** Throw GroveError unless `model` is a fitted tree or a forest of trees averaging probabilities. */
export function checkModel(model: unknown, caller: string): asserts model is ExplainableModel {
  if (model instanceof DecisionTree) return;
  if (!(model instanceof Forest))
    throw new GroveError(`${caller}: expected a fitted DecisionTree or Forest, got ${describeType(model)}`);
  if (model.settings.vote !== 'proba')
    throw new GroveError(
      `${caller}: this forest votes by majority, which is not an average of its trees' probabilities; ` +
        "explanations need a forest fitted with vote 'proba'",
    );
}

/** The trees of `model` with their weights: the tree itself, or each of a forest's with 1 / trees. */
export function weightedTrees(model: ExplainableModel): WeightedTree[] {
  if (model instanceof DecisionTree) return [{ tree: model.compiled, weight: 1 }];
  return model.trees.map((t) => ({ tree: t.compiled, weight: 1 / model.trees.length }));
}

/**
 * The model's class probabilities for aligned rows (rows × classes), C-MBSV unclassified regions
 * as zeros: the weighted sum of the trees' (`out` is overwritten).
 */
export function predictTrees(
  trees: readonly WeightedTree[],
  columns: AlignedColumn[],
  nRows: number,
  k: number,
  out: Float64Array<ArrayBuffer>,
): void {
  if (trees.length === 1 && trees[0].weight === 1) {
    trees[0].tree.predictProba(columns, nRows, out);
    return;
  }
  out.fill(0);
  const one = new Float64Array(nRows * k);
  for (const t of trees) {
    t.tree.predictProba(columns, nRows, one);
    for (let j = 0; j < nRows * k; j++) out[j] += t.weight * one[j];
  }
}
