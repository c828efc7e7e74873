export { lnGamma, incompleteGamma, incompleteBeta, normalCdf, normalSf, normalPdf } from '../../core/special.js';
export { chiSquareCdf, chiSquareSf, fCdf, fSf, studentizedRangeCdf, studentizedRangeQuantile } from '../../core/distributions.js';
export { averageRanks, rankWithTies, nearlyEqual, RANK_TIE_TOLERANCE } from './ranks.js';
export { friedmanTest, type FriedmanResult } from './friedman.js';
export { NEMENYI_Q, nemenyiQ, criticalDifference, nemenyiPValue, cliques, type NemenyiAlpha } from './nemenyi.js';
export { wilcoxonSignedRank, signedRankCdf, type WilcoxonResult } from './wilcoxon.js';
