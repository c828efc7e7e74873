import type { ClassLabel } from '../data/dataset.js';
import { alignInput, type PredictInput } from './align.js';
import { CompiledTree, type UnclassifiedPolicy } from './compiled.js';
import type { TreeNode } from './node.js';
import { encodeOrderedInput } from './ordinal.js';
import type { CcpPathEntry, PruningInfo } from './pruning-info.js';
import {
  type FeatureSchema,
  MODEL_FORMAT,
  MODEL_VERSION,
  type ModelFile,
  type SavedOptions,
  validateModel,
} from './schema.js';
import { type TreeStats, treeStats } from './stats.js';
import { arraySource, type GrownTree, type NodeSource } from './store.js';
import { costComplexityPath } from './weakest-links.js';

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
  /** The tree as grown: nodes as objects only once someone asks for them (`nodes`). */
  private tree: GrownTree;
  /** What post-pruning did (method, leaves before/after, α, its path and CV table); undefined when unpruned. */
  readonly pruning?: PruningInfo;
  private compiledTree?: CompiledTree;

  /** `model.nodes` may also be a `TreeStore` (what `fit` passes): its node objects are made on first use of `nodes`. */
  constructor(model: Omit<ModelFile, 'format' | 'version' | 'nodes'> & { nodes: GrownTree }) {
    this.target = model.target;
    this.features = model.features;
    this.classes = model.classes;
    this.options = model.options;
    this.tree = model.nodes;
    if (model.pruning) this.pruning = model.pruning;
  }

  /** The nodes, root first (the model file's `nodes`). */
  get nodes(): TreeNode[] {
    if (!Array.isArray(this.tree)) this.tree = this.tree.toNodes();
    return this.tree;
  }

  /** Flat typed-array form used for prediction (built once, on first use). */
  get compiled(): CompiledTree {
    return (this.compiledTree ??= new CompiledTree(this.source(), this.features, this.classes.length));
  }

  /** The nodes for reading, without making node objects for a whole stored tree. */
  private source(): NodeSource {
    return Array.isArray(this.tree) ? arraySource(this.tree) : this.tree;
  }

  /**
   * Predicted class per row. A row whose value at a node is missing, or is a category the node
   * has no branch for, gets the majority class of that node (its class distribution).
   * C-MBSV: a row that falls in an *unclassified region* gets `null` — unless the tree was grown
   * with `unclassified: 'knn'` (or `options` asks for it and the model stores k-NN data), when it
   * gets the k-NN label. Only C-MBSV trees have unclassified regions.
   */
  predict(input: PredictInput, options?: Partial<UnclassifiedPolicy>): (ClassLabel | null)[] {
    return Array.from(this.predictCodes(input, options), (c) => (c < 0 ? null : this.classes[c]));
  }

  /** Predicted class index (into `classes`) per row; -1 for a row in a C-MBSV unclassified region (see `predict`). */
  predictCodes(input: PredictInput, options?: Partial<UnclassifiedPolicy>): Int32Array {
    const { columns, nRows } = alignInput(this.features, encodeOrderedInput(this.features, input));
    return this.compiled.predictCodes(columns, nRows, undefined, this.unclassifiedPolicy(options));
  }

  /**
   * Class-probability vector per row, in the order of `classes`: the training distribution of the
   * node the row stops at. A row in a C-MBSV unclassified region gets all zeros (no training row
   * supports any class), or the k-NN vote shares when k-NN labels it (see `predict`).
   */
  predictProba(input: PredictInput, options?: Partial<UnclassifiedPolicy>): number[][] {
    const k = this.classes.length;
    const flat = this.predictProbaFlat(input, options);
    const out: number[][] = [];
    for (let i = 0; i < flat.length; i += k) out.push(Array.from(flat.subarray(i, i + k)));
    return out;
  }

  /** Probabilities row-major in one Float64Array (`[i * classes.length + c]`), without per-row arrays. */
  predictProbaFlat(input: PredictInput, options?: Partial<UnclassifiedPolicy>): Float64Array {
    const { columns, nRows } = alignInput(this.features, encodeOrderedInput(this.features, input));
    return this.compiled.predictProba(columns, nRows, undefined, this.unclassifiedPolicy(options));
  }

  /** The model's own C-MBSV settings (`options.cmbsv`), overridden by `options`. */
  private unclassifiedPolicy(options?: Partial<UnclassifiedPolicy>): UnclassifiedPolicy {
    const saved = this.options.cmbsv;
    return {
      unclassified: options?.unclassified ?? saved?.unclassified ?? 'none',
      knnK: options?.knnK ?? saved?.knnK ?? 1,
    };
  }

  /** Node counts, leaves, height, features used / never used, feature importances. */
  stats(): TreeStats {
    return treeStats(this.source(), this.features);
  }

  /**
   * CART's weakest-link sequence of this tree: α_0 = 0 < α_1 < … with the leaves and training
   * error of each nested subtree T(α_k) (α on scikit-learn's scale; see docs/pruning.md). For a
   * tree pruned by cost-complexity, `pruning.path` holds the sequence of the full tree it was cut from.
   */
  costComplexityPath(): CcpPathEntry[] {
    return costComplexityPath(this.nodes);
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
      ...(this.pruning ? { pruning: this.pruning } : {}),
    };
  }

  /** Load a model file's parsed JSON, refusing anything that is not a valid grove model (GroveError). */
  static fromJSON(value: unknown, file?: string): DecisionTree {
    return new DecisionTree(validateModel(value, file));
  }
}
