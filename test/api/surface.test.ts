/**
 * The public surface by design: `grove` exports what a user calls, `grove/extend` the building
 * blocks for writing a measure or a pruner, `grove/node` adds files and databases. Internals stay
 * out of all three (the names below were public once and are not part of the API).
 */
import { describe, expect, it } from 'vitest';
import * as extend from '../../src/extend.js';
import * as grove from '../../src/index.js';
import * as node from '../../src/node.js';

const INTERNALS = [
  'lnGamma',
  'incompleteGamma',
  'chiSquareSf',
  'studentizedRangeQuantile',
  'nemenyiQ',
  'signedRankCdf',
  'recomputeTotals',
  'giniOfRow',
  'entropyOfRow',
  'childEntropy',
  'bestFeature',
  'nodeThresholds',
  'knnVote',
  'applyOrderedCategories',
  'isNumericToken',
  'parseEncodingName',
  'MIN_PARALLEL_WORK',
  'writeFileAtomic',
  'openRows',
  'DATABASE_SOURCE_KIND',
  'readDuckDBRelation',
  'isKindSpec',
];

describe('the public surface', () => {
  it('keeps internals out of every entry point', () => {
    for (const entry of [grove, extend, node]) {
      const names = new Set(Object.keys(entry));
      expect(INTERNALS.filter((n) => names.has(n))).toEqual([]);
    }
  });

  it('grove/extend holds the building blocks and nothing else', () => {
    expect(Object.keys(extend).sort()).toEqual(
      [
        'addErrs',
        'averageGain',
        'chandraVarghese',
        'chiSquare',
        'costComplexityPath',
        'createTable',
        'dcsm',
        'gStatistic',
        'gainRatio',
        'hellinger',
        'gini',
        'infoGain',
        'normalizedGain',
        'pessimisticError',
        'pruneCostComplexity',
        'pruneTree',
        'solveSvm1d',
        'tableFromCounts',
        'twoing',
        'ZERO_TOLERANCE',
      ].sort(),
    );
  });

  it('grove/node is grove plus readers and model files', () => {
    for (const name of Object.keys(grove)) expect(node).toHaveProperty(name);
    for (const name of ['readDataset', 'readSource', 'readParquet', 'loadModel', 'saveModel', 'DATA_FORMATS'])
      expect(node).toHaveProperty(name);
  });

  it('the README fit example resolves: fit, datasetFromRows, DecisionTree, treeToText', () => {
    for (const name of ['fit', 'datasetFromRows', 'DecisionTree', 'treeToText', 'registerCriterion', 'registerPruner'])
      expect(typeof (grove as Record<string, unknown>)[name]).toBe('function');
  });
});
