/**
 * Junk arguments for the API fuzz: the values a careless caller passes (null, undefined, wrong
 * types, NaN, huge and negative numbers, prototype names, array-likes with bad lengths), then
 * anything fast-check makes up. Shared by the worker (plain Node) and the tests.
 */
import fc from 'fast-check';

const SPECIAL = [
  null,
  undefined,
  true,
  false,
  0,
  -1,
  1,
  2,
  1.5,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  1e308,
  -0,
  '',
  'abc',
  '0x10',
  '__proto__',
  'constructor',
  'toString',
  'gini',
  'cart',
  'a\nb\u0000\u001b[31m',
  [],
  [null],
  [[]],
  [1, 2],
  ['a'],
  [{}],
  {},
  { length: -1 },
  { length: 3 },
  { nRows: 2, features: null },
];

/** One junk value. Functions, symbols, bigints and fresh objects are built per draw. */
export const junkValue = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...SPECIAL) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('fn', 'symbol', 'bigint', 'nullproto', 'f64', 'i32').map((k) => {
      if (k === 'fn') return () => 1;
      if (k === 'symbol') return Symbol('junk');
      if (k === 'bigint') return 10n;
      if (k === 'nullproto') return Object.create(null);
      if (k === 'f64') return new Float64Array(3);
      return new Int32Array([0, 1, 5]);
    }),
  },
  { weight: 2, arbitrary: fc.anything({ maxDepth: 2, maxKeys: 4 }) },
);

/** An argument list of zero to four junk values. */
export const junkArgs = fc.array(junkValue, { maxLength: 4 });

/** A short description of a value for a failure message (no JSON of symbols or bigints). */
export function describe(value) {
  if (typeof value === 'symbol' || typeof value === 'bigint' || typeof value === 'function') return String(value);
  try {
    const text = JSON.stringify(value);
    return text === undefined ? String(value) : text.length > 60 ? `${text.slice(0, 57)}...` : text;
  } catch {
    return Object.prototype.toString.call(value);
  }
}
