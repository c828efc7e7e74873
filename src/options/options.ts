/**
 * The tree options: the option table and everything generated from it. Modules import from here;
 * the pieces live in the files beside it.
 */

export { DEFAULTS } from './defaults.js';
export type {
  BooleanDescriptor,
  ChoiceDescriptor,
  ClassWeightDescriptor,
  CriterionDescriptor,
  IntegerDescriptor,
  MaxFeaturesDescriptor,
  NumberDescriptor,
  OptionDescriptor,
  OptionGroup,
  OrderedCategoriesDescriptor,
  PrunerDescriptor,
  SavedAs,
} from './descriptor.js';
export { choicesOf, OPTION_DESCRIPTORS, type OptionEntry, type OptionName, optionDescriptor } from './descriptors.js';
export { PRESETS, type Preset, presetNamed, presetsSetting } from './presets.js';
export { knownPruneMethods, providePruneMethods } from './pruner-names.js';
export { type ResolveContext, resolveOptions } from './resolve.js';
export { savedOptions } from './saved.js';
export { type SavedOptionsShape, savedOptionsSchema } from './schema.js';
export {
  parseBoolean,
  parseChoice,
  parseClassWeight,
  parseInteger,
  parseNumber,
  parseOptionText,
  parseOrderedLevels,
  splitList,
  valuePlaceholder,
} from './text.js';
export type {
  CategoricalSplit,
  ClassWeight,
  FitOptions,
  MaxFeatures,
  MissingPolicy,
  OptionValue,
  PruneMethod,
  ResolvedOptions,
  TreeOptions,
} from './types.js';
export { checkOption, type OptionNaming, optionLabel, optionProblem } from './validate.js';
