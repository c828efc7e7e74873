import type { Criterion } from '../criteria/types.js';
import type { OptionEntry } from './descriptors.js';

/**
 * Class weights: `balanced` = n / (k · n_c), or an explicit weight per class label.
 * `balancedSubsample` (forests, scikit-learn's `balanced_subsample`): balanced over each tree's
 * bootstrap sample; a single tree grows on every row, so there it is `balanced`.
 */
export type ClassWeight = 'balanced' | 'balancedSubsample' | Record<string, number>;

/**
 * A post-pruning method: a name in the pruner table (`listPruners()`; built in: `none`,
 * `pessimistic`, `error-based`, `reduced-error`, `cost-complexity`; more with `registerPruner`).
 */
export type PruneMethod = string;

/** The value type of one option, from its descriptor. */
export type OptionValue<D> = D extends { type: 'integer' | 'number' }
  ? number
  : D extends { type: 'boolean' }
    ? boolean
    : D extends { type: 'choice'; choices: readonly (infer C)[] }
      ? C
      : D extends { type: 'criterion'; objects: true }
        ? string | Criterion
        : D extends { type: 'criterion' }
          ? string
          : D extends { type: 'pruner' }
            ? PruneMethod
            : D extends { type: 'class-weight' }
              ? ClassWeight
              : D extends { type: 'ordered-categories' }
                ? Record<string, string[]>
                : D extends { type: 'max-features' }
                  ? MaxFeatures
                  : never;

/** `sqrt` or `log2` of the feature count, a count (integer ≥ 1) or a fraction in (0, 1) of the features. */
export type MaxFeatures = 'sqrt' | 'log2' | number;

type WithDefault = { [D in OptionEntry as D['default'] extends undefined ? never : D['name']]: OptionValue<D> };
type WithoutDefault = { [D in OptionEntry as D['default'] extends undefined ? D['name'] : never]?: OptionValue<D> };
type Flatten<T> = { [K in keyof T]: T[K] };

/**
 * Everything that shapes a grown tree, one field per entry of `OPTION_DESCRIPTORS` (whose `help`
 * describes each). Every field has a default (`DEFAULTS`; the optional ones are off when unset);
 * presets (`PRESETS`) fill some of them; what the user passes wins over the preset.
 */
export type TreeOptions = Flatten<WithDefault & WithoutDefault>;

/** How categorical attributes are split. */
export type CategoricalSplit = TreeOptions['categoricalSplit'];

/**
 * What happens to a row whose value is missing (or is a category a node has no branch for):
 * - `majority`: it follows the heaviest branch, in training and prediction;
 * - `learned`: binary splits send missing rows the way that scores best in training (kept for
 *   prediction); multiway splits fall back to `majority`;
 * - `fractional`: C4.5 — the row goes down every branch with a weight proportional to the branch
 *   sizes, in training and in prediction (probabilities are mixed); a split's score is computed on
 *   the known rows and scaled by their share.
 */
export type MissingPolicy = TreeOptions['missing'];

/** Options as passed to `fit`: any subset, plus an optional preset name. */
export interface FitOptions extends Partial<TreeOptions> {
  /** A preset from `PRESETS` (`id3`, `c45`, `cart`, `zaki`, `cmbsv`). Defaults to `cart`. */
  algorithm?: string;
  /**
   * Per-row weights (non-negative); default 1 for every row. A row of weight 0 is ignored when
   * growing, as in scikit-learn: the tree is the one grown without it (it counts toward no
   * `minSamplesLeaf` / `minSamplesSplit`, offers no threshold, moves no histogram bin edge).
   */
  sampleWeight?: ArrayLike<number>;
  /**
   * Threads for a fit (Node entry `grove/node` only; elsewhere 1): features are sorted or
   * quantised and subtrees grown on worker threads (an optimal tree: its root's features searched
   * on worker threads, docs/optimal.md), the tree is the same. `auto` = the machine's
   * cores, for fits of at least 2^21 row·features (an explicit count: 2^16). Smaller fits, C-MBSV,
   * run-time registered criteria, best-first growth (`maxLeafNodes`) and C4.5's fractional policy with
   * missing values use one thread.
   * Default 1.
   */
  threads?: number | 'auto';
  /** scikit-learn's name for `seed` (the seed of `maxFeatures`' draws); give one of the two. */
  randomState?: number;
}

/** Options after defaults and validation, with the criterion resolved. */
export interface ResolvedOptions extends TreeOptions {
  algorithm: string;
  criterionImpl: Criterion;
}
