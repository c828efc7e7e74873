import type { ClassLabel } from '../data/dataset.js';
import type { TreeNode } from './node.js';
import { CompiledTree } from './compiled.js';
import { alignInput, type PredictInput } from './align.js';
import { MODEL_FORMAT, MODEL_VERSION, validateModel, type FeatureSchema, type ModelFile, type SavedOptions } from './schema.js';
import { treeStats, type TreeStats } from './stats.js';

/**
 * A fitted decision tree: predicts classes and class probabilities, describes itself, and
 * round-trips through versioned JSON (`toJSON` / `DecisionTree.fromJSON`).
 *
 * @example
 * ```ts
 * const tree = fit(data, { algorithm: 'c45' });
 * tree.predict([{ outlook: 'sunny', humidity: 'high', wind: 'weak', temperature: 'hot' }]); // ['no']
 * const copy = DecisionTree.fromJSON(JSON.parse(JSON.stringify(tree.toJSON())));
 * ```
 */
export class DecisionTree {
  readonly target: string;
  readonly features: FeatureSchema[];
  readonly classes: ClassLabel[];
  readonly options: SavedOptions;
  readonly nodes: TreeNode[];
  private compiledTree?: CompiledTree;

  constructor(model: Omit<ModelFile, 'format' | 'version'>) {
    this.target = model.target;
    this.features = model.features;
    this.classes = model.classes;
    this.options = model.options;
    this.nodes = model.nodes;
  }

  /** Flat typed-array form used for prediction (built once, on first use). */
  get compiled(): CompiledTree {
    return (this.compiledTree ??= new CompiledTree(this.nodes, this.features, this.classes.length));
  }

  /**
   * Predicted class per row. A row whose value at a node is missing, or is a category the node
   * has no branch for, gets the majority class of that node (its class distribution).
   */
  predict(input: PredictInput): ClassLabel[] {
    return Array.from(this.predictCodes(input), (c) => this.classes[c]);
  }

  /** Predicted class index (into `classes`) per row. */
  predictCodes(input: PredictInput): Int32Array {
    const { columns, nRows } = alignInput(this.features, input);
    return this.compiled.predictCodes(columns, nRows);
  }

  /** Class-probability vector per row, in the order of `classes`: the training distribution of the node the row stops at. */
  predictProba(input: PredictInput): number[][] {
    const k = this.classes.length;
    const flat = this.predictProbaFlat(input);
    const out: number[][] = [];
    for (let i = 0; i < flat.length; i += k) out.push(Array.from(flat.subarray(i, i + k)));
    return out;
  }

  /** Probabilities row-major in one Float64Array (`[i * classes.length + c]`), without per-row arrays. */
  predictProbaFlat(input: PredictInput): Float64Array {
    const { columns, nRows } = alignInput(this.features, input);
    return this.compiled.predictProba(columns, nRows);
  }

  /** Node counts, leaves, height, features used / never used, feature importances. */
  stats(): TreeStats {
    return treeStats(this.nodes, this.features);
  }

  /** The model file: plain JSON-safe data. */
  toJSON(): ModelFile {
    return {
      format: MODEL_FORMAT,
      version: MODEL_VERSION,
      target: this.target,
      features: this.features,
      classes: this.classes,
      options: this.options,
      nodes: this.nodes,
    };
  }

  /** Load a model file's parsed JSON, refusing anything that is not a valid grove model (GroveError). */
  static fromJSON(value: unknown, file?: string): DecisionTree {
    return new DecisionTree(validateModel(value, file));
  }
}
