import { GroveError } from '../../core/errors.js';
import { describeType } from '../../data/check.js';
import { Forest } from '../../ensemble/forest.js';
import { type PortableTree, portableTree } from '../portable.js';
import { emptyAttributes, ensembleAttributes, type LeafWeight } from './ensemble.js';
import {
  classLabels,
  encodeModel,
  ensembleNode,
  featureInputs,
  type GraphNode,
  int,
  integerClasses,
  ints,
  node,
  type OnnxExport,
} from './model.js';
import { DataType } from './proto.js';

/**
 * A forest tree's leaf weights, so that the ensemble's sum over trees is T times grove's combined
 * probability: the leaf's probabilities (`vote: 'proba'`), or a vote of 1 for the leaf's most
 * probable class (`majority`; the first maximum, as the forest votes; none for a leaf whose
 * probabilities are all 0, a C-MBSV unclassified region).
 */
function forestLeafWeight(p: PortableTree, vote: Forest['settings']['vote']): LeafWeight {
  const k = p.tree.classes.length;
  if (vote === 'proba') return (i, c) => p.proba[i * k + c];
  return (i, c) => {
    let best = -1;
    for (let j = 0; j < k; j++) {
      const x = p.proba[i * k + j];
      if (x > 0 && (best < 0 || x > p.proba[i * k + best])) best = j;
    }
    return c === best ? 1 : 0;
  };
}

/**
 * `label`: ArgMax over the trees' sums `grove_sums` (before the division, which could round two
 * different sums to one float32), gathered from the class labels. When some tree has C-MBSV
 * unclassified leaves, a row every tree leaves unclassified has sums all 0 (grove predicts no
 * class): a score column that is 1 exactly then is appended before the ArgMax, labelled `unclassified`.
 */
function labelNodes(hasUnclassified: boolean, initializer: Record<string, unknown>[]): GraphNode[] {
  const argmax = (scores: string) =>
    node('ArgMax', [scores], ['grove_label_index'], [int('axis', 1), int('keepdims', 0)]);
  const gather = node('Gather', ['grove_labels', 'grove_label_index'], ['label'], [int('axis', 0)]);
  if (!hasUnclassified) return [argmax('grove_sums'), gather];
  initializer.push({ name: 'grove_zero', data_type: DataType.FLOAT, dims: [1], float_data: [0] });
  return [
    node('ReduceMax', ['grove_sums'], ['grove_max'], [ints('axes', [1]), int('keepdims', 1)]),
    node('Equal', ['grove_max', 'grove_zero'], ['grove_none']),
    node('Cast', ['grove_none'], ['grove_none_score'], [int('to', DataType.FLOAT)]),
    node('Concat', ['grove_sums', 'grove_none_score'], ['grove_scores'], [int('axis', 1)]),
    argmax('grove_scores'),
    gather,
  ];
}

/**
 * A forest as one ONNX graph (ai.onnx 17, ai.onnx.ml 3) with the tree export's inputs and outputs
 * (`treeToOnnx`): one TreeEnsembleClassifier holds every tree (tree ids 0..T−1, each tree's nodes
 * as the tree export writes them, thresholds chosen per split as there) and sums, with
 * post_transform NONE, each tree's leaf probabilities (averaged-probability forests) or its vote of
 * 1 for the leaf's class (majority vote); `probabilities` is that sum divided by T, as grove
 * divides it, and `label` its first maximum, as grove breaks ties.
 *
 * ONNX Runtime adds the float32 weights in float32. Summing the undivided weights keeps pure
 * leaves' and votes' sums exact (whole numbers), so only impure leaves add rounding: about 1e-7
 * in the probabilities (weights of p/T would add a rounding at every tree to every sum).
 */
export function forestToOnnx(forest: Forest): OnnxExport {
  if (!(forest instanceof Forest))
    throw new GroveError(`forestToOnnx: expected a Forest (from fitForest or loadModel), got ${describeType(forest)}`);
  const k = forest.classes.length;
  const t = forest.trees.length;
  const attributes = emptyAttributes(k);
  const warnings = new Set<string>();
  let hasUnclassified = false;
  forest.trees.forEach((tree, treeId) => {
    const p = portableTree(tree, 'ONNX');
    for (const w of p.warnings) warnings.add(w);
    hasUnclassified ||= p.hasUnclassified;
    ensembleAttributes(p, { treeId, weight: forestLeafWeight(p, forest.settings.vote), into: attributes });
  });
  const asInt = integerClasses(forest.classes, hasUnclassified);
  const initializer: Record<string, unknown>[] = [classLabels(forest.classes, hasUnclassified, asInt)];
  const { nodes, inputs, columns } = featureInputs(forest.features);
  nodes.push(node('Concat', columns, ['grove_features'], [int('axis', 1)]));
  nodes.push(ensembleNode(attributes, 'grove_sums'));
  initializer.push({ name: 'grove_trees', data_type: DataType.FLOAT, dims: [1], float_data: [t] });
  nodes.push(node('Div', ['grove_sums', 'grove_trees'], ['probabilities']));
  nodes.push(...labelNodes(hasUnclassified, initializer));
  const doc =
    `grove ${forest.settings.kind} of ${t} trees for '${forest.target}': inputs one [N,1] tensor per feature; ` +
    `outputs label [N] and probabilities [N,${k}]`;
  const bytes = encodeModel({ doc, name: 'grove_forest', nodes, initializer, inputs, asInt, classes: k });
  return { bytes, warnings: [...warnings] };
}
