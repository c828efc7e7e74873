/**
 * Every function the library exports, called with null, undefined and arguments of the wrong
 * type, either returns or throws a GroveError: never a TypeError from deep inside (issue 18,
 * item 8). `NOT_YET` lists the low-level helpers that do not check their arguments yet (numeric
 * special functions, statistics, criterion internals, exporters and pruners owned elsewhere); the
 * test fails when a function outside that list lets another error out.
 */
import { describe, expect, it } from 'vitest';
import * as api from '../../src/index.js';

const NOT_YET = new Set([
  // special functions and statistics (src/core/special.ts, src/eval/stats/): RangeError/TypeError
  'averageRanks',
  'chiSquareCdf',
  'chiSquareSf',
  'cliques',
  'criticalDifference',
  'fCdf',
  'fSf',
  'friedmanTest',
  'incompleteBeta',
  'incompleteGamma',
  'lnGamma',
  'nemenyiPValue',
  'nemenyiQ',
  'normalCdf',
  'rankWithTies',
  'studentizedRangeCdf',
  'studentizedRangeQuantile',
  'wilcoxonSignedRank',
  'stratifiedFolds',
  // criterion building blocks over count tables (src/criteria/)
  'childEntropy',
  'distinctClasses',
  'improvement',
  'informationGain',
  'nonEmptyBranches',
  'orientedScore',
  'parentEntropy',
  'recomputeTotals',
  'singleBranchTable',
  'splitInfo',
  'splitInfoWithUnknown',
  'tableFromCounts',
  // C-MBSV pieces below cmbsvSplit (src/algorithms/cmbsv/, src/model/knn.ts)
  'bestFeature',
  'branchOfValue',
  'correlationScore',
  'cramersV',
  'featureScores',
  'knnVote',
  'nodeThresholds',
  'solveSvm1d',
  // exporters and pruners taking a DecisionTree or nodes (src/export/, src/prune/)
  'costComplexityPath',
  'pessimisticError',
  'pruneCostComplexity',
  'pruneTree',
  'rulesToText',
  'treeToDot',
  'treeToRules',
  'treeToText',
]);

const BAD_ARGUMENTS: unknown[][] = [
  [],
  [null],
  [undefined],
  [5],
  ['x'],
  [{}],
  [[]],
  [null, null],
  [{}, {}],
  [[], []],
  [5, 5, 5, 5],
  [{}, null, 0, 0],
  [[null], 'x', -1, Number.NaN],
];

const functions = Object.entries(api as Record<string, unknown>).flatMap(([name, value]) => {
  if (typeof value !== 'function' || name === 'GroveError') return [];
  if (name === 'DecisionTree') {
    const tree = value as typeof api.DecisionTree;
    return [['DecisionTree.fromJSON', (...a: unknown[]) => tree.fromJSON(a[0], a[1] as string)] as const];
  }
  return [[name, value as (...a: unknown[]) => unknown] as const];
});

describe('every exported function refuses bad arguments with a GroveError', () => {
  it('finds the exports', () => {
    expect(functions.length).toBeGreaterThan(40);
    for (const name of NOT_YET) expect(functions.map(([n]) => n)).toContain(name);
  });

  it.each(functions.filter(([name]) => !NOT_YET.has(name)))('%s', (_, f) => {
    for (const args of BAD_ARGUMENTS) {
      try {
        f(...args);
      } catch (err) {
        expect(err, `${JSON.stringify(args)}: ${String((err as Error)?.stack ?? err)}`).toBeInstanceOf(api.GroveError);
        expect(['E_INPUT', 'E_OPTION', 'E_DATA', 'E_MODEL', 'E_IO']).toContain((err as api.GroveError).code);
      }
    }
  });
});
