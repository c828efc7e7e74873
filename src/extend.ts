/**
 * grove/extend: the building blocks for writing a split measure or a pruner, and C-MBSV's 1-D
 * SVM, for those who extend grove or study its parts. Browser-safe. What fits, predicts and
 * exports is in `grove`.
 */

export { solveSvm1d } from './algorithms/cmbsv/checked.js';
export type { Svm1dOptions, Svm1dResult } from './algorithms/cmbsv/svm1d.js';
export { gini, twoing } from './criteria/cart.js';
export { chandraVarghese } from './criteria/chandra-varghese.js';
export { createTable, tableFromCounts } from './criteria/checked.js';
export { dcsm } from './criteria/dcsm.js';
export { averageGain, gainRatio, infoGain, normalizedGain } from './criteria/gain.js';
export { hellinger } from './criteria/hellinger.js';
export { chiSquare, gStatistic } from './criteria/statistics.js';
export { ZERO_TOLERANCE } from './criteria/table.js';
export {
  addErrs,
  costComplexityPath,
  pessimisticError,
  pruneCostComplexity,
  pruneTree,
} from './prune/checked.js';
