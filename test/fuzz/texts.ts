/** Generated and mutated data-file texts for the reader and CLI fuzz. */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { fixture } from '../helpers/paths.js';

/** Cell texts a data file may hold: numbers in many spellings, words, missing markers, quoting and control characters. */
const cell = fc.oneof(
  fc.constantFrom(
    '',
    '?',
    'NA',
    '0',
    '1',
    '-1',
    '1.5',
    '1e3',
    '1e999',
    '0x10',
    'NaN',
    'Infinity',
    ' 2 ',
    'a',
    'b',
    'c',
  ),
  fc.constantFrom('"q"', '"a,b"', '"x""y"', '"unterminated', '__proto__', 'constructor', '\u0000', '\u001b[31m', 'é'),
  fc.double({ noNaN: false }).map(String),
  fc.string({ maxLength: 6 }),
);

/** A header name: ordinary, duplicated, empty, quoted or hostile. */
const name = fc.oneof(
  fc.constantFrom('x', 'y', 'class', 'a b', '', '__proto__', 'constructor', 'toString', '"q"', 'x'),
  fc.string({ minLength: 1, maxLength: 5 }),
);

const eol = fc.constantFrom('\n', '\r\n', '\r');

/** A generated CSV: a header of 1-5 names and 0-12 rows of mostly that many cells. */
export const csvText = fc
  .record({
    header: fc.array(name, { minLength: 1, maxLength: 5 }),
    rows: fc.array(fc.array(cell, { minLength: 0, maxLength: 6 }), { maxLength: 12 }),
    eol,
    bom: fc.boolean(),
    finalEol: fc.boolean(),
  })
  .map(({ header, rows, eol: e, bom, finalEol }) => {
    const lines = [header.join(','), ...rows.map((r) => r.join(','))];
    return `${bom ? '\uFEFF' : ''}${lines.join(e)}${finalEol ? e : ''}`;
  });

/** A small table every reader accepts: two numeric features, one categorical, a class. */
export const validCsvText = fc
  .array(
    fc.tuple(
      fc.integer({ min: -5, max: 5 }),
      fc.double({ min: -10, max: 10, noNaN: true }),
      fc.constantFrom('r', 's', 't'),
      fc.constantFrom('yes', 'no'),
    ),
    {
      minLength: 1,
      maxLength: 20,
    },
  )
  .map((rows) => `a,b,c,label\n${rows.map((r) => r.join(',')).join('\n')}\n`);

type Mutation = { at: number; cut: number; insert: string };

const mutation = fc.record({
  at: fc.nat(),
  cut: fc.nat({ max: 8 }),
  insert: fc.oneof(
    fc.constantFrom('', ',', '"', '\n', '\r', '?', '@data', '{', '}', '%', '\u0000', '1e999'),
    fc.string({ maxLength: 4 }),
  ),
});

/** `text` with a few cuts and insertions at random places (positions taken modulo its length). */
export function mutate(text: string, mutations: Mutation[]): string {
  let t = text;
  for (const m of mutations) {
    const at = t.length ? m.at % (t.length + 1) : 0;
    t = t.slice(0, at) + m.insert + t.slice(at + m.cut);
  }
  return t;
}

/** A fixture file's text with one to four mutations. */
export function mutatedFixture(file: string): fc.Arbitrary<string> {
  const text = readFileSync(fixture(file), 'utf8');
  return fc.array(mutation, { minLength: 1, maxLength: 4 }).map((ms) => mutate(text, ms));
}

/** A generated ARFF document: declared attributes (numeric, nominal, string, junk types) and data rows. */
export const arffText = fc
  .record({
    attrs: fc.array(
      fc.tuple(
        name,
        fc.constantFrom('numeric', 'real', 'integer', 'string', '{a,b}', '{a, b, c}', '{}', 'date', 'junk', '{a,a}'),
      ),
      { minLength: 1, maxLength: 4 },
    ),
    rows: fc.array(fc.array(cell, { maxLength: 5 }), { maxLength: 8 }),
    relation: fc.constantFrom('@relation r', '@RELATION "x y"', '', '@relation'),
    sparse: fc.boolean(),
  })
  .map(({ attrs, rows, relation, sparse }) =>
    [
      relation,
      ...attrs.map(([n, t]) => `@attribute ${n.includes(' ') ? `'${n}'` : n} ${t}`),
      '@data',
      ...rows.map((r) => (sparse ? `{${r.map((c, i) => `${i} ${c}`).join(',')}}` : r.join(','))),
    ].join('\n'),
  );
