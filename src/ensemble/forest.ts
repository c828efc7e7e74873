import { GroveError } from '../core/errors.js';
import type { ClassLabel } from '../data/dataset.js';
import { accuracy } from '../model/accuracy.js';
import { type Aligned, alignInput, checkPredictInput, type PredictInput } from '../model/align.js';
import { checkPredictOptions, DecisionTree, type PredictOptions } from '../model/decision-tree.js';
import { encodeOrderedInput } from '../model/ordinal.js';
import type { FeatureSchema, SavedOptions } from '../model/schema.js';
import { treePolicy } from './combine.js';
import { type CompiledForest, compileForest, predictThreads } from './compiled-forest.js';
import type { ForestSettings } from './settings.js';

/** Out-of-bag estimate: each row predicted by the trees whose bootstrap left it out. */
export interface OobEstimate {
  /** Accuracy over the rows some tree left out (`rows` of them). */
  score: number;
  /** Rows with at least one out-of-bag tree (the others have no estimate). */
  rows: number;
  /**
   * Class probabilities per training row, row-major (all 0 for a row no tree left out); absent when loaded
   * from a file.
   */
  proba?: Float64Array;
}

/** A forest's parts, as `fitForest` and the model file make them. */
export interface ForestParts {
  target: string;
  features: FeatureSchema[];
  classes: ClassLabel[];
  settings: ForestSettings;
  /** The trees' options as a model file records them, with the forest's seed. */
  options: SavedOptions;
  /** The trees, or what makes them on first use (a forest file read for prediction, with `compiled`). */
  trees: DecisionTree[] | (() => DecisionTree[]);
  /** The forest's compiled predictor, when it was made without the trees (forest-compile.ts). */
  compiled?: CompiledForest;
  oob?: OobEstimate;
}

/** A forest's size and shape (`grove show`). */
export interface ForestStats {
  trees: number;
  nodes: number;
  leaves: { mean: number; max: number };
  depth: { mean: number; max: number };
  oobScore?: number;
  /** Mean decrease in impurity per feature (sums to 1), largest first. */
  importances: [string, number][];
}

/**
 * A fitted forest: trees over the same features and classes, combined by averaged class
 * probabilities (scikit-learn's rule, `vote: 'proba'`) or one vote per tree (`vote: 'majority'`,
 * Breiman's and Weka's). Each tree is an ordinary `DecisionTree` (`trees`), so whatever reads a
 * tree (exports, explanations) reads every tree of a forest.
 *
 * @example
 * ```ts
 * const forest = fitForest(data, { trees: 100, oobScore: true });
 * forest.predict(rows);            // one label per row
 * forest.oob?.score;               // out-of-bag accuracy
 * forest.featureImportances();     // { petal_length: 0.44, ... }
 * ```
 */
export class Forest {
  readonly target: string;
  readonly features: FeatureSchema[];
  readonly classes: ClassLabel[];
  readonly settings: ForestSettings;
  readonly options: SavedOptions;
  readonly oob?: OobEstimate;
  private compiledForest?: CompiledForest;
  private treeList?: DecisionTree[];
  private readonly makeTrees?: () => DecisionTree[];

  /**
   * A forest from its parts (what `fitForest` and the forest file make): every tree a
   * `DecisionTree` over `features` and `classes`. GroveError (E_MODEL) otherwise.
   */
  constructor(parts: ForestParts) {
    checkParts(parts);
    this.target = parts.target;
    this.features = parts.features;
    this.classes = parts.classes;
    this.settings = parts.settings;
    this.options = parts.options;
    if (typeof parts.trees === 'function') this.makeTrees = parts.trees;
    else this.treeList = parts.trees;
    if (parts.compiled) this.compiledForest = parts.compiled;
    if (parts.oob) this.oob = parts.oob;
  }

  /** The trees, in growing order (tree i grew from the forest's seed and i). */
  get trees(): DecisionTree[] {
    if (this.treeList === undefined) {
      const trees = this.makeTrees!();
      checkTrees(trees, this.features, this.classes);
      this.treeList = trees;
    }
    return this.treeList;
  }

  /** Class probabilities row-major (`[i * classes.length + c]`): the trees' combined as `settings.vote` says. */
  predictProbaFlat(input: PredictInput, options?: PredictOptions): Float64Array {
    const { columns, nRows } = this.align(input, options);
    // A forest read for prediction keeps its trees unmade: each has the forest's options.
    const policies = this.treeList
      ? this.treeList.map((tree) => treePolicy(tree, options))
      : new Array(this.settings.trees).fill(treePolicy({ options: this.options }, options));
    const threads = predictThreads(options?.threads ?? 1);
    return this.compiledFor(threads).predictProba(columns, nRows, this.settings.vote, policies, threads);
  }

  /** Every tree in one compiled predictor (built on first use). */
  get compiled(): CompiledForest {
    return this.compiledFor(1);
  }

  /**
   * The compiled predictor for prediction on `threads` threads (built on first use, and built again,
   * its records shared, when it has room for fewer threads).
   */
  compiledFor(threads: number): CompiledForest {
    if (this.compiledForest === undefined || this.compiledForest.slots < threads)
      this.compiledForest = compileForest(
        this.trees.map((tree) => tree.forestPart),
        undefined,
        threads,
      );
    return this.compiledForest;
  }

  /** Class-probability vector per row, in the order of `classes`. */
  predictProba(input: PredictInput, options?: PredictOptions): number[][] {
    return this.rowsOf(this.predictProbaFlat(input, options), (x) => x);
  }

  /** Natural log of `predictProba` (scikit-learn's `predict_log_proba`). */
  predictLogProba(input: PredictInput, options?: PredictOptions): number[][] {
    return this.rowsOf(this.predictProbaFlat(input, options), Math.log);
  }

  /** Predicted class index per row: the largest combined probability, ties to the lowest index; -1 when all are 0. */
  predictCodes(input: PredictInput, options?: PredictOptions): Int32Array {
    return codesOf(this.predictProbaFlat(input, options), this.classes.length);
  }

  /** Predicted class per row (null: no tree supports any class, C-MBSV unclassified regions). */
  predict(input: PredictInput, options?: PredictOptions): (ClassLabel | null)[] {
    return Array.from(this.predictCodes(input, options), (c) => (c < 0 ? null : this.classes[c]));
  }

  /** Accuracy on a Dataset (against its target) or on rows with their labels, as `DecisionTree.score`. */
  score(input: PredictInput, labels?: ArrayLike<ClassLabel>, options?: PredictOptions): number {
    return accuracy(input, labels, this.classes, () => this.predictCodes(input, options));
  }

  /**
   * The leaf each row reaches in each tree (scikit-learn's `apply`): row-major, `[i * trees + t]`
   * is row i's leaf id in tree t (an index into `trees[t].nodes`).
   */
  apply(input: PredictInput, options?: PredictOptions): Int32Array {
    const { columns, nRows } = this.align(input, options);
    return this.compiled.apply(columns, nRows);
  }

  /**
   * Mean decrease in impurity (the trees' own measure) per feature: each tree's importances
   * (normalised, as `DecisionTree.stats`) averaged over the trees that split at all, normalised to
   * sum 1 (all 0 when no tree splits), as scikit-learn's `feature_importances_`.
   */
  featureImportances(): Record<string, number> {
    const d = this.features.length;
    const sum = new Float64Array(d);
    for (const tree of this.trees) {
      const imp = tree.stats().importances;
      this.features.forEach((f, j) => {
        sum[j] += imp[f.name] ?? 0;
      });
    }
    let total = 0;
    for (let j = 0; j < d; j++) total += sum[j];
    return Object.fromEntries(this.features.map((f, j) => [f.name, total > 0 ? sum[j] / total : 0]));
  }

  /** Trees, nodes, leaves and depth (mean and largest), the OOB score, importances largest first. */
  stats(): ForestStats {
    let nodes = 0;
    let leaves = 0;
    let depth = 0;
    let maxLeaves = 0;
    let maxDepth = 0;
    for (const tree of this.trees) {
      const s = tree.stats();
      nodes += s.nodes;
      leaves += s.leaves;
      depth += s.height;
      maxLeaves = Math.max(maxLeaves, s.leaves);
      maxDepth = Math.max(maxDepth, s.height);
    }
    const t = this.trees.length;
    const importances = Object.entries(this.featureImportances()).sort((a, b) => b[1] - a[1]);
    return {
      trees: t,
      nodes,
      leaves: { mean: leaves / t, max: maxLeaves },
      depth: { mean: depth / t, max: maxDepth },
      ...(this.oob ? { oobScore: this.oob.score } : {}),
      importances,
    };
  }

  /**
   * The forest as readable JSON (`grove export --format json`): the tree file's header (target,
   * features, classes, options), the forest's settings and OOB score, and each tree as the tree
   * file's list of nodes.
   */
  toJSON(): ForestJson {
    return {
      format: FOREST_JSON_FORMAT,
      version: 1,
      target: this.target,
      features: this.features,
      classes: this.classes,
      options: this.options,
      forest: this.settings,
      ...(this.oob ? { oob: { score: this.oob.score, rows: this.oob.rows } } : {}),
      trees: this.trees.map((t) => ({ options: t.options, nodes: t.nodes })),
    };
  }

  /** `input` checked and mapped onto the forest's features once for all trees. */
  private align(input: PredictInput, options: PredictOptions | undefined): Aligned {
    checkPredictInput(input, 'predict');
    checkPredictOptions(options);
    return alignInput(this.features, encodeOrderedInput(this.features, input), options, this.target);
  }

  private rowsOf(flat: Float64Array, f: (x: number) => number): number[][] {
    const k = this.classes.length;
    const out: number[][] = [];
    for (let i = 0; i < flat.length; i += k) out.push(Array.from(flat.subarray(i, i + k), f));
    return out;
  }
}

function checkParts(parts: ForestParts): void {
  const bad = (what: string): never => {
    throw new GroveError(`Forest: ${what}`, { code: 'E_MODEL' });
  };
  if (typeof parts !== 'object' || parts === null) bad("expected the forest's parts (an object)");
  const { trees, features, classes, settings } = parts;
  if (typeof trees !== 'function' && (!Array.isArray(trees) || trees.length === 0))
    bad('trees must be a non-empty array of DecisionTree');
  if (!Array.isArray(features) || !Array.isArray(classes)) bad('features and classes must be arrays');
  if (typeof settings !== 'object' || settings === null || !['proba', 'majority'].includes(settings.vote))
    bad("settings must be a forest's settings");
  if (typeof trees !== 'function') checkTrees(trees, features, classes);
}

/** Every tree a `DecisionTree` over the forest's features and classes. */
function checkTrees(trees: DecisionTree[], features: FeatureSchema[], classes: ClassLabel[]): void {
  const bad = (what: string): never => {
    throw new GroveError(`Forest: ${what}`, { code: 'E_MODEL' });
  };
  if (!Array.isArray(trees) || trees.length === 0) bad('trees must be a non-empty array of DecisionTree');
  for (const tree of trees) {
    if (!(tree instanceof DecisionTree)) bad('every tree must be a DecisionTree');
    if (tree.features.length !== features.length || tree.classes.length !== classes.length)
      bad("every tree must have the forest's features and classes");
  }
}

/** The `format` of a forest's readable JSON. */
export const FOREST_JSON_FORMAT = 'grove-forest-json';

/** A forest as readable JSON (see `Forest.toJSON`). */
export interface ForestJson {
  format: typeof FOREST_JSON_FORMAT;
  version: 1;
  target: string;
  features: FeatureSchema[];
  classes: ClassLabel[];
  options: SavedOptions;
  forest: ForestSettings;
  oob?: { score: number; rows: number };
  trees: { options: SavedOptions; nodes: DecisionTree['nodes'] }[];
}

/** The class of largest value per row of `flat` (ties to the lowest index; -1 for a row of zeros). */
export function codesOf(flat: Float64Array, k: number): Int32Array {
  const n = flat.length / k;
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    let best = -1;
    for (let c = 0; c < k; c++) if (flat[i * k + c] > 0 && (best < 0 || flat[i * k + c] > flat[i * k + best])) best = c;
    out[i] = best;
  }
  return out;
}
