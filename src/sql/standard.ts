/**
 * Fragments of standard SQL shared by DuckDB and PostgreSQL (and the shortest round-trip decimal,
 * which both databases' number parsers read back exactly).
 */
import { GroveError } from '../core/errors.js';

/** Standard SQL quoting: in double quotes, a double quote doubled. */
export function quoteDoubled(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}

/** A standard string literal: in single quotes, a single quote doubled (backslash is a character). */
export function standardString(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/**
 * The shortest decimal that reads back as `x` (JavaScript prints exactly such a decimal; a
 * correctly rounded parser reads it back to the same double), `Infinity` and `-Infinity` as such.
 */
export function shortestDecimal(x: number): string {
  if (Number.isNaN(x)) throw new GroveError('cannot write NaN as an exact SQL double', { code: 'E_DATA' });
  return String(x);
}

/** A simple CASE on `index`: `values[index]` in standard SQL. */
export function caseElement(index: string, values: readonly string[]): string {
  return `CASE ${index} ${values.map((v, i) => `WHEN ${i} THEN ${v}`).join(' ')} END`;
}

/** A searched CASE over the keys: `Dialect.codeOf` in standard SQL. */
export function caseCodeOf(value: string, keys: readonly string[], missing: number): string {
  return `CASE ${keys.map((k, i) => `WHEN ${value} = ${k} THEN ${i}`).join(' ')} ELSE ${missing} END`;
}

/**
 * GROUPING SETS (DuckDB, PostgreSQL): one scan, one grouping per code column; the code column
 * grouped on is the one that is not NULL in a result row (codes are never NULL).
 */
export function groupingSets(relation: string, codes: readonly string[], double: (e: string) => string): string[] {
  const which = `CASE ${codes.map((c, f) => `WHEN ${c} IS NOT NULL THEN ${f}`).join(' ')} END`;
  return [
    `SELECT node, y, ${which} AS f, COALESCE(${codes.join(', ')}) AS code, ` +
      `${double('SUM(w)')} AS weight, ${double('COUNT(*)')} AS n FROM ${relation} ` +
      `GROUP BY GROUPING SETS (${codes.map((c) => `(node, y, ${c})`).join(', ')})`,
  ];
}

/** The integers joined by `separator`. */
export function joinInts(xs: ArrayLike<number>, separator: string): string {
  return Array.prototype.join.call(xs, separator);
}

/** Entry `index` (1-based) of an array expression, written the same in every dialect. */
export function subscript(array: string, index: string): string {
  return `(${array})[${index}]`;
}
