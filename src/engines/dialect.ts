/**
 * A value bound to a query parameter: never parsed as SQL (ClickHouse, without parameters, writes
 * it as hex bytes; docs/in-database.md).
 */
export type SqlValue = number | string;

/**
 * What differs between the SQL of the engines grove trains in. Everything grove writes into a
 * query is an identifier quoted here, a parameter placeholder, an integer it generated (node ids,
 * bin and category codes), one of these fragments, or — ClickHouse's bin edges only — an exact
 * hexadecimal float literal generated from a double's bits ({@link SqlDialect.doubleList}).
 */
export interface SqlDialect {
  readonly name: 'duckdb' | 'postgres' | 'clickhouse';
  /** An identifier quoted by the engine's rules (any character allowed). */
  quote(identifier: string): string;
  /** Placeholder of the `index`-th parameter (1-based), typed after `value`. */
  placeholder(index: number, value: SqlValue): string;
  /** `expr` without leading and trailing spaces. */
  trim(expr: string): string;
  /** `expr` as a double (NULL stays NULL). */
  toDouble(expr: string): string;
  /** `expr`, a column the engine types as a number, as a double without a trip through text. */
  numberToDouble(expr: string): string;
  /** `expr` as text (NULL stays NULL). */
  toText(expr: string): string;
  /** True when text `expr` matches regular expression `pattern` (a placeholder) in full. */
  fullMatch(expr: string, pattern: string): string;
  /** `expr` (a double) with NaN as NULL. */
  nanToNull(expr: string): string;
  /** The row's position in the relation's scan order (first appearance of categories and classes). */
  readonly rowNumber: string;
  /**
   * `values` (exact doubles, ±Infinity among them) as a list indexed from 1 with `list[i]`, its
   * values bound through `bind` (DuckDB, PostgreSQL) or written as exact hexadecimal float literals
   * (ClickHouse); absent when the engine has no lists (bin codes then come from nested CASEs, rows.ts).
   */
  doubleList?(values: readonly number[], bind: (value: SqlValue) => string): string;
  /**
   * `values` (integers) as a list indexed from 1, bound through `bind`; absent when the engine
   * takes no bin codes by lookup (code-grid.ts; ClickHouse's query text would hold every cell).
   */
  intList?(values: ArrayLike<number>, bind: (value: SqlValue) => string): string;
  /**
   * Lists as columns of a one-row relation joined to the rows, not constants in expressions:
   * DuckDB builds a constant list again for every vector of rows (time linear in its length).
   */
  readonly listColumns?: boolean;
  /**
   * `element` is one lookup in a list written into the query (ClickHouse's arrays), not a CASE:
   * a level's step then looks a row's next node up instead of testing every parent.
   */
  readonly literalLists?: boolean;
  /** `values[index]` for an integer `index` from 0, `index` written once (text linear in the values). */
  element(index: string, values: readonly string[]): string;
  /** The position (from 0) of text `value` among `keys` (distinct), `missing` when absent or NULL. */
  codeOf(value: string, keys: readonly string[], missing: number): string;
  /** A boolean (or NULL) as the integer 1 or 0 (or NULL). */
  boolToInt(expr: string): string;
  /**
   * A signed integer type holding −1 … `max`, for a node column updated in place (one UPDATE
   * per level) where the engine writes that faster than a new table of every row; absent: each
   * level writes a new table (PostgreSQL's UPDATE writes whole row versions, ClickHouse's is a
   * mutation).
   */
  readonly nodeColumn?: { type: string; max: number };
  /** The narrowest integer type that holds 0 … `max`. */
  intType(max: number): string;
  /**
   * Sum `w` and count the rows of `relation` (columns node, y, w, c0 … c(d−1)) per node, class and
   * code of every code column: rows (node, y, f, code, weight, rows) with f the column's index,
   * from the statements returned, run one after the other.
   */
  groupByEveryCode(relation: string, codes: readonly string[]): readonly string[];
}

/** Standard SQL quoting: in double quotes, a double quote doubled. */
export function quoteDoubled(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}

/** A simple CASE on `index`: `values[index]` in standard SQL. */
export function caseElement(index: string, values: readonly string[]): string {
  return `CASE ${index} ${values.map((v, i) => `WHEN ${i} THEN ${v}`).join(' ')} END`;
}

/** A searched CASE over the keys: {@link SqlDialect.codeOf} in standard SQL. */
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
