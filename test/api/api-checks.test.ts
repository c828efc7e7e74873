/**
 * The low-level exports check their arguments (issue 18 item 8): a GroveError with code E_INPUT
 * naming the function and the argument, where a TypeError, a RangeError or a hang came out before.
 */
import { describe, expect, it } from 'vitest';
import * as ext from '../../src/extend.js';
import * as api from '../../src/index.js';

function refusal(f: () => unknown): api.GroveError {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(api.GroveError);
    return err as api.GroveError;
  }
  throw new Error('expected a GroveError');
}

describe('argument checks of the exports of grove and grove/extend', () => {
  it.each<[string, () => unknown, RegExp]>([
    [
      'createTable',
      () => ext.createTable(2, Number.NaN),
      /^createTable: classes must be an integer in 0…16777216, got NaN$/,
    ],
    [
      'wilcoxonSignedRank',
      () => api.wilcoxonSignedRank([1, 2], [1]),
      /^wilcoxonSignedRank: y must be 2 values, as many as x, got 1$/,
    ],
    ['friedmanTest', () => api.friedmanTest([[1, 2], [3]]), /^friedmanTest: matrix\[1\] must be a row of 2 values/],
    [
      'stratifiedFolds',
      () => api.stratifiedFolds(new Int32Array([0, 3]), 2, 2, 1),
      /^stratifiedFolds: labels\[1\] must be a class in 0…1, got 3$/,
    ],
    [
      'treeToText',
      () => api.treeToText(null as unknown as api.DecisionTree),
      /^treeToText: expected a DecisionTree .*got null$/,
    ],
    ['pessimisticError', () => ext.pessimisticError([]), /^pessimisticError: nodes must be a non-empty array/],
    [
      'pruneTree',
      () =>
        ext.pruneTree(
          [{ counts: [1], n: 1, depth: 0, children: [0], split: { kind: 'numeric', feature: 0, thresholds: [1] } }],
          { options: { prune: 'none' } },
        ),
      /^pruneTree: nodes\[0\]\.children\[0\] must be a node index/,
    ],
    ['solveSvm1d', () => ext.solveSvm1d([1, 2], [1, 0], [1, 1]), /^solveSvm1d: y\[1\] must be 1 or -1, got 0$/],
    ['validateModel', () => api.validateModel({}, Object.create(null)), /^validateModel: file must be a file name/],
  ])('%s', (_, f, message) => {
    const err = refusal(f);
    expect(err.message).toMatch(message);
    expect(err.code).toBe('E_INPUT');
  });

  it('a DecisionTree built from parts is checked as a model file is', () => {
    const data = api.datasetFromRows([
      { x: 1, y: 'a' },
      { x: 2, y: 'b' },
    ]);
    const file = api.fit(data, { prune: 'none' }).toJSON();
    expect(new api.DecisionTree(file).predict([{ x: 1 }])).toEqual(['a']);
    const broken = { ...file, nodes: [{ ...file.nodes[0], counts: [1] }, ...file.nodes.slice(1)] };
    expect(refusal(() => new api.DecisionTree(broken)).code).toBe('E_MODEL');
    expect(refusal(() => new api.DecisionTree(undefined as never)).message).toMatch(
      /^DecisionTree: model must be an object/,
    );
  });
});
