/**
 * The criteria folder in one place for grove's own modules and tests: the measures, their
 * registry and the count-table helpers, unchecked (the public API exports the registry from
 * `grove` and checked table constructors from `grove/extend`).
 */
export { gini, giniOfRow, twoing } from './cart.js';
export { chandraVarghese } from './chandra-varghese.js';
export { dcsm } from './dcsm.js';
export { averageGain, gainRatio, infoGain, normalizedGain, splitInfo, splitInfoWithUnknown } from './gain.js';
export { hellinger } from './hellinger.js';
export type { RegisterOptions } from './registry.js';
export {
  BUILTIN_CRITERIA,
  getCriterion,
  improvement,
  listCriteria,
  orientedScore,
  registerCriterion,
} from './registry.js';
export { chiSquare, gStatistic } from './statistics.js';
export {
  childEntropy,
  createTable,
  distinctClasses,
  distinctClassesOfRow,
  entropyOfRow,
  informationGain,
  nonEmptyBranches,
  parentEntropy,
  recomputeTotals,
  singleBranchTable,
  tableFromCounts,
  ZERO_TOLERANCE,
} from './table.js';
export type { Better, CountTable, Criterion } from './types.js';
