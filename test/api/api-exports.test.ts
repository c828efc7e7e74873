/**
 * Every function the library exports, called with null, undefined and arguments of the wrong
 * type, either returns or throws a GroveError: never a TypeError from deep inside, those of
 * grove/extend (count tables, the 1-D SVM, pruning) included: no function is exempt.
 */
import { describe, expect, it } from 'vitest';
import * as ext from '../../src/extend.js';
import * as api from '../../src/index.js';

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

const functions = [...Object.entries(api), ...Object.entries(ext)].flatMap(([name, value]) => {
  if (typeof value !== 'function' || name === 'GroveError') return [];
  if (name === 'DecisionTree') {
    const tree = value as typeof api.DecisionTree;
    return [['DecisionTree.fromJSON', (...a: unknown[]) => tree.fromJSON(a[0], a[1] as string)] as const];
  }
  if (name === 'Forest') return [['new Forest', (...a: unknown[]) => new api.Forest(a[0] as never)] as const];
  // A class is called as a user calls it: with `new`.
  if (/^class\b/.test(Function.prototype.toString.call(value))) {
    const Made = value as new (...a: unknown[]) => unknown;
    return [[`new ${name}`, (...a: unknown[]) => new Made(...a)] as const];
  }
  return [[name, value as (...a: unknown[]) => unknown] as const];
});

describe('every exported function refuses bad arguments with a GroveError', () => {
  it('finds the exports', () => {
    expect(functions.length).toBeGreaterThan(30);
  });

  it.each(functions)('%s', (_, f) => {
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
