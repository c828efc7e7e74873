import type { Dialect } from './dialect.js';
import { caseCodeOf, caseElement, joinInts, quoteDoubled, shortestDecimal, standardString } from './standard.js';

/** DuckDB's list of doubles as text (`[e1, e2, …, Infinity]`), which a cast to DOUBLE[] reads exactly. */
const doubleListText = (xs: readonly number[]): string => `[${xs.map(shortestDecimal).join(', ')}]`;
const intListText = (xs: ArrayLike<number>): string => `[${joinInts(xs, ', ')}]`;

/**
 * DuckDB: standard quoting, and no setting changes how a string literal is read. A bare 2.5 is
 * DECIMAL, hence the casts from text; number arrays are one string cast to the array type (parsed
 * once, where a list of thousands of literals costs planning time).
 */
export const duckdbDialect: Dialect = {
  name: 'duckdb',
  quote: quoteDoubled,
  string: standardString,
  doubleText: shortestDecimal,
  double: (x) => `CAST('${shortestDecimal(x)}' AS DOUBLE)`,
  placeholder: (i) => `$${i}`,

  doubleType: 'DOUBLE',
  intType: (max) => (max < 256 ? 'UTINYINT' : max < 65536 ? 'USMALLINT' : 'INTEGER'),
  trim: (e) => `TRIM(${e})`,
  toDouble: (e) => `CAST(${e} AS DOUBLE)`,
  numberToDouble: (e) => `CAST(${e} AS DOUBLE)`,
  timeToSeconds: (e) => `CAST(epoch(${e}) AS DOUBLE)`,
  toText: (e) => `CAST(${e} AS VARCHAR)`,
  fullMatch: (e, p) => `regexp_full_match(${e}, ${p})`,
  // DuckDB compares NaN equal to NaN (of either sign): NULLIF is one comparison, where a CASE splits vectors.
  nanToNull: (e) => `NULLIF(${e}, CAST('NaN' AS DOUBLE))`,
  boolToInt: (e) => `CAST(${e} AS INTEGER)`,
  rowNumber: 'row_number() OVER ()',

  integers: (xs) => `CAST('${intListText(xs)}' AS INTEGER[])`,
  doubles: (xs) => `CAST('${doubleListText(xs)}' AS DOUBLE[])`,
  strings: (xs) => `[${xs.map(standardString).join(', ')}]`,
  array: (items) => `[${items.join(', ')}]`,
  position: (names, value) => `coalesce(list_position(${names}, CAST(${value} AS VARCHAR)), 0)`,
  element: caseElement,
  codeOf: caseCodeOf,
  doubleList: (values, bind) => `CAST(${bind(doubleListText(values))} AS DOUBLE[])`,
  intList: (values, bind) => `CAST(${bind(intListText(values))} AS INTEGER[])`,

  repeatIndex: (count) => `unnest(range(${count}))`,

  createTemporary: (name, select) => `CREATE TABLE ${name} AS ${select}`,
  dropTemporary: (name) => `DROP TABLE IF EXISTS ${name}`,
  // One query per code column, each a small hash table over (node, y, code) from one scan of a
  // few columns: faster than one table over (node, y, f, code) with the codes unnested, and than
  // GROUPING SETS or UNION ALL, whose hash tables are all built at once within one memory_limit.
  // Every column a DOUBLE: read as the vector's Float64Array (a BIGINT would be a BigInt per cell).
  groupByEveryCode: (relation, codes) =>
    codes.map(
      (c, f) =>
        `SELECT CAST(node AS DOUBLE) AS node, CAST(y AS DOUBLE) AS y, CAST(${f} AS DOUBLE) AS f, ` +
        `CAST(${c} AS DOUBLE) AS code, CAST(SUM(w) AS DOUBLE) AS weight, CAST(COUNT(*) AS DOUBLE) AS n ` +
        `FROM ${relation} GROUP BY node, y, ${c}`,
    ),

  // An UPDATE of this column writes a third of the time a new table of the level's rows takes.
  nodeColumn: { type: 'SMALLINT', max: 32767 },
  literalLists: false,
  listColumns: true,
  flatLevels: false,
};
