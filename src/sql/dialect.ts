/** The databases grove writes SQL for: it trains in them (src/engines) and exports to them (src/export/sql). */
export const DIALECT_NAMES = ['duckdb', 'postgres', 'clickhouse'] as const;
export type DialectName = (typeof DIALECT_NAMES)[number];

/**
 * A value bound to a query parameter: never parsed as SQL (ClickHouse, without parameters, writes
 * it as hex bytes; docs/in-database.md).
 */
export type SqlValue = number | string;

/**
 * A date or time column: `date` and `timestamp` read as seconds since 1970-01-01 00:00 (UTC, or
 * the wall clock of a zone-less timestamp), `time` (of day) as seconds since midnight.
 */
export type TimeKind = 'date' | 'timestamp' | 'time';

/**
 * Everything that differs between the SQL of the databases grove writes for, one object per
 * database. Everything grove writes into a query is an identifier quoted here, a literal written
 * here (text, exact doubles, integers it generated), a parameter placeholder, or one of these fragments.
 */
export interface Dialect {
  readonly name: DialectName;

  // Identifiers and literals.

  /** An identifier quoted by the database's rules (any character allowed). */
  quote(identifier: string): string;
  /** A string literal, read as `text` whatever the session's settings. */
  string(text: string): string;
  /**
   * Text the database's number parser reads back as exactly the double `x` (±Infinity included):
   * the one rule every exact double grove writes follows, literal or bound.
   */
  doubleText(x: number): string;
  /** A literal of type double that is exactly `x`. */
  double(x: number): string;
  /** Placeholder of the `index`-th parameter (1-based), typed after `value`. */
  placeholder(index: number, value: SqlValue): string;

  // Type names and conversions.

  /** The type of a 64-bit float. */
  readonly doubleType: string;
  /** The narrowest integer type that holds 0 … `max`. */
  intType(max: number): string;
  /** `expr` without leading and trailing spaces. */
  trim(expr: string): string;
  /** `expr` as a double, parsed when text (NULL stays NULL). */
  toDouble(expr: string): string;
  /** `expr`, a column the database types as a number, as a double without a trip through text. */
  numberToDouble(expr: string): string;
  /** `expr`, a column of dates or times, as seconds (a double; {@link TimeKind}). */
  timeToSeconds(expr: string, kind: TimeKind): string;
  /** `expr` as text (NULL stays NULL). */
  toText(expr: string): string;
  /** True when text `expr` matches regular expression `pattern` (an expression) in full. */
  fullMatch(expr: string, pattern: string): string;
  /** `expr` (a double) with NaN as NULL. */
  nanToNull(expr: string): string;
  /** A boolean (or NULL) as the integer 1 or 0 (or NULL). */
  boolToInt(expr: string): string;
  /** The row's position in the relation's scan order (first appearance of categories and classes). */
  readonly rowNumber: string;

  // Arrays and lookups.

  /** A constant array of integers. */
  integers(xs: ArrayLike<number>): string;
  /** A constant array of exact doubles (each as {@link Dialect.doubleText}). */
  doubles(xs: readonly number[]): string;
  /** A constant array of strings. */
  strings(xs: readonly string[]): string;
  /** An array of the values of these expressions (one type). */
  array(items: readonly string[]): string;
  /** The 1-based position of text `value` in the text array `names`, 0 when absent or NULL. */
  position(names: string, value: string): string;
  /** `values[index]` for an integer `index` from 0, `index` written once (text linear in the values). */
  element(index: string, values: readonly string[]): string;
  /** The position (from 0) of text `value` among `keys` (distinct), `missing` when absent or NULL. */
  codeOf(value: string, keys: readonly string[], missing: number): string;
  /**
   * `values` (exact doubles, ±Infinity among them) as a list indexed from 1 with `list[i]`, its
   * values bound through `bind` (DuckDB, PostgreSQL) or written as literals (ClickHouse); absent
   * when the database has no lists (bin codes then come from nested CASEs, engines/rows.ts).
   */
  doubleList?(values: readonly number[], bind: (value: SqlValue) => string): string;
  /**
   * `values` (integers) as a list indexed from 1, bound through `bind`; absent when the engine
   * takes no bin codes by lookup (engines/code-grid.ts; ClickHouse's query text would hold every cell).
   */
  intList?(values: ArrayLike<number>, bind: (value: SqlValue) => string): string;
  /**
   * `body` with each of `params` bound once to the value of the matching expression of `values`
   * (a lambda applied to one-element arrays); absent when the database has no lambdas.
   */
  bindOnce?(params: readonly string[], values: readonly string[], body: string): string;

  /**
   * A set-returning expression for a SELECT list: the integers 0 … `count` − 1, the row repeated
   * once with each (C4.5's fractional missing values send a row down every branch of a split);
   * absent when the database has none (such a fit is then refused).
   */
  repeatIndex?(count: string): string;

  // Temporary tables.

  /** The statement that saves the rows of `select` in table `name` (quoted) for this session. */
  createTemporary(name: string, select: string): string;
  /** The statement that drops table `name` made by {@link Dialect.createTemporary}, if it is there. */
  dropTemporary(name: string): string;
  /**
   * Sum `w` and count the rows of `relation` (columns node, y, w, c0 … c(d−1)) per node, class and
   * code of every code column: rows (node, y, f, code, weight, rows) with f the column's index,
   * from the statements returned, run one after the other.
   */
  groupByEveryCode(relation: string, codes: readonly string[]): readonly string[];

  // Capabilities: what the in-database grower may choose.

  /**
   * In-place update: a signed integer type holding −1 … `max`, for a node column updated in place
   * (one UPDATE per level) where the database writes that faster than a new table of every row;
   * absent: each level writes a new table (PostgreSQL's UPDATE writes whole row versions,
   * ClickHouse's is a mutation).
   */
  readonly nodeColumn?: { type: string; max: number };
  /**
   * Array lookup: `element` is one lookup in a list written into the query (ClickHouse's arrays),
   * not a CASE: a level's step then looks a row's next node up instead of testing every parent.
   */
  readonly literalLists: boolean;
  /**
   * Lists as columns of a one-row relation joined to the rows, not constants in expressions:
   * DuckDB builds a constant list again for every vector of rows (time linear in its length).
   */
  readonly listColumns: boolean;
  /**
   * Flat levels: where the database makes no temporary table of the rows (a distributed table),
   * each level's queries read the source and route every row by a walk down the tree so far
   * (engines/flat.ts, src/sql/walk.ts). Without it, a database that makes no table is an error.
   */
  readonly flatLevels: boolean;
}
