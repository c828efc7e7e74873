import type { OptionDescriptor } from './descriptor.js';
import { CMBSV_DESCRIPTORS } from './descriptors-cmbsv.js';
import { FOREST_DESCRIPTORS } from './descriptors-forest.js';
import { OPTIMAL_DESCRIPTORS } from './descriptors-optimal.js';

/**
 * Every tree option, once. `TreeOptions`, `DEFAULTS`, validation, the model file's `options`
 * schema, the CLI flags and `compare`'s config keys are all generated from this table; adding an
 * option is adding an entry. The order is the order of the saved options in a model file.
 * Public, so that a user interface can build one control per entry from its type, choices or
 * range, default and help.
 */
export const OPTION_DESCRIPTORS = [
  {
    name: 'criterion',
    type: 'criterion',
    objects: true,
    default: 'gini',
    help: 'split measure: a registered name (`grove criteria` lists them) or, from the API, a Criterion object',
    flag: 'criterion',
    group: 'split',
    saved: {},
  },
  {
    name: 'categoricalSplit',
    type: 'choice',
    choices: ['multiway', 'binary'],
    default: 'binary',
    help:
      'multiway: one branch per value seen at the node, the attribute not reused below (ID3/C4.5); ' +
      'binary: subsets x ∈ V (Zaki; CART)',
    flag: 'categorical-split',
    group: 'split',
    saved: {},
  },
  {
    name: 'maxDepth',
    type: 'integer',
    min: 0,
    infinity: true,
    default: Infinity,
    help: 'largest depth of a leaf (root = depth 0); unlimited by default',
    flag: 'max-depth',
    group: 'stop',
    saved: {},
  },
  {
    name: 'minSamplesSplit',
    type: 'integer',
    min: 2,
    default: 2,
    help: "a node with fewer rows becomes a leaf (Zaki's η: minSamplesSplit = η + 1)",
    flag: 'min-split',
    group: 'stop',
    saved: {},
  },
  {
    name: 'minSamplesLeaf',
    type: 'integer',
    min: 1,
    default: 1,
    help: 'rows each child of a binary split needs (multiway: at least two branches need them)',
    flag: 'min-leaf',
    group: 'stop',
    saved: {},
  },
  {
    name: 'purity',
    type: 'number',
    above: 0,
    atMost: 1,
    default: 1,
    help: "Zaki's π: a node whose majority-class share is ≥ purity becomes a leaf",
    flag: 'purity',
    group: 'stop',
    saved: {},
  },
  {
    name: 'minGain',
    type: 'number',
    default: 0,
    help: 'smallest improvement over the parent (bigger is better) worth a split',
    flag: 'min-gain',
    group: 'stop',
    saved: {},
  },
  {
    name: 'maxSubsetSize',
    type: 'integer',
    min: 1,
    default: undefined,
    help:
      "Zaki's l: largest |V| tried for binary categorical splits with more than two classes; " +
      'auto: every partition when a node sees ≤ 10 values, else |V| ≤ 2',
    flag: 'max-subset',
    group: 'split',
    saved: {},
  },
  {
    name: 'missing',
    type: 'choice',
    choices: ['majority', 'learned', 'fractional'],
    default: 'majority',
    help:
      'rows with a missing value: majority (heaviest branch), learned (binary splits send them the way that ' +
      'scores best), fractional (C4.5: down every branch, weighted)',
    flag: 'missing',
    group: 'split',
    saved: {},
  },
  {
    name: 'thresholdCriterion',
    type: 'criterion',
    default: undefined,
    help: 'criterion that picks numeric thresholds, when it differs from the one comparing attributes (C4.5)',
    flag: 'threshold-criterion',
    group: 'split',
    saved: {},
  },
  {
    name: 'mdlCorrection',
    type: 'boolean',
    default: false,
    help: "Quinlan 1996: subtract log2(candidate thresholds) / n from a numeric split's information gain",
    flag: 'mdl-correction',
    group: 'split',
    saved: {},
  },
  {
    name: 'averageGainRule',
    type: 'boolean',
    default: false,
    help: "C4.5's rule: the best score among splits whose information gain is at least the average",
    flag: 'average-gain-rule',
    group: 'split',
    saved: {},
  },
  {
    name: 'j48Rules',
    type: 'boolean',
    default: false,
    help:
      "Weka J48's rules (docs/peers-c45-cart.md): minSamplesLeaf counts weight, numeric branches need " +
      'clamp(0.1 · weight / classes, minSamplesLeaf, 25), values within 1e-5 tie, a branch per declared ' +
      "category, J48's average-gain and pruning details, subtrees that do not cut training errors collapsed",
    flag: 'j48-rules',
    group: 'split',
    saved: { optional: true, whenSet: true },
  },
  {
    name: 'chiSquareAlpha',
    type: 'number',
    atLeast: 0,
    below: 1,
    default: 0,
    help:
      "chi-square pre-pruning: stop when the best split's class distribution is independent at this level " +
      '(0 = off)',
    flag: 'chi-square-alpha',
    group: 'stop',
    saved: {},
  },
  {
    name: 'classWeight',
    type: 'class-weight',
    default: undefined,
    help:
      "class weights multiplying every row's weight: balanced (n / (k · n_c)), balancedSubsample (forests: " +
      'balanced over each bootstrap sample) or label=weight,label=weight',
    flag: 'class-weight',
    group: 'data',
    saved: {},
  },
  {
    name: 'prune',
    type: 'pruner',
    default: 'none',
    help: 'post-pruning method (docs/pruning.md)',
    flag: 'prune',
    group: 'prune',
    saved: {},
  },
  {
    name: 'confidence',
    type: 'number',
    above: 0,
    below: 1,
    default: 0.25,
    help: "error-based pruning: C4.5's confidence factor CF",
    flag: 'confidence',
    group: 'prune',
    saved: {},
  },
  {
    name: 'subtreeRaising',
    type: 'boolean',
    default: false,
    help: 'error-based pruning: also try replacing a node by its largest branch (C4.5)',
    flag: 'subtree-raising',
    group: 'prune',
    saved: {},
  },
  {
    name: 'pruneFraction',
    type: 'number',
    above: 0,
    below: 1,
    default: 1 / 3,
    help: 'reduced-error pruning: share of the rows held out (stratified) to prune with',
    flag: 'prune-fraction',
    group: 'prune',
    saved: {},
  },
  {
    name: 'ccpAlpha',
    type: 'number',
    atLeast: 0,
    default: undefined,
    help: 'cost-complexity pruning: a fixed α; unset, α is chosen by cross-validation',
    flag: 'ccp-alpha',
    group: 'prune',
    saved: {},
  },
  {
    name: 'ccpFolds',
    type: 'integer',
    min: 2,
    default: 10,
    help: 'cost-complexity pruning: folds of the cross-validation that chooses α',
    flag: 'ccp-folds',
    group: 'prune',
    saved: {},
  },
  {
    name: 'ccpRule',
    type: 'choice',
    choices: ['1se', 'min'],
    default: '1se',
    help: 'cost-complexity pruning: 1se (the simplest tree within one standard error of the best) or min',
    flag: 'ccp-rule',
    group: 'prune',
    saved: {},
  },
  {
    name: 'seed',
    type: 'integer',
    min: 0,
    default: 1,
    help:
      "seed of every random draw: maxFeatures' features per node, pruning's hold-out split and folds " +
      "(the API also takes scikit-learn's randomState)",
    flag: 'seed',
    group: 'prune',
    saved: {},
  },
  {
    name: 'bins',
    type: 'integer',
    min: 2,
    max: 65535,
    default: undefined,
    help:
      'histogram mode: quantise numeric features into at most this many bins (255 is usual) and scan bins, ' +
      'not rows; unset: exact mode',
    flag: 'bins',
    group: 'split',
    saved: { optional: true },
  },
  ...CMBSV_DESCRIPTORS,
  {
    name: 'orderedCategories',
    type: 'ordered-categories',
    default: undefined,
    help:
      'ordered categorical features, mapped to their ranks 1..L before growing: column=low,mid,high ' +
      '(the flag is repeatable)',
    flag: 'ordered',
    group: 'data',
  },
  // scikit-learn's growth limits (issue 19): written to the model file only when set.
  {
    name: 'maxLeafNodes',
    type: 'integer',
    min: 2,
    default: undefined,
    help:
      "best-first growth (scikit-learn's max_leaf_nodes): at most this many leaves, splitting first the node " +
      'whose split gains most (gini, info-gain: improvement × node weight; other measures: their improvement)',
    flag: 'max-leaf-nodes',
    group: 'stop',
    saved: { optional: true, whenSet: true },
  },
  {
    name: 'minWeightFractionLeaf',
    type: 'number',
    atLeast: 0,
    atMost: 0.5,
    default: 0,
    help: "share of the total row weight each child of a split needs (scikit-learn's min_weight_fraction_leaf)",
    flag: 'min-weight-fraction-leaf',
    group: 'stop',
    saved: { optional: true, whenSet: true },
  },
  {
    name: 'minImpurityDecrease',
    type: 'number',
    atLeast: 0,
    default: 0,
    help:
      "scikit-learn's min_impurity_decrease: a node splits only when its improvement × its share of the total " +
      'weight (N_t / N) is at least this (minGain compares the improvement alone)',
    flag: 'min-impurity-decrease',
    group: 'stop',
    saved: { optional: true, whenSet: true },
  },
  {
    name: 'maxFeatures',
    type: 'max-features',
    default: undefined,
    help:
      "features drawn per node, without replacement, seeded by seed (scikit-learn's max_features): sqrt, log2, " +
      'a count or a fraction in (0, 1); draws go on past features that offer no split; unset: every feature',
    flag: 'max-features',
    group: 'split',
    saved: { optional: true, whenSet: true },
  },
  {
    name: 'splitter',
    type: 'choice',
    choices: ['best', 'random'],
    default: 'best',
    help:
      'numeric thresholds: best (every threshold scanned) or random (extra trees: one threshold per drawn feature, ' +
      "uniform between the node's smallest and largest value, seeded by seed; exact mode only)",
    flag: 'splitter',
    group: 'split',
    saved: { optional: true, whenSet: true },
  },
  ...FOREST_DESCRIPTORS,
  ...OPTIMAL_DESCRIPTORS,
] as const satisfies readonly OptionDescriptor[];

/** The option table's entries. */
export type OptionEntry = (typeof OPTION_DESCRIPTORS)[number];

/** A `TreeOptions` field name. */
export type OptionName = OptionEntry['name'];

const byName = new Map<string, OptionDescriptor>(OPTION_DESCRIPTORS.map((d) => [d.name, d]));

/** The descriptor of a `TreeOptions` field, or undefined for a name that is not one. */
export function optionDescriptor(name: string): OptionDescriptor | undefined {
  return byName.get(name);
}

type ChoicesByName = { [D in Extract<OptionEntry, { type: 'choice' }> as D['name']]: D['choices'] };

/** The words a choice option accepts, typed as their literals. */
export function choicesOf<N extends keyof ChoicesByName>(name: N): ChoicesByName[N] {
  return (byName.get(name) as unknown as { choices: ChoicesByName[N] }).choices;
}
