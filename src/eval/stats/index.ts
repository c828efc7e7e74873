export {
  chiSquareCdf,
  chiSquareSf,
  fCdf,
  fSf,
  studentizedRangeCdf,
  studentizedRangeQuantile,
} from '../../core/distributions.js';
export { incompleteBeta, incompleteGamma, lnGamma, normalCdf, normalPdf, normalSf } from '../../core/special.js';
export { type FriedmanResult, friedmanTest } from './friedman.js';
export { cliques, criticalDifference, NEMENYI_Q, type NemenyiAlpha, nemenyiPValue, nemenyiQ } from './nemenyi.js';
export { averageRanks, nearlyEqual, RANK_TIE_TOLERANCE, rankWithTies } from './ranks.js';
export { signedRankCdf, type WilcoxonResult, wilcoxonSignedRank } from './wilcoxon.js';
