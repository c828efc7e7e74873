import type { ClassLabel } from '../../data/dataset.js';
import type { DecisionTree } from '../../model/decision-tree.js';
import type { FeatureSchema } from '../../model/schema.js';
import { checkTree } from '../check-tree.js';
import { portableTree, UNCLASSIFIED_LABEL } from '../portable.js';
import { type EnsembleAttributes, ensembleAttributes } from './ensemble.js';
import { AttributeType, DataType, modelProto } from './proto.js';

/** The ONNX file for a model, and what the user should know about it. */
export interface OnnxExport {
  /** The serialised `onnx.ModelProto`. */
  bytes: Uint8Array;
  /** One-line warnings (e.g. the fractional missing-value approximation). */
  warnings: string[];
}

const utf8 = new TextEncoder();
const IR_VERSION = 8;
const OPSETS = [
  { domain: '', version: 17 },
  { domain: 'ai.onnx.ml', version: 3 },
];

type Attribute = Record<string, unknown>;
const floats = (name: string, v: ArrayLike<number>): Attribute => ({ name, type: AttributeType.FLOATS, floats: v });
export const ints = (name: string, v: ArrayLike<number>): Attribute => ({ name, type: AttributeType.INTS, ints: v });
const strings = (name: string, v: readonly string[]): Attribute => ({
  name,
  type: AttributeType.STRINGS,
  strings: v.map((s) => utf8.encode(s)),
});
export const int = (name: string, v: number): Attribute => ({ name, type: AttributeType.INT, i: v });
const float = (name: string, v: number): Attribute => ({ name, type: AttributeType.FLOAT, f: v });
const string = (name: string, v: string): Attribute => ({ name, type: AttributeType.STRING, s: utf8.encode(v) });

export function node(op: string, inputs: string[], outputs: string[], attribute: Attribute[] = [], domain = '') {
  return { op_type: op, input: inputs, output: outputs, attribute, domain, name: outputs[0] };
}

/** A value's type: a tensor of `elemType` with dims (`'N'` = the batch size). */
function valueInfo(name: string, elemType: number, dims: Array<number | 'N'>) {
  const dim = dims.map((d) => (d === 'N' ? { dim_param: 'N' } : { dim_value: d }));
  return { name, type: { tensor_type: { elem_type: elemType, shape: { dim } } } };
}

export type GraphNode = ReturnType<typeof node>;

/** True when every class label is an integer (the `label` output is then int64). */
export function integerClasses(classes: readonly ClassLabel[], hasUnclassified: boolean): boolean {
  return !hasUnclassified && classes.every((c) => typeof c === 'number' && Number.isSafeInteger(c));
}

/**
 * One input per feature (float for a numeric one, string for a categorical or ordered one, mapped
 * to its code or rank by a LabelEncoder node), and the columns the Concat node joins.
 */
export function featureInputs(features: readonly FeatureSchema[]): {
  nodes: GraphNode[];
  inputs: ReturnType<typeof valueInfo>[];
  columns: string[];
} {
  const nodes: GraphNode[] = [];
  const inputs: ReturnType<typeof valueInfo>[] = [];
  const columns: string[] = [];
  features.forEach((f, j) => {
    const keys = f.levels ?? (f.kind === 'categorical' ? (f.categories ?? []) : undefined);
    if (!keys) {
      inputs.push(valueInfo(f.name, DataType.FLOAT, ['N', 1]));
      columns.push(f.name);
      return;
    }
    inputs.push(valueInfo(f.name, DataType.STRING, ['N', 1]));
    const column = `grove_column_${j}`;
    // An ordered feature's value is its 1-based rank; a categorical one's its code.
    const values = keys.map((_, i) => (f.levels ? i + 1 : i));
    const known = keys.length > 0 ? keys : [''];
    nodes.push(
      node(
        'LabelEncoder',
        [f.name],
        [column],
        [
          strings('keys_strings', known),
          floats('values_floats', keys.length > 0 ? values : [NaN]),
          float('default_float', NaN),
        ],
        'ai.onnx.ml',
      ),
    );
    columns.push(column);
  });
  return { nodes, inputs, columns };
}

/** The TreeEnsembleClassifier node: the trees, their scores written to `scores`. */
export function ensembleNode(e: EnsembleAttributes, scores: string): GraphNode {
  const ensembleClasses = Array.from({ length: e.scoreColumns }, (_, c) => c);
  return node(
    'TreeEnsembleClassifier',
    ['grove_features'],
    ['grove_ensemble_label', scores],
    [
      ints('classlabels_int64s', ensembleClasses),
      ints('nodes_treeids', e.nodes_treeids),
      ints('nodes_nodeids', e.nodes_nodeids),
      ints('nodes_featureids', e.nodes_featureids),
      strings('nodes_modes', e.nodes_modes),
      floats('nodes_values', e.nodes_values),
      ints('nodes_truenodeids', e.nodes_truenodeids),
      ints('nodes_falsenodeids', e.nodes_falsenodeids),
      ints('nodes_missing_value_tracks_true', e.nodes_missing_value_tracks_true),
      ints('class_treeids', e.class_treeids),
      ints('class_nodeids', e.class_nodeids),
      ints('class_ids', e.class_ids),
      floats('class_weights', e.class_weights),
      string('post_transform', 'NONE'),
    ],
    'ai.onnx.ml',
  );
}

/** The class labels `label` gathers from: int64 when `asInt`, else strings (`unclassified` included). */
export function classLabels(
  classes: readonly ClassLabel[],
  hasUnclassified: boolean,
  asInt: boolean,
): Record<string, unknown> {
  if (asInt) return { name: 'grove_labels', data_type: DataType.INT64, dims: [classes.length], int64_data: classes };
  const names = [...classes.map(String), ...(hasUnclassified ? [UNCLASSIFIED_LABEL] : [])];
  return {
    name: 'grove_labels',
    data_type: DataType.STRING,
    dims: [names.length],
    string_data: names.map((s) => utf8.encode(s)),
  };
}

/**
 * The model as an ONNX graph (ai.onnx 17, ai.onnx.ml 3):
 * - one input per feature, named after it, `[N, 1]`: float for a numeric feature (NaN = missing),
 *   string for a categorical or ordered one (`''` or any string the model does not know = missing),
 *   mapped to its code or rank by a LabelEncoder (default NaN);
 * - the columns concatenated into `[N, F]` for one TreeEnsembleClassifier (ensemble.ts) whose
 *   scores are the leaf's class distribution (plus an `unclassified` column for C-MBSV regions);
 * - `label`: ArgMax over the scores (the first maximum, as grove breaks ties) gathered from the
 *   class labels (int64 when every class is an integer, else strings, `unclassified` included);
 * - `probabilities`: `[N, classes]` float, in the model's class order.
 * The ensemble's own label output is not used: with two classes ONNX Runtime labels by the sign
 * of the second score, not the argmax.
 */
export function treeToOnnx(tree: DecisionTree): OnnxExport {
  checkTree(tree, 'treeToOnnx');
  const p = portableTree(tree, 'ONNX');
  const k = tree.classes.length;
  const { nodes, inputs, columns } = featureInputs(tree.features);
  nodes.push(node('Concat', columns, ['grove_features'], [int('axis', 1)]));
  const scores = p.hasUnclassified ? 'grove_scores' : 'probabilities';
  nodes.push(ensembleNode(ensembleAttributes(p), scores));
  nodes.push(node('ArgMax', [scores], ['grove_label_index'], [int('axis', 1), int('keepdims', 0)]));
  const asInt = integerClasses(tree.classes, p.hasUnclassified);
  const initializer: Record<string, unknown>[] = [classLabels(tree.classes, p.hasUnclassified, asInt)];
  nodes.push(node('Gather', ['grove_labels', 'grove_label_index'], ['label'], [int('axis', 0)]));
  if (p.hasUnclassified) {
    initializer.push(
      { name: 'grove_slice_start', data_type: DataType.INT64, dims: [1], int64_data: [0] },
      { name: 'grove_slice_end', data_type: DataType.INT64, dims: [1], int64_data: [k] },
      { name: 'grove_slice_axis', data_type: DataType.INT64, dims: [1], int64_data: [1] },
    );
    nodes.push(node('Slice', [scores, 'grove_slice_start', 'grove_slice_end', 'grove_slice_axis'], ['probabilities']));
  }
  const doc =
    `grove decision tree for '${tree.target}': inputs one [N,1] tensor per feature; ` +
    `outputs label [N] and probabilities [N,${k}]`;
  const bytes = encodeModel({ doc, name: 'grove_tree', nodes, initializer, inputs, asInt, classes: k });
  return { bytes, warnings: p.warnings };
}

/**
 * The parts of a graph with outputs `label` ([N], int64 when `asInt`, else string) and `probabilities` ([N,
 * classes]).
 */
export interface GraphParts {
  doc: string;
  name: string;
  nodes: GraphNode[];
  initializer: Record<string, unknown>[];
  inputs: ReturnType<typeof valueInfo>[];
  asInt: boolean;
  classes: number;
}

/** The serialised `onnx.ModelProto` of the graph. */
export function encodeModel(g: GraphParts): Uint8Array {
  const model = {
    ir_version: IR_VERSION,
    opset_import: OPSETS,
    producer_name: 'grove',
    doc_string: g.doc,
    graph: {
      name: g.name,
      node: g.nodes,
      initializer: g.initializer,
      input: g.inputs,
      output: [
        valueInfo('label', g.asInt ? DataType.INT64 : DataType.STRING, ['N']),
        valueInfo('probabilities', DataType.FLOAT, ['N', g.classes]),
      ],
    },
  };
  // The object already has the message shape (numbers, Uint8Array bytes): encode it as it is.
  return modelProto().encode(model).finish();
}
