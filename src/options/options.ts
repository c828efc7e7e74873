import { GroveError } from '../core/errors.js';
import { getCriterion } from '../criteria/registry.js';
import type { Criterion } from '../criteria/types.js';

/** How categorical attributes are split. */
export type CategoricalSplit = 'multiway' | 'binary';

/**
 * What happens to a row whose value is missing (or is a category a node has no branch for):
 * - `majority`: it follows the heaviest branch, in training and prediction;
 * - `learned`: binary splits send missing rows the way that scores best in training (kept for
 *   prediction); multiway splits fall back to `majority`;
 * - `fractional`: C4.5 — the row goes down every branch with a weight proportional to the branch
 *   sizes, in training and in prediction (probabilities are mixed); a split's score is computed on
 *   the known rows and scaled by their share.
 */
export type MissingPolicy = 'majority' | 'learned' | 'fractional';

/** Post-pruning methods (see src/prune/). */
export type PruneMethod = 'none' | 'pessimistic' | 'error-based' | 'reduced-error' | 'cost-complexity';

/** Class weights: `balanced` = n / (k · n_c), or an explicit weight per class label. */
export type ClassWeight = 'balanced' | Record<string, number>;

/**
 * Everything that shapes a grown tree. Every field has a default (see `DEFAULTS`); presets
 * (`PRESETS`) fill some of them; what the user passes wins over the preset.
 */
export interface TreeOptions {
  /** Split measure: a registered name (`grove criteria` lists them) or a Criterion object. */
  criterion: string | Criterion;
  /**
   * `multiway`: one branch per value seen at the node (ID3/C4.5); the attribute is then not
   * reused below. `binary`: subsets `x ∈ V` (Zaki's EVALUATE-CATEGORICAL-ATTRIBUTE; CART).
   */
  categoricalSplit: CategoricalSplit;
  /** Largest depth of a leaf (root = depth 0). Default: unlimited. */
  maxDepth: number;
  /** A node with fewer rows than this becomes a leaf. Zaki's η: a node with n ≤ η stops, i.e. minSamplesSplit = η + 1. */
  minSamplesSplit: number;
  /** Each child of a binary split must have at least this many rows (multiway: at least two branches must). */
  minSamplesLeaf: number;
  /** Zaki's π: a node whose majority-class fraction is ≥ purity becomes a leaf. Default 1 (pure nodes only). */
  purity: number;
  /** A split is made only if its improvement over the parent (oriented: bigger is better) is ≥ minGain. */
  minGain: number;
  /**
   * Zaki's l: largest |V| tried for binary categorical splits with more than two classes.
   * `undefined` = auto: every distinct partition when a node sees ≤ 10 values, else |V| ≤ 2.
   * With two classes the exact ordering shortcut is used and l does not matter.
   */
  maxSubsetSize?: number;
  /** Missing-value policy (see `MissingPolicy`). */
  missing: MissingPolicy;
  /**
   * Criterion that picks the threshold of a numeric attribute, when it should differ from the one
   * that compares attributes (C4.5 picks thresholds by information gain). Default: `criterion`.
   */
  thresholdCriterion?: string;
  /** Quinlan (1996): subtract log2(candidate thresholds) / n from a numeric split's information gain. */
  mdlCorrection: boolean;
  /** C4.5's rule: the highest score among splits whose information gain is at least the average gain. */
  averageGainRule: boolean;
  /** Chi-square pre-pruning: stop when the best split's class distribution is independent at this significance (0 = off). */
  chiSquareAlpha: number;
  /** Class weights multiplying every row's weight. */
  classWeight?: ClassWeight;
  /** Post-pruning method. */
  prune: PruneMethod;
  /** error-based pruning: C4.5's confidence factor CF. */
  confidence: number;
  /** error-based pruning: also try replacing a node by its largest branch (C4.5 subtree raising). */
  subtreeRaising: boolean;
  /** reduced-error pruning: fraction of rows held out (stratified) to prune with. */
  pruneFraction: number;
  /** cost-complexity pruning: a fixed α; when undefined, α is chosen by cross-validation. */
  ccpAlpha?: number;
  /** cost-complexity pruning: folds used to choose α. */
  ccpFolds: number;
  /** cost-complexity pruning: `1se` = the simplest tree within one standard error of the best; `min` = the best. */
  ccpRule: '1se' | 'min';
  /** Seed for the randomness pruning needs (hold-out split, CV folds). */
  seed: number;
  /**
   * Histogram mode: quantise numeric features once into at most this many bins (2–65535; 255 is
   * the usual choice) and scan bins instead of rows. `undefined` = exact mode. With at least as
   * many bins as distinct values the splits are the exact ones.
   */
  bins?: number;
  // ---- C-MBSV (algorithm 'cmbsv'; docs/cmbsv.md) ----
  /** C-MBSV: class numbers in eq. 10's correlation: `ordinal` (the paper: 1..n in class order) or `one-vs-rest` (max over classes). */
  labelCoding: 'ordinal' | 'one-vs-rest';
  /** C-MBSV: centre feature and label vectors before normalising them, as LARS does (Pearson's r; the default); false = eq. 10's cosine of the raw vectors. */
  correlationCentring: boolean;
  /** C-MBSV: the SVM constant C of eq. 11 (before the imbalance weights). */
  svmC: number;
  /** C-MBSV: the paper's imbalance weights C_a = C·n_b/(n_a+n_b), C_b = C·n_a/(n_a+n_b). */
  svmBalance: boolean;
  /** C-MBSV: values the 1-D SVM sees: `standardize` (each pair's rows, as MATLAB svmtrain) or `none` (raw). */
  svmScaling: 'standardize' | 'none' | 'unit-norm';
  /** C-MBSV: the bias when several are optimal: `midpoint` (libsvm) or `max-alpha` (MATLAB svmtrain's QP: from the row of largest α). */
  svmBias: 'midpoint' | 'max-alpha';
  /** C-MBSV: a row in an unclassified region is reported as unclassified (`none`) or labelled by k-NN over the region's parent rows (`knn`; the model then stores those rows). */
  unclassified: 'none' | 'knn';
  /** C-MBSV: k of the k-NN fallback (default 1, the nearest-neighbour rule of Cover & Hart, the paper's ref. [48]). */
  knnK: number;
  /** Ordered categorical features mapped to their ranks 1..L before growing (C-MBSV paper §3.1): feature name → levels in order. */
  orderedCategories?: Record<string, string[]>;
}

/** Options as passed to `fit`: any subset, plus an optional preset name. */
export interface FitOptions extends Partial<TreeOptions> {
  /** A preset from `PRESETS` (`id3`, `c45`, `cart`, `zaki`). Defaults to `cart`. */
  algorithm?: string;
  /** Per-row weights (non-negative); default 1 for every row. */
  sampleWeight?: ArrayLike<number>;
  /**
   * Threads for a fit (Node entry `grove/node` only; elsewhere 1): features are sorted or
   * quantised and subtrees grown on worker threads, the tree is the same. `auto` = the machine's
   * cores, for fits of at least 2^21 row·features (an explicit count: 2^16). Smaller fits, C-MBSV,
   * run-time registered criteria and C4.5's fractional policy with missing values use one thread.
   * Default 1.
   */
  threads?: number | 'auto';
}

/** Options after defaults and validation, with the criterion resolved. */
export interface ResolvedOptions extends TreeOptions {
  algorithm: string;
  criterionImpl: Criterion;
}

export const DEFAULTS: TreeOptions = {
  criterion: 'gini',
  categoricalSplit: 'binary',
  maxDepth: Infinity,
  minSamplesSplit: 2,
  minSamplesLeaf: 1,
  purity: 1,
  minGain: 0,
  maxSubsetSize: undefined,
  missing: 'majority',
  thresholdCriterion: undefined,
  mdlCorrection: false,
  averageGainRule: false,
  chiSquareAlpha: 0,
  classWeight: undefined,
  prune: 'none',
  confidence: 0.25,
  subtreeRaising: false,
  pruneFraction: 1 / 3,
  ccpAlpha: undefined,
  ccpFolds: 10,
  ccpRule: '1se',
  seed: 1,
  bins: undefined,
  labelCoding: 'ordinal',
  correlationCentring: true,
  svmC: 1,
  svmBalance: true,
  svmScaling: 'standardize',
  svmBias: 'midpoint',
  unclassified: 'none',
  knnK: 1,
  orderedCategories: undefined,
};

export interface Preset {
  readonly description: string;
  readonly source: string;
  readonly options: Partial<TreeOptions>;
}

/** Named algorithms: combinations of criterion, split style and stopping rules. */
export const PRESETS: Readonly<Record<string, Preset>> = {
  id3: {
    description: 'information gain, one branch per categorical value, binary numeric thresholds',
    source: 'Quinlan 1986; metrics tutorial "ID3 Algorithm"',
    options: { criterion: 'info-gain', categoricalSplit: 'multiway' },
  },
  c45: {
    description:
      'gain ratio among splits of at least average gain, numeric thresholds by information gain with the MDL correction ' +
      '(C4.5 release 8), multiway categorical, fractional missing values, error-based pruning (CF 0.25)',
    source: 'Quinlan 1993; metrics tutorial "C4.5 Algorithm"',
    options: {
      criterion: 'gain-ratio',
      categoricalSplit: 'multiway',
      minSamplesLeaf: 2,
      averageGainRule: true,
      thresholdCriterion: 'info-gain',
      mdlCorrection: true,
      missing: 'fractional',
      prune: 'error-based',
      confidence: 0.25,
    },
  },
  cart: {
    description: 'Gini impurity, binary splits everywhere, cost-complexity pruning with α by 10-fold CV (1-SE rule)',
    source: 'Breiman et al. 1984; metrics tutorial "CART Algorithm"',
    options: { criterion: 'gini', categoricalSplit: 'binary', prune: 'cost-complexity', ccpFolds: 10, ccpRule: '1se' },
  },
  cmbsv: {
    description:
      'C-MBSV: feature of largest |correlation| with the class, thresholds from pairwise 1-D SVMs, multi-branch nodes, unclassified regions',
    source: 'Salehi-Moghaddami, Sadoghi Yazdi & Poostchi 2011 (docs/cmbsv.md)',
    options: { categoricalSplit: 'multiway', missing: 'majority' },
  },
  zaki: {
    description: "Zaki & Meira's DECISIONTREE(D, η=5, π=0.95): binary splits scored by information gain",
    source: 'Zaki & Meira, Data Mining and Analysis, ch. 19',
    options: { criterion: 'info-gain', categoricalSplit: 'binary', minSamplesSplit: 6, purity: 0.95 },
  },
};

/** Apply preset and defaults, then check every value with a message that names the option. */
export function resolveOptions(user: FitOptions = {}): ResolvedOptions {
  const algorithm = user.algorithm ?? 'cart';
  const preset = PRESETS[algorithm];
  if (!preset) {
    throw new GroveError(`unknown algorithm '${algorithm}' (known: ${Object.keys(PRESETS).join(', ')})`);
  }
  const merged: TreeOptions = { ...DEFAULTS, ...preset.options };
  for (const [key, value] of Object.entries(user)) {
    if (value !== undefined && key in DEFAULTS) (merged as unknown as Record<string, unknown>)[key] = value;
  }
  const criterionImpl = typeof merged.criterion === 'string' ? getCriterion(merged.criterion) : merged.criterion;
  if (merged.categoricalSplit !== 'multiway' && merged.categoricalSplit !== 'binary') {
    throw new GroveError(`categoricalSplit must be 'multiway' or 'binary', got '${String(merged.categoricalSplit)}'`);
  }
  if (criterionImpl.binaryOnly && merged.categoricalSplit === 'multiway') {
    throw new GroveError(`criterion '${criterionImpl.name}' scores binary splits only; use categoricalSplit 'binary'`);
  }
  checkInteger('maxDepth', merged.maxDepth, 0, true);
  checkInteger('minSamplesSplit', merged.minSamplesSplit, 2, false);
  checkInteger('minSamplesLeaf', merged.minSamplesLeaf, 1, false);
  if (!(merged.purity > 0 && merged.purity <= 1)) {
    throw new GroveError(`purity must be in (0, 1], got ${merged.purity}`);
  }
  if (typeof merged.minGain !== 'number' || Number.isNaN(merged.minGain) || merged.minGain === Infinity) {
    throw new GroveError(`minGain must be a number, got ${String(merged.minGain)}`);
  }
  if (merged.maxSubsetSize !== undefined) checkInteger('maxSubsetSize', merged.maxSubsetSize, 1, false);
  checkChoice('missing', merged.missing, ['majority', 'learned', 'fractional']);
  checkChoice('prune', merged.prune, ['none', 'pessimistic', 'error-based', 'reduced-error', 'cost-complexity']);
  checkChoice('ccpRule', merged.ccpRule, ['1se', 'min']);
  if (merged.thresholdCriterion !== undefined) getCriterion(merged.thresholdCriterion);
  if (!(merged.chiSquareAlpha >= 0 && merged.chiSquareAlpha < 1))
    throw new GroveError(`chiSquareAlpha must be in [0, 1), got ${merged.chiSquareAlpha}`);
  if (!(merged.confidence > 0 && merged.confidence < 1))
    throw new GroveError(`confidence must be in (0, 1), got ${merged.confidence}`);
  if (!(merged.pruneFraction > 0 && merged.pruneFraction < 1))
    throw new GroveError(`pruneFraction must be in (0, 1), got ${merged.pruneFraction}`);
  if (merged.ccpAlpha !== undefined && !(merged.ccpAlpha >= 0 && Number.isFinite(merged.ccpAlpha))) {
    throw new GroveError(`ccpAlpha must be a finite number ≥ 0, got ${merged.ccpAlpha}`);
  }
  checkInteger('ccpFolds', merged.ccpFolds, 2, false);
  checkInteger('seed', merged.seed, 0, false);
  if (merged.bins !== undefined) {
    checkInteger('bins', merged.bins, 2, false);
    if (merged.bins > 65535) throw new GroveError(`bins must be at most 65535, got ${merged.bins}`);
  }
  checkChoice('labelCoding', merged.labelCoding, ['ordinal', 'one-vs-rest']);
  checkChoice('svmScaling', merged.svmScaling, ['standardize', 'none', 'unit-norm']);
  checkChoice('unclassified', merged.unclassified, ['none', 'knn']);
  checkChoice('svmBias', merged.svmBias, ['midpoint', 'max-alpha']);
  if (typeof merged.correlationCentring !== 'boolean')
    throw new GroveError(`correlationCentring must be true or false, got ${String(merged.correlationCentring)}`);
  if (typeof merged.svmBalance !== 'boolean')
    throw new GroveError(`svmBalance must be true or false, got ${String(merged.svmBalance)}`);
  if (!(merged.svmC > 0 && Number.isFinite(merged.svmC)))
    throw new GroveError(`svmC must be a finite number > 0, got ${String(merged.svmC)}`);
  checkInteger('knnK', merged.knnK, 1, false);
  if (merged.orderedCategories !== undefined) {
    if (typeof merged.orderedCategories !== 'object' || merged.orderedCategories === null)
      throw new GroveError('orderedCategories must map feature names to lists of levels');
    for (const [name, levels] of Object.entries(merged.orderedCategories)) {
      if (!Array.isArray(levels) || levels.length === 0 || new Set(levels).size !== levels.length) {
        throw new GroveError(`orderedCategories for '${name}' must be a non-empty list of distinct levels`);
      }
    }
  }
  if (algorithm === 'cmbsv' && merged.missing !== 'majority') {
    throw new GroveError(
      `algorithm 'cmbsv' supports missing 'majority' only (rows with a missing value follow the heaviest branch), got '${merged.missing}'`,
    );
  }
  if (merged.classWeight !== undefined && merged.classWeight !== 'balanced') {
    if (typeof merged.classWeight !== 'object' || merged.classWeight === null)
      throw new GroveError(`classWeight must be 'balanced' or a map from class label to weight`);
    for (const [label, w] of Object.entries(merged.classWeight)) {
      if (!(w >= 0 && Number.isFinite(w)))
        throw new GroveError(`classWeight for '${label}' must be a finite number ≥ 0, got ${w}`);
    }
  }
  return stableShape({ ...merged, algorithm, criterion: criterionImpl.name, criterionImpl });
}

/** Every key of T, optional ones too (holding undefined when unset). */
type AllKeys<T> = { [K in keyof Required<T>]: T[K] };

/**
 * The options as one object literal, every key in one order. After a few fits in a process, V8
 * gave each object built by the spreads above a hidden class of its own (measured: from the 9th
 * call on), so the grower's optimised code met a new class on every fit and deoptimised on
 * thousands of nodes (letter-recognition: 3,000-6,000 deopts over 25 fits). A literal always
 * gets the same class.
 */
function stableShape(o: ResolvedOptions): ResolvedOptions {
  const shaped: AllKeys<ResolvedOptions> = {
    algorithm: o.algorithm,
    criterion: o.criterion,
    criterionImpl: o.criterionImpl,
    categoricalSplit: o.categoricalSplit,
    maxDepth: o.maxDepth,
    minSamplesSplit: o.minSamplesSplit,
    minSamplesLeaf: o.minSamplesLeaf,
    purity: o.purity,
    minGain: o.minGain,
    maxSubsetSize: o.maxSubsetSize,
    missing: o.missing,
    thresholdCriterion: o.thresholdCriterion,
    mdlCorrection: o.mdlCorrection,
    averageGainRule: o.averageGainRule,
    chiSquareAlpha: o.chiSquareAlpha,
    classWeight: o.classWeight,
    prune: o.prune,
    confidence: o.confidence,
    subtreeRaising: o.subtreeRaising,
    pruneFraction: o.pruneFraction,
    ccpAlpha: o.ccpAlpha,
    ccpFolds: o.ccpFolds,
    ccpRule: o.ccpRule,
    seed: o.seed,
    bins: o.bins,
    labelCoding: o.labelCoding,
    correlationCentring: o.correlationCentring,
    svmC: o.svmC,
    svmBalance: o.svmBalance,
    svmScaling: o.svmScaling,
    svmBias: o.svmBias,
    unclassified: o.unclassified,
    knnK: o.knnK,
    orderedCategories: o.orderedCategories,
  };
  return shaped;
}

function checkChoice(name: string, value: unknown, choices: string[]): void {
  if (!choices.includes(value as string))
    throw new GroveError(`${name} must be one of ${choices.join(', ')}, got '${String(value)}'`);
}

function checkInteger(name: string, value: number, min: number, allowInfinity: boolean): void {
  const ok = (allowInfinity && value === Infinity) || (Number.isInteger(value) && value >= min);
  if (!ok)
    throw new GroveError(
      `${name} must be an integer ≥ ${min}${allowInfinity ? ' (or Infinity)' : ''}, got ${String(value)}`,
    );
}
