export type { Better, CountTable, Criterion } from './types.js';
export {
  ZERO_TOLERANCE,
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
} from './table.js';
export { averageGain, gainRatio, infoGain, normalizedGain, splitInfo, splitInfoWithUnknown } from './gain.js';
export { gini, giniOfRow, twoing } from './cart.js';
export { chiSquare, gStatistic } from './statistics.js';
export { dcsm } from './dcsm.js';
export { chandraVarghese } from './chandra-varghese.js';
export {
  BUILTIN_CRITERIA,
  getCriterion,
  improvement,
  listCriteria,
  orientedScore,
  registerCriterion,
} from './registry.js';
export type { RegisterOptions } from './registry.js';
