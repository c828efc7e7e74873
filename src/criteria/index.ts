export { gini, twoing } from './cart.js';
export { chandraVarghese } from './chandra-varghese.js';
export {
  childEntropy,
  createTable,
  distinctClasses,
  distinctClassesOfRow,
  entropyOfRow,
  giniOfRow,
  improvement,
  informationGain,
  nonEmptyBranches,
  orientedScore,
  parentEntropy,
  recomputeTotals,
  singleBranchTable,
  splitInfo,
  splitInfoWithUnknown,
  tableFromCounts,
} from './checked.js';
export { dcsm } from './dcsm.js';
export { averageGain, gainRatio, infoGain, normalizedGain } from './gain.js';
export type { RegisterOptions } from './registry.js';
export {
  BUILTIN_CRITERIA,
  getCriterion,
  listCriteria,
  registerCriterion,
} from './registry.js';
export { chiSquare, gStatistic } from './statistics.js';
export { ZERO_TOLERANCE } from './table.js';
export type { Better, CountTable, Criterion } from './types.js';
