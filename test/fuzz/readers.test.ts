/**
 * Reader fuzz: generated and mutated CSV and ARFF texts. Property: the reader gives a consistent
 * Dataset (every column and the labels have nRows entries, codes inside their category lists) or
 * throws a GroveError; a Dataset it gives can be fitted and predicted (or is refused with a
 * GroveError), never anything else.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fit } from '../../src/algorithms/fit.js';
import { GroveError } from '../../src/core/errors.js';
import { parseArff } from '../../src/data/arff.js';
import type { Dataset } from '../../src/data/dataset.js';
import { createDelimitedReader, parseCsvText } from '../../src/data/delimited.js';
import { FUZZ_TIMEOUT, fuzzParams } from './config.js';
import { arffText, csvText, mutatedFixture, validCsvText } from './texts.js';

/** Throw (with the reason) unless `d` is internally consistent. */
function checkDataset(d: Dataset, noTarget: boolean): void {
  const n = d.nRows;
  expect(Number.isInteger(n) && n >= 0).toBe(true);
  expect(d.labels.length).toBe(n);
  for (const l of d.labels) expect(noTarget ? l === -1 : l >= 0 && l < d.classes.length).toBe(true);
  for (const f of d.features) {
    if (f.kind === 'numeric') expect(f.values.length).toBe(n);
    else {
      expect(f.codes.length).toBe(n);
      for (const c of f.codes) expect(c >= -1 && c < f.categories.length).toBe(true);
    }
  }
}

/** Read, check, fit and predict; only GroveError may escape (it is swallowed). */
function readsCleanly(read: () => Dataset, noTarget = false): void {
  let data: Dataset;
  try {
    data = read();
  } catch (err) {
    if (err instanceof GroveError) return;
    throw err;
  }
  checkDataset(data, noTarget);
  if (noTarget) return;
  try {
    const tree = fit(data, { algorithm: 'cart', threads: 1 });
    expect(tree.predict(data)).toHaveLength(data.nRows);
  } catch (err) {
    if (!(err instanceof GroveError)) throw err;
  }
}

const readOptions = fc.record(
  {
    target: fc.constantFrom('x', 'y', 'class', 'label', 'nope', '__proto__'),
    categorical: fc.array(fc.constantFrom('x', 'a', 'b', 'nope', '__proto__'), { maxLength: 2 }),
    numeric: fc.array(fc.constantFrom('x', 'a', 'c', 'nope'), { maxLength: 2 }),
    noTarget: fc.boolean(),
    float32: fc.boolean(),
  },
  { requiredKeys: [] },
);

describe('reader fuzz', () => {
  it(
    'generated CSV: a consistent Dataset or a GroveError',
    () => {
      fc.assert(
        fc.property(csvText, readOptions, (text, o) => readsCleanly(() => parseCsvText(text, o), o.noTarget === true)),
        fuzzParams(300),
      );
    },
    FUZZ_TIMEOUT,
  );

  it(
    'valid CSV always reads, fits and predicts',
    () => {
      fc.assert(
        fc.property(validCsvText, (text) => {
          const d = parseCsvText(text);
          checkDataset(d, false);
          expect(fit(d, { threads: 1 }).predict(d)).toHaveLength(d.nRows);
        }),
        fuzzParams(60),
      );
    },
    FUZZ_TIMEOUT,
  );

  for (const file of ['play-tennis.csv', 'taxable-income.csv', 'tutorial-30.csv', 'bad-ragged.csv']) {
    it(
      `mutated ${file}: a consistent Dataset or a GroveError`,
      () => {
        fc.assert(
          fc.property(mutatedFixture(file), readOptions, (text, o) =>
            readsCleanly(() => parseCsvText(text, o), o.noTarget === true),
          ),
          fuzzParams(100, 0.5),
        );
      },
      FUZZ_TIMEOUT,
    );
  }

  it(
    'valid CSV as UTF-16 without a byte order mark: refused with the --encoding hint, or read with it',
    () => {
      fc.assert(
        fc.property(validCsvText, fc.boolean(), (text, big) => {
          const bytes = new Uint8Array(text.length * 2);
          for (let k = 0; k < text.length; k++) {
            const c = text.charCodeAt(k);
            bytes[2 * k + (big ? 1 : 0)] = c & 0xff;
            bytes[2 * k + (big ? 0 : 1)] = c >> 8;
          }
          const plain = createDelimitedReader();
          expect(() => {
            plain.push(bytes);
            plain.finish();
          }).toThrow(big ? /UTF-16 \(big-endian\)/ : /--encoding utf16/);
          if (big) return;
          const reader = createDelimitedReader({ encoding: 'utf16' });
          reader.push(bytes);
          const d = reader.finish();
          checkDataset(d, false);
          expect(d.nRows).toBe(parseCsvText(text).nRows);
        }),
        fuzzParams(60),
      );
    },
    FUZZ_TIMEOUT,
  );

  it(
    'generated ARFF: a consistent Dataset or a GroveError',
    () => {
      fc.assert(
        fc.property(arffText, (text) => readsCleanly(() => parseArff(text))),
        fuzzParams(300),
      );
    },
    FUZZ_TIMEOUT,
  );

  it(
    'mutated weather.arff: a consistent Dataset or a GroveError',
    () => {
      fc.assert(
        fc.property(mutatedFixture('weather.arff'), (text) => readsCleanly(() => parseArff(text))),
        fuzzParams(200),
      );
    },
    FUZZ_TIMEOUT,
  );
});
