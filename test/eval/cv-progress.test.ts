/**
 * Cross-validation progress: crossValidateRepeated tells a listener of each fold (done of k ×
 * repeats) and gives the folds it gives without one; `grove cv` draws them on a terminal (a fake
 * one with a moving clock) and nothing with --no-progress.
 */
import { describe, expect, it } from 'vitest';
import { crossValidateShown } from '../../src/cli/commands/cv.js';
import { crossValidateRepeated } from '../../src/eval/cross-validate.js';
import { readDataset } from '../../src/sources/file-source.js';
import { fakeTerminal, steppingClock } from '../helpers/fake-terminal.js';
import { fixture } from '../helpers/paths.js';

const data = await readDataset(fixture('tutorial-30.csv'));
const strip = (folds: { fitMs: number; predictMs: number }[]) => folds.map(({ fitMs: _f, predictMs: _p, ...r }) => r);

describe('cross-validation progress', () => {
  it('a call per fold, up to k × repeats; the same folds', () => {
    const heard: { done: number; total: number }[] = [];
    const folds = crossValidateRepeated(data, {}, { k: 3, repeats: 2, seed: 1, onProgress: (p) => heard.push(p) });
    expect(heard).toEqual([1, 2, 3, 4, 5, 6].map((done) => ({ done, total: 6 })));
    expect(strip(folds)).toEqual(strip(crossValidateRepeated(data, {}, { k: 3, repeats: 2, seed: 1 })));
  });

  it('refuses an onProgress that is not a function', () => {
    expect(() => crossValidateRepeated(data, {}, { k: 3, repeats: 1, seed: 1, onProgress: 1 as never })).toThrow(
      /onProgress must be a function/,
    );
  });

  it('grove cv on a terminal: folds done of the total and a rate; nothing with --no-progress', () => {
    const out = fakeTerminal();
    crossValidateShown(data, {}, { k: 5, repeats: 2, seed: 1 }, { stream: out, now: steppingClock(500) });
    expect(out.text).toMatch(/grove: cross-validating .* \d+% \| \d+ of 10 folds \| [\d.]+ folds\/s/);
    expect(out.text.slice(out.text.lastIndexOf('grove: '))).toMatch(/100% \| 10 of 10 folds/);
    const off = fakeTerminal();
    crossValidateShown(data, {}, { k: 5, repeats: 2, seed: 1 }, { stream: off, now: steppingClock(500), show: false });
    expect(off.text).toBe('');
  });
});
