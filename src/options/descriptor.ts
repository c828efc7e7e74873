/**
 * What one entry of the option table (`OPTION_DESCRIPTORS`) says about a tree option. Everything
 * else about the option — its TypeScript type, default, validation, CLI flag, `compare` config key
 * and place in the model file — is generated from these fields.
 */

/**
 * Which part of a fit an option shapes; commands show the flags of the groups they use
 * (`grove score` takes `split` and `stop`, `grove fit` all of them).
 */
export type OptionGroup = 'split' | 'stop' | 'data' | 'prune' | 'cmbsv' | 'forest' | 'optimal';

/** How the model file records an option. */
export interface SavedAs {
  /**
   * A section of `options` named after an algorithm: the option is written there, for that
   * algorithm's trees only. Absent: written directly under `options`.
   */
  readonly under?: string;
  /** Files written before the option existed lack it: reading accepts its absence. */
  readonly optional?: boolean;
  /**
   * Written only when set to something other than its default (with `optional`), so that the
   * files of fits that leave it off stay as they were before the option existed.
   */
  readonly whenSet?: boolean;
}

interface DescriptorBase {
  /** The `TreeOptions` field; also the `compare` config key. */
  readonly name: string;
  /** One line for `--help`, the docs and generated controls. */
  readonly help: string;
  /** The long CLI flag without its dashes; also accepted as a `compare` config key. */
  readonly flag: string;
  readonly group: OptionGroup;
  /** Absent: not written to the model file. A value that is undefined or infinite is written as null. */
  readonly saved?: SavedAs;
}

/** An integer of at least `min` (and at most `max`); `infinity` also allows Infinity. */
export interface IntegerDescriptor extends DescriptorBase {
  readonly type: 'integer';
  readonly default: number | undefined;
  readonly min: number;
  readonly max?: number;
  readonly infinity?: boolean;
}

/** A finite number, within the bounds given (`above`/`below` exclusive, `atLeast`/`atMost` inclusive). */
export interface NumberDescriptor extends DescriptorBase {
  readonly type: 'number';
  readonly default: number | undefined;
  readonly above?: number;
  readonly atLeast?: number;
  readonly below?: number;
  readonly atMost?: number;
}

export interface BooleanDescriptor extends DescriptorBase {
  readonly type: 'boolean';
  readonly default: boolean;
}

/** One word of a fixed list. */
export interface ChoiceDescriptor extends DescriptorBase {
  readonly type: 'choice';
  readonly choices: readonly string[];
  readonly default: string;
}

/** A registered criterion's name; with `objects`, a `Criterion` object is accepted too. */
export interface CriterionDescriptor extends DescriptorBase {
  readonly type: 'criterion';
  readonly default: string | undefined;
  readonly objects?: boolean;
}

/** A name in the pruner table (src/prune/registry.ts). */
export interface PrunerDescriptor extends DescriptorBase {
  readonly type: 'pruner';
  readonly default: string;
}

/** `balanced`, `balancedSubsample` (forests: balanced per bootstrap sample), or a weight per class label. */
export interface ClassWeightDescriptor extends DescriptorBase {
  readonly type: 'class-weight';
  readonly default: undefined;
}

/** Feature name → its levels, lowest first. */
export interface OrderedCategoriesDescriptor extends DescriptorBase {
  readonly type: 'ordered-categories';
  readonly default: undefined;
}

/**
 * How many features a node draws among (scikit-learn's `max_features`): `sqrt` or `log2` of the
 * feature count, an integer count ≥ 1, or a fraction in (0, 1) of the features.
 */
export interface MaxFeaturesDescriptor extends DescriptorBase {
  readonly type: 'max-features';
  readonly default: undefined;
}

/** One entry of the option table. */
export type OptionDescriptor =
  | MaxFeaturesDescriptor
  | IntegerDescriptor
  | NumberDescriptor
  | BooleanDescriptor
  | ChoiceDescriptor
  | CriterionDescriptor
  | PrunerDescriptor
  | ClassWeightDescriptor
  | OrderedCategoriesDescriptor;
