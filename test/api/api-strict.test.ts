/**
 * The public API is strict (issue 18, items 6-10): user strings never index Object.prototype,
 * rows to predict are checked (unknown keys, lengths, types), every entry point refuses a
 * malformed argument with a GroveError carrying a stable `code`, weights that leave nothing to
 * learn from are refused and huge weights stay finite, and every message is one printable line.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fit } from '../../src/algorithms/fit.js';
import { escapeControl, GroveError } from '../../src/core/errors.js';
import type { Dataset } from '../../src/data/dataset.js';
import { datasetFromRows, encodeTable } from '../../src/data/encode.js';
import { crossValidate } from '../../src/eval/cross-validate.js';
import { scoreAttributes } from '../../src/learn/score.js';
import { DecisionTree } from '../../src/model/decision-tree.js';
import { parseClassWeight } from '../../src/options/options.js';
import { readDataset } from '../../src/sources/file-source.js';

/** The error `f` throws (failing the test when it throws nothing). */
function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (err) {
    return err;
  }
  throw new Error('expected an error, none was thrown');
}

/** `f` throws a GroveError (not a TypeError or anything else) whose message matches `pattern`. */
function expectGrove(f: () => unknown, pattern?: RegExp, code?: string): GroveError {
  const err = thrown(f);
  expect(err, String((err as Error)?.stack ?? err)).toBeInstanceOf(GroveError);
  const g = err as GroveError;
  if (pattern) expect(g.message).toMatch(pattern);
  if (code) expect(g.code).toBe(code);
  expect(escapeControl(g.message)).toBe(g.message); // nothing left to escape: one printable line
  return g;
}

/** {@link expectGrove} for a promise: the GroveError it rejects with. */
async function expectGroveRejection(promise: Promise<unknown>, pattern?: RegExp, code?: string): Promise<GroveError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e ?? new Error('rejected without a reason'),
  );
  return expectGrove(
    () => {
      if (err !== undefined) throw err;
    },
    pattern,
    code,
  );
}

const tennisRows = [
  ['Sunny', 'Hot', 'High', 'Weak', 'No'],
  ['Sunny', 'Hot', 'High', 'Strong', 'No'],
  ['Overcast', 'Hot', 'High', 'Weak', 'Yes'],
  ['Rain', 'Mild', 'High', 'Weak', 'Yes'],
  ['Rain', 'Cool', 'Normal', 'Weak', 'Yes'],
  ['Rain', 'Cool', 'Normal', 'Strong', 'No'],
  ['Overcast', 'Cool', 'Normal', 'Strong', 'Yes'],
  ['Sunny', 'Mild', 'High', 'Weak', 'No'],
  ['Sunny', 'Cool', 'Normal', 'Weak', 'Yes'],
  ['Rain', 'Mild', 'Normal', 'Weak', 'Yes'],
  ['Sunny', 'Mild', 'Normal', 'Strong', 'Yes'],
  ['Overcast', 'Mild', 'High', 'Strong', 'Yes'],
  ['Overcast', 'Hot', 'Normal', 'Weak', 'Yes'],
  ['Rain', 'Mild', 'High', 'Strong', 'No'],
];
const tennis = datasetFromRows(tennisRows, { columns: ['Outlook', 'Temperature', 'Humidity', 'Wind', 'Play'] });
const numeric = datasetFromRows(
  Array.from({ length: 40 }, (_, i) => ({ x: i, y: (i * 7) % 5, c: i < 20 ? 'lo' : 'hi' })),
  { target: 'c' },
);

const PROTO_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];

describe('user strings never index Object.prototype (item 6)', () => {
  it.each(PROTO_NAMES)('refuses %s as algorithm, criterion and prune method', (name) => {
    expectGrove(() => fit(tennis, { algorithm: name as 'cart' }), /unknown algorithm/, 'E_OPTION');
    expectGrove(() => fit(tennis, { criterion: name }), /criterion/, 'E_OPTION');
    expectGrove(() => fit(tennis, { prune: name as 'none' }), /prune/, 'E_OPTION');
  });

  it('takes class labels named like Object.prototype members as ordinary classes', () => {
    const rows = Array.from({ length: 40 }, (_, i) => ({ x: i, c: PROTO_NAMES[i % 4] }));
    const data = datasetFromRows(rows, { target: 'c' });
    expect(data.classes).toEqual([...PROTO_NAMES].sort());
    // A class absent from classWeight gets weight 1, not Object.prototype's member.
    const weighted = fit(data, { classWeight: JSON.parse('{"__proto__": 3}'), prune: 'none' });
    const byHand = fit(data, {
      sampleWeight: rows.map((r) => (r.c === '__proto__' ? 3 : 1)),
      prune: 'none',
    });
    expect(weighted.nodes).toEqual(byHand.nodes);
    expect(weighted.nodes[0].counts.every(Number.isFinite)).toBe(true);
    expectGrove(() => fit(data, { classWeight: { valueOf: 2 } }), /classWeight names 'valueOf'/, 'E_OPTION');
  });

  it('parses --class-weight __proto__=2 into an own property', () => {
    const w = parseClassWeight('__proto__=2,constructor=0.5', '--class-weight') as Record<string, number>;
    expect(Object.keys(w)).toEqual(['__proto__', 'constructor']);
    expect(Object.getPrototypeOf(w)).toBe(Object.prototype);
  });

  it('takes feature names and category values named like Object.prototype members', () => {
    // fromEntries makes own properties, `__proto__` included.
    const rows = Array.from({ length: 24 }, (_, i) =>
      Object.fromEntries([
        ['__proto__', PROTO_NAMES[i % 4]],
        ['constructor', i % 3 === 0 ? 'toString' : 'valueOf'],
        ['toString', ['S', 'M', 'L'][i % 3]],
        ['klass', i % 4 < 2 ? 'a' : 'b'],
      ]),
    );
    const data = datasetFromRows(rows, { target: 'klass' });
    expect(data.features.map((c) => c.name)).toEqual(['__proto__', 'constructor', 'toString']);
    // `toString` is ordered; `constructor` (not in the spec) must stay an ordinary categorical feature.
    const tree = fit(data, { orderedCategories: { toString: ['S', 'M', 'L'] }, prune: 'none' });
    expect(tree.features.map((f) => f.kind)).toEqual(['categorical', 'categorical', 'numeric']);
    expect(tree.predict(rows)).toEqual(rows.map((r) => r.klass));
    const importances = tree.stats().importances;
    expect(Object.keys(importances).sort()).toEqual(['__proto__', 'constructor', 'toString']);
    expect(Object.getPrototypeOf(importances)).toBe(Object.prototype);
  });
});

describe('rows to predict are checked (item 7)', () => {
  const tree = fit(tennis, { algorithm: 'id3' });
  const good = { Outlook: 'Sunny', Temperature: 'Hot', Humidity: 'High', Wind: 'Weak' };

  it('refuses an unknown (misspelled) key, naming it and the row', () => {
    const { Outlook, ...rest } = good;
    expectGrove(() => tree.predict([good, { ...rest, Outlok: Outlook }]), /rows\[1\]: unknown key 'Outlok'/);
  });

  it('refuses an absent key unless allowMissingKeys, which reads it as missing', () => {
    const { Outlook: _, ...rest } = good;
    expectGrove(() => tree.predict([rest]), /rows\[0\]: no value for feature 'Outlook'.*allowMissingKeys/);
    expect(tree.predict([rest], { allowMissingKeys: true })).toEqual(tree.predict([{ ...rest, Outlook: null }]));
  });

  it("accepts the model's target as a key, and ignores it", () => {
    expect(tree.predict([{ ...good, Play: 'whatever' }])).toEqual(tree.predict([good]));
  });

  it('refuses array rows of the wrong length', () => {
    expectGrove(() => tree.predict([['Sunny', 'Hot', 'High', 'Weak', 'extra']]), /rows\[0\]: expected 4 values/);
    expectGrove(() => tree.predict([['Sunny', 'Hot']]), /rows\[0\]: expected 4 values/);
  });

  it('refuses input that is not rows', () => {
    for (const bad of [5, 'abc', true, null, undefined, () => 1]) {
      expectGrove(() => tree.predict(bad as never), /predict: expected rows/, 'E_INPUT');
      expectGrove(() => tree.predictProba(bad as never), /predict: expected rows/, 'E_INPUT');
    }
    expectGrove(() => tree.predict([5] as never), /rows\[0\]: expected an object or an array, got a number/);
    expect(tree.predict([])).toEqual([]);
  });

  it('reads numeric cells as the readers do: decimals and exponents, not hex, binary, octal or Infinity', () => {
    const t = fit(numeric, { prune: 'none' });
    expect(t.predict([{ x: '1e1', y: '2' }])).toEqual(t.predict([{ x: 10, y: 2 }]));
    expect(t.predict([{ x: ' 39 ', y: '?' }])).toEqual(t.predict([{ x: 39, y: null }]));
    for (const text of ['0x10', '0b1', '0o7', 'Infinity', '1_000', '12abc', 'NaN']) {
      expectGrove(() => t.predict([{ x: text, y: 1 }]), /rows\[0\], feature 'x': expected a decimal number/, 'E_DATA');
    }
    expectGrove(() => t.predict([{ x: Infinity, y: 1 }]), /expected a finite number/);
    expectGrove(() => t.predict([{ x: true, y: 1 }]), /expected a number, found a boolean/);
    expectGrove(() => t.predict([{ x: {}, y: 1 }]), /expected a number, found an object/);
    expectGrove(() => tree.predict([{ ...good, Wind: ['Weak'] }]), /feature 'Wind': expected a string/);
  });

  it('refuses unknown or malformed predict options', () => {
    expectGrove(() => tree.predict([good], { allowMissingKey: true } as never), /unknown option/, 'E_OPTION');
    expectGrove(() => tree.predict([good], { knnK: 0 }), /knnK/, 'E_OPTION');
    expectGrove(() => tree.predict([good], null as never), /predict options/, 'E_OPTION');
  });
});

describe('every entry point refuses a malformed argument with a GroveError (item 8)', () => {
  it('datasetFromRows', () => {
    for (const bad of [null, undefined, {}, 5, 'rows']) expectGrove(() => datasetFromRows(bad as never), /rows/);
    expectGrove(() => datasetFromRows([null] as never), /row/);
    expectGrove(() => datasetFromRows([[1, 'a']], null as never), /options/, 'E_OPTION');
    expectGrove(() => datasetFromRows([[1, 'a']], { columns: 'x' } as never), /columns/, 'E_OPTION');
    expectGrove(() => encodeTable(['a', 'b'], [[1, 'x']] as never), /cell must be a string/);
    expectGrove(() => encodeTable(null as never, []), /header/);
  });

  it('fit, scoreAttributes, crossValidate, fromJSON', () => {
    for (const bad of [null, undefined, 5, [], {}]) {
      expectGrove(() => fit(bad as never), /fit/);
      expectGrove(() => scoreAttributes(bad as never), /scoreAttributes/);
      expectGrove(() => crossValidate(bad as never, {}, 5, 1), /crossValidate/);
    }
    expectGrove(() => fit(tennis, null as never), /options must be an object/, 'E_OPTION');
    expectGrove(() => fit(tennis, 'cart' as never), /options must be an object/, 'E_OPTION');
    expectGrove(() => crossValidate(tennis, {}, 1, 1), /k must be an integer/, 'E_OPTION');
    expectGrove(() => DecisionTree.fromJSON(null), /not a grove model/, 'E_MODEL');
  });

  const broken = (change: (d: Record<string, unknown>) => void): Dataset => {
    const copy: Record<string, unknown> = { ...tennis, features: tennis.features.map((c) => ({ ...c })) };
    change(copy);
    return copy as unknown as Dataset;
  };

  it.each([
    ['a label out of range', (d: Record<string, unknown>) => (d.labels = Int32Array.from(tennis.labels, () => 7))],
    ['a negative label', (d: Record<string, unknown>) => (d.labels = new Int32Array(tennis.nRows).fill(-1))],
    ['labels of another length', (d: Record<string, unknown>) => (d.labels = tennis.labels.subarray(1))],
    ['labels as a plain array', (d: Record<string, unknown>) => (d.labels = Array.from(tennis.labels))],
    [
      'a column of another length',
      (d: Record<string, unknown>) => {
        const f = d.features as Array<Record<string, unknown>>;
        f[0].codes = (f[0].codes as Int32Array).subarray(2);
      },
    ],
    [
      'a category code out of range',
      (d: Record<string, unknown>) => {
        const f = d.features as Array<Record<string, unknown>>;
        f[1].codes = new Int32Array(tennis.nRows).fill(9);
      },
    ],
    [
      'a numeric column that is not a typed array',
      (d: Record<string, unknown>) => {
        const f = d.features as Array<Record<string, unknown>>;
        f[0] = { kind: 'numeric', name: 'Outlook', values: Array(tennis.nRows).fill(1) };
      },
    ],
    ['nRows that disagrees', (d: Record<string, unknown>) => (d.nRows = 99)],
  ])('fit refuses a Dataset with %s', (_, change) => {
    const data = broken(change);
    expectGrove(() => fit(data), /inconsistent Dataset/, 'E_DATA');
    expectGrove(() => scoreAttributes(data), /inconsistent Dataset/, 'E_DATA');
  });
});

describe('weights (item 9, the validation half)', () => {
  it('refuses weights that are zero on every row', () => {
    const zeros = new Array(tennis.nRows).fill(0);
    expectGrove(() => fit(tennis, { sampleWeight: zeros }), /every row has weight 0/, 'E_DATA');
    expectGrove(() => fit(tennis, { classWeight: { Yes: 0, No: 0 } }), /every row has weight 0/, 'E_DATA');
    const onlyNo = tennisRows.map((r) => (r[4] === 'No' ? 1 : 0));
    expectGrove(() => fit(tennis, { sampleWeight: onlyNo, classWeight: { No: 0 } }), /every row has weight 0/);
    expectGrove(() => scoreAttributes(tennis, { sampleWeight: zeros }), /every row has weight 0/);
  });

  it('keeps probabilities finite for weights near the largest double', () => {
    for (const w of [1e308, Number.MAX_VALUE, 1e-310]) {
      const weights = new Array(numeric.nRows).fill(w);
      const big = fit(numeric, { sampleWeight: weights, prune: 'none' });
      const plain = fit(numeric, { prune: 'none' });
      expect(big.predict(numeric)).toEqual(plain.predict(numeric));
      for (const p of big.predictProba(numeric)) {
        expect(p.every(Number.isFinite)).toBe(true);
        expect(p.reduce((a, b) => a + b)).toBeCloseTo(1, 12);
      }
      for (const node of big.nodes) expect(node.counts.every(Number.isFinite)).toBe(true);
    }
  });
});

describe('error messages are one printable line (item 10)', () => {
  it('escapes control characters, C1 controls and line separators', () => {
    expect(escapeControl('a\nb\r\tc\0d\x1b[31me\x7ff\x85g\u2028h\u2029')).toBe(
      'a\\nb\\r\\tc\\0d\\x1b[31me\\x7ff\\x85g\\u2028h\\u2029',
    );
    const err = new GroveError('bad\nvalue', { file: 'x\ny.csv', column: 'c\x1b[31m' });
    expect(err.message).toBe("x\\ny.csv, column 'c\\x1b[31m': bad\\nvalue");
    expect(err.file).toBe('x\ny.csv'); // the structured fields keep the raw text
  });

  it('escapes column names and values from the data', () => {
    const header = ['a\x1b[31m', 'a\x1b[31m', 'class'];
    expectGrove(() => encodeTable(header, [['1', '2', 'x']]), /duplicate column name 'a\\x1b\[31m'/);
    expectGrove(
      () => encodeTable(['n\nm', 'class'], [['x\0y', 'a']], { numeric: ['n\nm'] }),
      /column 'n\\nm': expected a number, found 'x\\0y'/,
    );
    const t = fit(numeric, { prune: 'none' });
    expectGrove(() => t.predict([{ x: '1\u2028x', y: 1 }]), /found '1\\u2028x'/);
    expectGrove(() => t.predict([{ x: 1, y: 1, 'z\r\n': 1 }]), /unknown key 'z\\r\\n'/);
  });
});

describe('error codes', () => {
  it('tell a missing file (E_IO) from bad contents (E_DATA) and a bad option (E_OPTION)', async () => {
    const fixtures = fileURLToPath(new URL('../fixtures/', import.meta.url));
    await expectGroveRejection(readDataset(`${fixtures}no-such-file.csv`), /cannot read file/, 'E_IO');
    await expectGroveRejection(readDataset(`${fixtures}bad-ragged.csv`), /expected \d+ fields/, 'E_DATA');
    await expectGroveRejection(
      readDataset(`${fixtures}play-tennis.csv`, { target: 'nope' }),
      /unknown target/,
      'E_OPTION',
    );
    expectGrove(() => fit(tennis, { maxDepth: -1 }), /maxDepth/, 'E_OPTION');
  });
});
