/**
 * Progress of the explanations: shapValues and permutationImportance tell a listener how far they
 * are, in blocks, with counts that never go back and end at the total, and give the same result as
 * without one; `grove explain` draws it on a terminal (a fake one with a moving clock).
 */
import { describe, expect, it } from 'vitest';
import { fit } from '../../src/algorithms/fit.js';
import { explainShown } from '../../src/cli/commands/explain.js';
import { fitForest } from '../../src/ensemble/fit-forest.js';
import { permutationImportance } from '../../src/explain/permutation.js';
import { shapValues } from '../../src/explain/shap.js';
import { fakeTerminal, steppingClock } from '../helpers/fake-terminal.js';
import { synthetic } from './synthetic.js';

const data = synthetic(1234, 2, 0.05);
const tree = fit(data, { algorithm: 'cart' });

describe('explanation progress', () => {
  it('shapValues: a call per hundredth of the rows, up to all of them, the same values', () => {
    const heard: { rows: number; total: number }[] = [];
    const shap = shapValues(tree, data, { onProgress: (p) => heard.push(p) });
    expect(heard.length).toBe(Math.ceil(1234 / Math.ceil(1234 / 100)));
    expect(heard.every((p, i) => p.total === 1234 && (i === 0 || p.rows > heard[i - 1].rows))).toBe(true);
    expect(heard.at(-1)!.rows).toBe(1234);
    expect(Array.from(shap.values)).toEqual(Array.from(shapValues(tree, data).values));
  });

  it('shapValues refuses an onProgress that is not a function, and unknown options', () => {
    expect(() => shapValues(tree, data, { onProgress: 3 as never })).toThrow(/onProgress must be a function/);
    expect(() => shapValues(tree, data, { other: 1 } as never)).toThrow(/known: allowMissingKeys, onProgress/);
  });

  it('permutationImportance: a call per shuffle, up to features × repeats', () => {
    const heard: number[] = [];
    const pi = permutationImportance(tree, data, { repeats: 2, seed: 4, onProgress: (p) => heard.push(p.done) });
    expect(heard).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    expect(Array.from(pi.importances)).toEqual(
      Array.from(permutationImportance(tree, data, { repeats: 2, seed: 4 }).importances),
    );
  });

  it('grove explain on a terminal: rows explained of the total and a rate, then cleared', () => {
    const forest = fitForest(data, { trees: 3, seed: 1, maxDepth: 5 });
    const out = fakeTerminal();
    const shap = explainShown(forest, data, { stream: out, now: steppingClock(500) });
    expect(out.text).toMatch(/grove: explaining .* \d+% \| \d+ of 1234 rows \| [\d.]+ rows\/s/);
    expect(out.text.slice(out.text.lastIndexOf('grove: '))).toMatch(/100% \| 1234 of 1234 rows/);
    expect(shap.nRows).toBe(1234);
    const quiet = fakeTerminal();
    explainShown(forest, data, { stream: quiet, now: steppingClock(500), show: false });
    expect(quiet.text).toBe('');
  });
});
