/**
 * grove: decision trees with interchangeable node-splitting measures.
 * This entry point is browser-safe (no Node imports); file I/O lives in `grove/node`, the
 * building blocks for writing a measure or a pruner in `grove/extend`.
 */

// Fitting and models.
export type { CmbsvSplitOptions, CmbsvSplitResult } from './algorithms/cmbsv/index.js';
export { cmbsvSplit } from './algorithms/cmbsv/index.js';
export { type FitContext, type FitProgress, fit } from './algorithms/fit.js';
// Errors.
export type { GroveErrorCode, GroveErrorDetails } from './core/errors.js';
export { GroveError } from './core/errors.js';
// Evaluation and the statistics that compare measures.
export { stratifiedFolds } from './core/folds.js';
// Options, measures and pruners.
export type { RegisterOptions } from './criteria/registry.js';
export { BUILTIN_CRITERIA, getCriterion, listCriteria, registerCriterion } from './criteria/registry.js';
export type { Better, CountTable, Criterion } from './criteria/types.js';
// Data.
export type { ArffAttribute, ArffAttributeType, ArffDocument } from './data/arff.js';
export { parseArff, parseArffDocument } from './data/arff.js';
export { datasetFromArrow } from './data/arrow.js';
export type {
  CategoricalColumn,
  ClassLabel,
  Column,
  Dataset,
  FeatureKind,
  NumericColumn,
  NumericValues,
} from './data/dataset.js';
export {
  createDelimitedReader,
  type DelimitedReader,
  type DelimitedReadOptions,
  parseCsvText,
} from './data/delimited.js';
export { type IdLikeColumn, idLikeColumns } from './data/describe.js';
export { datasetFromRows, encodeTable, type RowsOptions } from './data/encode.js';
export type { DeclaredType, EncodeOptions } from './data/encode-options.js';
export { TEXT_ENCODINGS, type TextEncodingName } from './data/text-decode.js';
export { DEFAULT_NA_TOKENS } from './data/tokens.js';
export type { TypedReadOptions } from './data/typed-fields.js';
export type { ForestContext } from './ensemble/fit-forest.js';
export { fitForest } from './ensemble/fit-forest.js';
export type { ForestJson, ForestParts, ForestStats, OobEstimate } from './ensemble/forest.js';
export { Forest } from './ensemble/forest.js';
export type { ForestKind, ForestSettings, ForestVote } from './ensemble/settings.js';
export type { FoldResult, RepeatedFoldResult, Summary } from './eval/cross-validate.js';
export { crossValidate, crossValidateRepeated, summarize } from './eval/cross-validate.js';
export type { ClassMetrics, Evaluation } from './eval/evaluate.js';
export { evaluate, LOG_LOSS_EPS } from './eval/evaluate.js';
export { type FriedmanResult, friedmanTest } from './eval/stats/friedman.js';
export { cliques, criticalDifference, type NemenyiAlpha, nemenyiPValue } from './eval/stats/nemenyi.js';
export { averageRanks } from './eval/stats/ranks.js';
export { type WilcoxonResult, wilcoxonSignedRank } from './eval/stats/wilcoxon.js';
// Explanations.
export type { ExplainableModel } from './explain/model.js';
export type { PartialDependence, PartialDependenceOptions } from './explain/partial.js';
export { partialDependence } from './explain/partial.js';
export type { PermutationImportance, PermutationImportanceOptions } from './explain/permutation.js';
export { permutationImportance } from './explain/permutation.js';
export type { ShapOptions, ShapValues } from './explain/shap.js';
export { shapValues } from './explain/shap.js';
// Exports.
export { treeToDot } from './export/dot.js';
export { forestToOnnx } from './export/onnx/forest.js';
export type { OnnxExport } from './export/onnx/model.js';
export { treeToOnnx } from './export/onnx/model.js';
export type { Rule } from './export/rules.js';
export { rulesToText, treeToRules } from './export/rules.js';
export { forestToSql } from './export/sql/forest.js';
export type { SqlExport, SqlExportOptions } from './export/sql/query.js';
export { treeToSql } from './export/sql/query.js';
export { treeToText } from './export/text.js';
export type { GrowProgress } from './learn/progress.js';
export type { AttributeScore, ScoreReport } from './learn/score.js';
export { scoreAttributes } from './learn/score.js';
export type { AlignOptions, PredictInput } from './model/align.js';
export type { UnclassifiedPolicy } from './model/compiled.js';
export type { DecisionPaths, PredictOptions } from './model/decision-tree.js';
export { DecisionTree } from './model/decision-tree.js';
export type { KnnRegion, TreeNode } from './model/node.js';
export type { OptimalityInfo } from './model/optimality.js';
export type { FeatureSchema, ModelFile, SavedOptions } from './model/schema.js';
export { MODEL_FORMAT, MODEL_VERSION, validateModel } from './model/schema.js';
export type { Split } from './model/split.js';
export type { TreeStats } from './model/stats.js';
export { fitOptimal, type OptimalContext, type SearchProgress } from './optimal/fit-optimal.js';
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
