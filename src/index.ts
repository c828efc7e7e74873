/**
 * grove: decision trees with interchangeable node-splitting measures.
 * This entry point is browser-safe (no Node imports); file I/O lives in `grove/node`.
 */
export * from './data/index.js';
export * from './criteria/index.js';
export { GroveError } from './errors.js';
export { fit } from './tree/fit.js';
export { DecisionTree } from './tree/model.js';
export { costComplexityPath, pruneCostComplexity, pessimisticError, addErrs, pruneTree } from './tree/prune/index.js';
export type { CcpCv, CcpCvRow, CcpPathEntry, PruneContext, PruningInfo } from './tree/prune/index.js';
export type { PredictInput } from './tree/align.js';
export { DEFAULTS, PRESETS, resolveOptions } from './tree/options.js';
export type { CategoricalSplit, FitOptions, Preset, ResolvedOptions, TreeOptions } from './tree/options.js';
export type { TreeNode } from './tree/node.js';
export type { Split } from './split/types.js';
export { MODEL_FORMAT, MODEL_VERSION, validateModel } from './tree/schema.js';
export type { FeatureSchema, ModelFile, SavedOptions } from './tree/schema.js';
export type { TreeStats } from './tree/stats.js';
export { scoreAttributes } from './tree/score.js';
export type { AttributeScore, ScoreReport } from './tree/score.js';
export { treeToText } from './export/text.js';
export { treeToRules, rulesToText } from './export/rules.js';
export type { Rule } from './export/rules.js';
export { treeToDot } from './export/dot.js';
export * from './cmbsv/index.js';
export type { KnnRegion } from './tree/node.js';
export type { UnclassifiedPolicy } from './tree/compiled.js';
export * from './eval/stats/index.js';
export { stratifiedFolds } from './eval/folds.js';
export { crossValidate, summarize } from './eval/cross-validate.js';
export type { FoldResult, Summary } from './eval/cross-validate.js';
