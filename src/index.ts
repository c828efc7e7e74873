/**
 * grove: decision trees with interchangeable node-splitting measures.
 * This entry point is browser-safe (no Node imports); file I/O lives in `grove/node`.
 */

export * from './algorithms/cmbsv/index.js';
export { type FitContext, fit } from './algorithms/fit.js';
export type { GroveErrorCode, GroveErrorDetails } from './core/errors.js';
export { GroveError } from './core/errors.js';
export { stratifiedFolds } from './core/folds.js';
export * from './criteria/index.js';
export { datasetFromArrow } from './data/arrow.js';
export * from './data/index.js';
export type { TypedReadOptions } from './data/typed-columns.js';
export type { FoldResult, RepeatedFoldResult, Summary } from './eval/cross-validate.js';
export { crossValidate, crossValidateRepeated, summarize } from './eval/cross-validate.js';
export type { ClassMetrics, Evaluation } from './eval/evaluate.js';
export { evaluate, LOG_LOSS_EPS } from './eval/evaluate.js';
export * from './eval/stats/index.js';
export type { PartialDependence, PartialDependenceOptions } from './explain/partial.js';
export { partialDependence } from './explain/partial.js';
export type { PermutationImportance, PermutationImportanceOptions } from './explain/permutation.js';
export { permutationImportance } from './explain/permutation.js';
export type { ShapValues } from './explain/shap.js';
export { shapValues } from './explain/shap.js';
export { treeToDot } from './export/dot.js';
export type { OnnxExport } from './export/onnx/model.js';
export { treeToOnnx } from './export/onnx/model.js';
export type { Rule } from './export/rules.js';
export { rulesToText, treeToRules } from './export/rules.js';
export type { SqlExport, SqlExportOptions } from './export/sql/query.js';
export { treeToSql } from './export/sql/query.js';
export { treeToText } from './export/text.js';
export type { AttributeScore, ScoreReport } from './learn/score.js';
export { scoreAttributes } from './learn/score.js';
export type { AlignOptions, PredictInput } from './model/align.js';
export type { UnclassifiedPolicy } from './model/compiled.js';
export type { DecisionPaths, PredictOptions } from './model/decision-tree.js';
export { DecisionTree } from './model/decision-tree.js';
export type { KnnRegion, TreeNode } from './model/node.js';
export type { FeatureSchema, ModelFile, SavedOptions } from './model/schema.js';
export { MODEL_FORMAT, MODEL_VERSION, validateModel } from './model/schema.js';
export type { Split } from './model/split.js';
export type { TreeStats } from './model/stats.js';
export type {
  CategoricalSplit,
  ClassWeight,
  FitOptions,
  MissingPolicy,
  OptionDescriptor,
  OptionGroup,
  OptionName,
  Preset,
  PruneMethod,
  ResolveContext,
  ResolvedOptions,
  TreeOptions,
} from './options/options.js';
export { DEFAULTS, OPTION_DESCRIPTORS, PRESETS, resolveOptions } from './options/options.js';
export {
  addErrs,
  costComplexityPath,
  pessimisticError,
  pruneCostComplexity,
  pruneTree,
} from './prune/checked.js';
export type {
  CcpCv,
  CcpCvRow,
  CcpPathEntry,
  PruneContext,
  Pruner,
  PrunerInput,
  PrunerOutput,
  PruningDetails,
  PruningInfo,
  RegisterPrunerOptions,
} from './prune/index.js';
export { listPruners, registerPruner } from './prune/index.js';
export type { DialectName as SqlDialect } from './sql/index.js';
export { DIALECT_NAMES as SQL_DIALECTS } from './sql/index.js';
