import { badArgument, checkObject } from '../core/args.js';
import { GroveError } from '../core/errors.js';
import type { ClassLabel } from '../data/dataset.js';
import { checkThreads } from '../options/threads.js';
import { accuracy } from './accuracy.js';
import { type AlignOptions, alignInput, checkPredictInput, type PredictInput } from './align.js';
import { CompiledTree, type ForestPart, type UnclassifiedPolicy } from './compiled.js';
import { StorePart } from './compiled-part.js';
import type { TreeNode } from './node.js';
import type { OptimalityInfo } from './optimality.js';
import { encodeOrderedInput } from './ordinal.js';
import { applyLeaves, type DecisionPaths, decisionPaths } from './paths.js';
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
 * How `predict` and `predictProba` read rows and treat C-MBSV's unclassified regions. Every field is
 * optional; an unknown field is an error.
 */
export interface PredictOptions extends Partial<UnclassifiedPolicy>, AlignOptions {
  /**
   * A forest's probabilities summed on this many threads (in Node; blocks of rows split between
   * this thread and worker threads), the same bits on any number; `auto` = the machine's
   * available parallelism. Default 1. A single tree predicts on one thread.
   */
  threads?: number | 'auto';
}

export type { DecisionPaths } from './paths.js';

const PREDICT_OPTION_NAMES: ReadonlySet<string> = new Set(['unclassified', 'knnK', 'allowMissingKeys', 'threads']);

/** Throw GroveError unless `options` is undefined or valid predict options. */
export function checkPredictOptions(options: unknown): asserts options is PredictOptions | undefined {
  if (options === undefined) return;
  const bad = (what: string) => new GroveError(`predict options: ${what}`, { code: 'E_OPTION' });
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw bad(
      `expected an object, got ${options === null ? 'null' : Array.isArray(options) ? 'an array' : typeof options}`,
    );
  for (const key of Object.keys(options))
    if (!PREDICT_OPTION_NAMES.has(key))
      throw bad(`unknown option '${key}' (known: ${[...PREDICT_OPTION_NAMES].join(', ')})`);
  const o = options as Record<string, unknown>;
  if (o.unclassified !== undefined && o.unclassified !== 'none' && o.unclassified !== 'knn')
    throw bad(`unclassified must be 'none' or 'knn', got ${String(o.unclassified)}`);
  if (o.knnK !== undefined && !(Number.isSafeInteger(o.knnK) && (o.knnK as number) >= 1))
    throw bad(`knnK must be an integer ≥ 1, got ${String(o.knnK)}`);
  if (o.allowMissingKeys !== undefined && typeof o.allowMissingKeys !== 'boolean')
    throw bad(`allowMissingKeys must be true or false, got ${String(o.allowMissingKeys)}`);
  checkThreads(o.threads as PredictOptions['threads'], 'predict options: threads');
}

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
/** Passed by grove's own code to the DecisionTree constructor for parts it has made or validated. */
export const TRUSTED_MODEL: unique symbol = Symbol('grove.trusted-model');

export class DecisionTree {
  readonly target: string;
  readonly features: FeatureSchema[];
  readonly classes: ClassLabel[];
  readonly options: SavedOptions;
  /** The tree as grown: nodes as objects only once someone asks for them (`nodes`). */
  private tree: GrownTree;
  /** What post-pruning did (method, leaves before/after, α, its path and CV table); undefined when unpruned. */
  readonly pruning?: PruningInfo;
  /** What the optimal-tree search proved (`fitOptimal`); undefined for a greedy tree. */
  readonly optimality?: OptimalityInfo;
  private compiledTree?: CompiledTree;

  /**
   * A tree from a model's parts, checked as `validateModel` checks a model file (GroveError
   * E_MODEL when they do not make a valid model). grove's own callers, whose parts are valid by
   * construction, pass `TRUSTED_MODEL` and may give `nodes` as a `TreeStore` (what `fit` does):
   * its node objects are then made on first use of `nodes`.
   */
  constructor(
    model: Omit<ModelFile, 'format' | 'version' | 'nodes'> & { nodes: GrownTree },
    trusted?: typeof TRUSTED_MODEL,
  ) {
    if (trusted !== TRUSTED_MODEL) {
      checkObject('DecisionTree', 'model', model);
      if (!Array.isArray(model.nodes))
        badArgument('DecisionTree', 'model.nodes', 'an array of tree nodes', model.nodes);
      model = validateModel({ ...model, format: MODEL_FORMAT, version: MODEL_VERSION });
    }
    this.target = model.target;
    this.features = model.features;
    this.classes = model.classes;
    this.options = model.options;
    this.tree = model.nodes;
    if (model.pruning) this.pruning = model.pruning;
    if (model.optimality) this.optimality = model.optimality;
  }

  /** The nodes, root first (the model file's `nodes`). */
  get nodes(): TreeNode[] {
    if (!Array.isArray(this.tree)) this.tree = this.tree.toNodes();
    return this.tree;
  }

  /**
   * The tree as held: the grower's `TreeStore` until something asks for `nodes`, the node objects
   * after. For grove's own readers (forest files, worker threads), which must not change it.
   * @internal
   */
  grown(): GrownTree {
    return this.tree;
  }

  /** Flat typed-array form used for prediction (built once, on first use). */
  get compiled(): CompiledTree {
    return (this.compiledTree ??= new CompiledTree(this.source(), this.features, this.classes.length));
  }

  /**
   * What a forest's compiled predictor reads of this tree: its store's arrays while it keeps one
   * and is not compiled yet (the `CompiledTree` is then built only for rows that need it), else
   * its compiled tree.
   */
  get forestPart(): ForestPart {
    if (this.compiledTree || Array.isArray(this.tree)) return this.compiled;
    return new StorePart(this.tree, () => this.compiled);
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
   *
   * Rows are checked strictly (see {@link PredictInput}): an object row's keys must be the model's
   * features (plus, optionally, its target), each present unless `options.allowMissingKeys`; an
   * array row holds exactly one value per feature; numbers are finite decimals. Anything else is a
   * GroveError naming the row (`rows[i]`) and the feature or key.
   */
  predict(input: PredictInput, options?: PredictOptions): (ClassLabel | null)[] {
    return Array.from(this.predictCodes(input, options), (c) => (c < 0 ? null : this.classes[c]));
  }

  /** Predicted class index (into `classes`) per row; -1 for a row in a C-MBSV unclassified region (see `predict`). */
  predictCodes(input: PredictInput, options?: PredictOptions): Int32Array {
    const { columns, nRows } = this.align(input, options);
    return this.compiled.predictCodes(columns, nRows, undefined, this.unclassifiedPolicy(options));
  }

  /**
   * Class-probability vector per row, in the order of `classes`: the training distribution of the
   * node the row stops at. A row in a C-MBSV unclassified region gets all zeros (no training row
   * supports any class), or the k-NN vote shares when k-NN labels it (see `predict`).
   */
  predictProba(input: PredictInput, options?: PredictOptions): number[][] {
    const k = this.classes.length;
    const flat = this.predictProbaFlat(input, options);
    const out: number[][] = [];
    for (let i = 0; i < flat.length; i += k) out.push(Array.from(flat.subarray(i, i + k)));
    return out;
  }

  /** Probabilities row-major in one Float64Array (`[i * classes.length + c]`), without per-row arrays. */
  predictProbaFlat(input: PredictInput, options?: PredictOptions): Float64Array {
    const { columns, nRows } = this.align(input, options);
    return this.compiled.predictProba(columns, nRows, undefined, this.unclassifiedPolicy(options));
  }

  /**
   * Natural log of `predictProba` per row (scikit-learn's `predict_log_proba`): a class the row's
   * node never saw gets -Infinity.
   */
  predictLogProba(input: PredictInput, options?: PredictOptions): number[][] {
    const k = this.classes.length;
    const flat = this.predictProbaFlat(input, options);
    const out: number[][] = [];
    for (let i = 0; i < flat.length; i += k) out.push(Array.from(flat.subarray(i, i + k), Math.log));
    return out;
  }

  /**
   * The id of the leaf each row ends in (scikit-learn's `apply`): an index into `nodes`, the ids
   * of the model file and `grove show`. Rows are routed as `predict` routes them (a missing value
   * takes the node's `missingBranch`). A row that C4.5's fractional policy sends down every branch
   * of a node reaches several leaves; it gets the one holding the largest share of it (the product
   * of the branch weights on the way), the lowest id on a tie. A C-MBSV row in an unclassified
   * region gets that region's leaf.
   *
   * @example
   * ```ts
   * const leaves = tree.apply(rows); // Int32Array, one leaf id per row
   * tree.nodes[leaves[0]].counts;    // the training class counts of row 0's leaf
   * ```
   */
  apply(input: PredictInput, options?: PredictOptions): Int32Array {
    const { columns, nRows } = this.align(input, options);
    return applyLeaves(this.compiled, columns, nRows);
  }

  /**
   * Every node each row visits (scikit-learn's `decision_path`), compactly as the rows of a sparse
   * matrix: row i's node ids are `nodes[offsets[i] .. offsets[i + 1])`, in increasing id order
   * (root first, the leaf last for a single path). A row that C4.5's fractional policy sends down
   * every branch of a node visits every node on its way to each leaf it reaches (the union of
   * those paths), so it may hold several leaves.
   *
   * @example
   * ```ts
   * const { offsets, nodes } = tree.decisionPath(rows);
   * const path0 = nodes.subarray(offsets[0], offsets[1]); // e.g. [0, 1, 3]
   * ```
   */
  decisionPath(input: PredictInput, options?: PredictOptions): DecisionPaths {
    const { columns, nRows } = this.align(input, options);
    return decisionPaths(this.compiled, columns, nRows);
  }

  /**
   * Accuracy (scikit-learn's `score`): the share of rows whose predicted class equals their label.
   * Pass a Dataset alone to score it against its own target, or rows and one label per row. A row
   * left unclassified (C-MBSV) counts as wrong; labels are compared as the model's class labels
   * (a number label equals its text: 1 and '1' are the same class). GroveError when the label
   * count differs from the row count or there are no rows.
   *
   * @example
   * ```ts
   * tree.score(testData);                   // a Dataset with the model's target
   * tree.score(rows, ['yes', 'no', 'yes']); // rows and their labels
   * ```
   */
  score(input: PredictInput, labels?: ArrayLike<ClassLabel>, options?: PredictOptions): number {
    return accuracy(input, labels, this.classes, () => this.predictCodes(input, options));
  }

  /** `input` and `options` checked (GroveError), and the rows mapped onto the model's features. */
  private align(input: PredictInput, options: PredictOptions | undefined): ReturnType<typeof alignInput> {
    checkPredictInput(input, 'predict');
    checkPredictOptions(options);
    return alignInput(this.features, encodeOrderedInput(this.features, input), options, this.target);
  }

  /** The model's own C-MBSV settings (`options.cmbsv`), overridden by `options`. */
  private unclassifiedPolicy(options?: PredictOptions): UnclassifiedPolicy {
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
    return costComplexityPath(this.tree);
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
      ...(this.optimality ? { optimality: this.optimality } : {}),
    };
  }

  /** Load a model file's parsed JSON, refusing anything that is not a valid grove model (GroveError). */
  static fromJSON(value: unknown, file?: string): DecisionTree {
    return new DecisionTree(validateModel(value, file), TRUSTED_MODEL);
  }
}
