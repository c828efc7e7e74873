/**
 * Known failures of the fuzz suite on this branch, each keyed by the issue 18 item whose fix makes it
 * pass. Every entry is run as an `it.fails` test: when a fix lands the test turns red and names the
 * entry to delete. The lists hold what the fuzz found with the fixed seed when it was written.
 */

/**
 * API targets (exported functions, `DecisionTree` methods) from which something other than a
 * GroveError escapes on junk arguments: what escaped, for the first counterexample found.
 */
export const KNOWN_API: ReadonlyMap<string, string> = new Map([
  ['DecisionTree', "item 8: TypeError: Cannot read properties of undefined (reading 'target')"],
  ['addErrs', 'item 8: TypeError: Cannot mix BigInt and other types, use explicit conversions'],
  ['applyOrderedCategories', "item 8: TypeError: Cannot read properties of undefined (reading 'map')"],
  ['averageRanks', "item 8: TypeError: Cannot read properties of undefined (reading '0')"],
  ['balancedBoxConstraints', 'item 8: TypeError: Cannot convert a Symbol value to a number'],
  ['bestFeature', "item 8: TypeError: Cannot read properties of undefined (reading 'length')"],
  ['branchOfValue', "item 8: TypeError: Cannot read properties of undefined (reading 'length')"],
  ['chiSquareCdf', 'item 8: RangeError: chi-square needs df > 0, got undefined'],
  ['chiSquareSf', 'item 8: RangeError: chi-square needs df > 0, got undefined'],
  ['childEntropy', "item 8: TypeError: Cannot read properties of undefined (reading 'total')"],
  ['cliques', "item 8: TypeError: Cannot read properties of undefined (reading 'map')"],
  ['correlationScore', "item 8: TypeError: Cannot read properties of undefined (reading 'length')"],
  ['costComplexityPath', "item 8: TypeError: Cannot read properties of undefined (reading 'length')"],
  ['cramersV', "item 8: TypeError: Cannot read properties of undefined (reading 'length')"],
  ['createTable', 'item 8: TypeError: Cannot convert a Symbol value to a string'],
  ['criticalDifference', 'item 8: RangeError: Nemenyi needs an integer k ≥ 2, got undefined'],
  ['distinctClasses', "item 8: TypeError: Cannot read properties of undefined (reading 'total')"],
  ['distinctClassesOfRow', 'item 8: hangs: loops up to its `classes` argument (1e308, Infinity) unchecked'],
  ['entropyOfRow', 'item 8: TypeError: Cannot mix BigInt and other types, use explicit conversions'],
  ['fCdf', 'item 8: RangeError: incompleteBeta needs a, b > 0 and 0 ≤ x ≤ 1, got x=NaN, a=NaN, b=NaN'],
  ['fSf', 'item 8: RangeError: F needs d1, d2 > 0, got undefined, undefined'],
  ['featureScores', "item 8: TypeError: Cannot read properties of undefined (reading 'length')"],
  ['friedmanTest', "item 8: TypeError: Cannot read properties of undefined (reading 'length')"],
  ['getCriterion', 'item 8: TypeError: Cannot convert a Symbol value to a string'],
  ['giniOfRow', 'item 8: TypeError: Cannot convert a Symbol value to a number'],
  ['improvement', "item 8: TypeError: Cannot read properties of undefined (reading 'evaluate')"],
  [
    'incompleteBeta',
    'item 8: RangeError: incompleteBeta needs a, b > 0 and 0 ≤ x ≤ 1, got x=undefined, a=undefined, b=undefined',
  ],
  ['incompleteGamma', 'item 8: RangeError: incompleteGamma needs a > 0, x ≥ 0, got a=undefined, x=undefined'],
  ['informationGain', "item 8: TypeError: Cannot read properties of undefined (reading 'classTotals')"],
  ['isNumericToken', 'item 8: TypeError: Cannot convert a Symbol value to a string'],
  ['knnVote', "item 8: TypeError: Cannot read properties of undefined (reading 'rows')"],
  ['lnGamma', 'item 8: RangeError: lnGamma needs x > 0, got undefined'],
  ['nearlyEqual', 'item 8: TypeError: Cannot convert a Symbol value to a number'],
  ['nemenyiPValue', 'item 8: RangeError: studentized range needs an integer k ≥ 2, got undefined'],
  ['nemenyiQ', 'item 8: RangeError: Nemenyi needs an integer k ≥ 2, got undefined'],
  ['nodeThresholds', "item 8: TypeError: Cannot read properties of undefined (reading 'length')"],
  ['nonEmptyBranches', "item 8: TypeError: Cannot read properties of undefined (reading 'total')"],
  ['normalCdf', 'item 8: RangeError: incompleteGamma needs a > 0, x ≥ 0, got a=0.5, x=NaN'],
  ['normalPdf', 'item 8: TypeError: Cannot convert a Symbol value to a number'],
  ['normalSf', 'item 8: TypeError: Cannot convert a Symbol value to a number'],
  ['orientedScore', "item 8: TypeError: Cannot read properties of undefined (reading 'better')"],
  ['parentEntropy', "item 8: TypeError: Cannot read properties of undefined (reading 'classTotals')"],
  ['parseArffDocument', "item 8: TypeError: Cannot read properties of undefined (reading 'replace')"],
  ['pessimisticError', 'item 8: TypeError: nodes is not iterable'],
  ['pruneCostComplexity', "item 8: TypeError: Cannot read properties of undefined (reading 'length')"],
  ['pruneTree', "item 8: TypeError: Cannot read properties of undefined (reading 'options')"],
  ['rankWithTies', "item 8: TypeError: Cannot read properties of undefined (reading 'map')"],
  ['recomputeTotals', "item 8: TypeError: Cannot destructure property 'branches' of 't' as it is undefined."],
  ['rulesToText', "item 8: TypeError: Cannot read properties of undefined (reading 'nodes')"],
  ['signedRankCdf', 'item 8: RangeError: Invalid typed array length: Infinity'],
  ['singleBranchTable', "item 8: TypeError: Cannot read properties of undefined (reading 'length')"],
  ['solveSvm1d', "item 8: TypeError: Cannot read properties of undefined (reading 'length')"],
  ['splitInfo', "item 8: TypeError: Cannot read properties of undefined (reading 'total')"],
  ['splitInfoWithUnknown', "item 8: TypeError: Cannot read properties of undefined (reading 'total')"],
  ['stratifiedFolds', "item 8: TypeError: Cannot read properties of undefined (reading 'forEach')"],
  ['studentizedRangeCdf', 'item 8: RangeError: studentized range needs an integer k ≥ 2, got undefined'],
  ['studentizedRangeQuantile', 'item 8: RangeError: quantile needs 0 < p < 1, got undefined'],
  ['tableFromCounts', "item 8: TypeError: Cannot read properties of undefined (reading 'length')"],
  ['treeToDot', "item 8: TypeError: Cannot read properties of undefined (reading 'nodes')"],
  ['treeToRules', "item 8: TypeError: Cannot read properties of undefined (reading 'nodes')"],
  ['treeToText', "item 8: TypeError: Cannot read properties of undefined (reading 'nodes')"],
  ['validateModel', 'item 8: TypeError: Cannot convert object to primitive value'],
  ['wilcoxonSignedRank', "item 8: TypeError: Cannot read properties of undefined (reading 'length')"],
  ['DecisionTree.fromJSON', 'item 8: TypeError: Cannot convert object to primitive value'],
]);

/** A known CLI failure: which generated command lines run into it, and one that does. */
export interface KnownCli {
  matches(argv: string[]): boolean;
  example: string[];
}

/** Known CLI failures by issue item (cases matching them are left out of the fuzz property). */
export const KNOWN_CLI: ReadonlyMap<string, KnownCli> = new Map<string, KnownCli>([]);
