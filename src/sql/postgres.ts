import type { Dialect } from './dialect.js';
import { caseCodeOf, caseElement, groupingSets, joinInts, quoteDoubled, shortestDecimal } from './standard.js';

/**
 * A string literal read the same under every setting: an escape string (E'…') with backslash and
 * quote both escaped. A standard '…' literal is read with backslash escapes when the server has
 * standard_conforming_strings off, and a value ending in a backslash would end the literal early.
 */
function escapeString(text: string): string {
  return `E'${text.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
}

/** PostgreSQL's array of doubles as text (`{e1,e2,…,Infinity}`), which float8in reads exactly. */
const doubleArrayText = (xs: readonly number[]): string => `{${xs.map(shortestDecimal).join(',')}}`;
const intArrayText = (xs: ArrayLike<number>): string => `{${joinInts(xs, ',')}}`;

/**
 * A text parameter's placeholder retyped as an array of `type`, in parentheses (to subscript): the
 * server reads the list once, when the parameter is bound. A CAST of the text would read it again
 * for every row (`array_in` is STABLE: never folded to a constant).
 */
function arrayParam(placeholder: string, type: string): string {
  return `(${placeholder.replace(/::text$/, `::${type}[]`)})`;
}

/** PostgreSQL: standard quoting; a bare 2.5 is NUMERIC, hence doubles cast from text. */
export const postgresDialect: Dialect = {
  name: 'postgres',
  quote: quoteDoubled,
  string: escapeString,
  doubleText: shortestDecimal,
  double: (x) => `CAST('${shortestDecimal(x)}' AS double precision)`,
  placeholder: (i, v) => `$${i}::${typeof v === 'number' ? 'float8' : 'text'}`,

  doubleType: 'double precision',
  intType: (max) => (max < 32768 ? 'smallint' : 'integer'),
  trim: (e) => `TRIM(${e})`,
  toDouble: (e) => `CAST(${e} AS double precision)`,
  numberToDouble: (e) => `CAST(${e} AS double precision)`,
  timeToSeconds: (e) => `CAST(EXTRACT(EPOCH FROM ${e}) AS double precision)`,
  toText: (e) => `CAST(${e} AS text)`,
  fullMatch: (e, p) => `(${e} ~ ${p})`,
  nanToNull: (e) => `NULLIF(${e}, 'NaN'::float8)`,
  boolToInt: (e) => `CAST(${e} AS integer)`,
  rowNumber: 'row_number() OVER ()',

  integers: (xs) => `CAST('${intArrayText(xs)}' AS integer[])`,
  doubles: (xs) => `CAST('${doubleArrayText(xs)}' AS double precision[])`,
  strings: (xs) => `CAST(ARRAY[${xs.map(escapeString).join(', ')}] AS text[])`,
  array: (items) => `ARRAY[${items.join(', ')}]`,
  position: (names, value) => `coalesce(array_position(${names}, CAST(${value} AS text)), 0)`,
  element: caseElement,
  codeOf: caseCodeOf,
  doubleList: (values, bind) => arrayParam(bind(doubleArrayText(values)), 'double precision'),
  intList: (values, bind) => arrayParam(bind(intArrayText(values)), 'integer'),

  repeatIndex: (count) => `generate_series(0, ${count} - 1)`,

  createTemporary: (name, select) => `CREATE TEMP TABLE ${name} AS ${select}`,
  dropTemporary: (name) => `DROP TABLE IF EXISTS ${name}`,
  groupByEveryCode: (relation, codes) => groupingSets(relation, codes, (e) => `CAST(${e} AS double precision)`),

  literalLists: false,
  listColumns: false,
  flatLevels: false,
};
