import { GroveError } from '../../core/errors.js';

/** The SQL dialects `grove export --format sql` writes. */
export const SQL_DIALECTS = ['duckdb', 'postgres', 'clickhouse'] as const;
export type SqlDialect = (typeof SQL_DIALECTS)[number];

/** How a dialect writes identifiers and literals. */
export interface DialectRules {
  /** A quoted identifier (any name: spaces, quotes, keywords). */
  identifier(name: string): string;
  /** A string literal. */
  string(text: string): string;
  /** A float64 literal that the database reads as exactly this double. */
  double(x: number): string;
  /** A constant array of integers, of float64 values (exact, as `double`), of strings. */
  integers(xs: readonly number[]): string;
  doubles(xs: readonly number[]): string;
  strings(xs: readonly string[]): string;
  /** An array of the values of these expressions (one type). */
  array(items: readonly string[]): string;
  /** A numeric expression as a float64. */
  asDouble(value: string): string;
  /** A boolean test as 1 (true), 0 (false) or NULL. */
  bit(test: string): string;
  /** The 1-based position of string `value` in the string array `names`, 0 when absent or NULL. */
  position(names: string, value: string): string;
}

/** Shortest decimal that reads back as `x` (JS prints exactly such a decimal). */
const decimal = (x: number): string => {
  if (!Number.isFinite(x)) throw new GroveError(`cannot write the non-finite number ${x} in SQL`, { code: 'E_MODEL' });
  return String(x);
};

const doubleQuoted = (name: string): string => `"${name.replaceAll('"', '""')}"`;
const standardString = (text: string): string => `'${text.replaceAll("'", "''")}'`;

/** Entry `index` (1-based) of an array expression: the same in every dialect. */
export const elementAt = (array: string, index: string): string => `(${array})[${index}]`;
const castBit = (test: string): string => `CAST(${test} AS INTEGER)`;

const RULES: Record<SqlDialect, DialectRules> = {
  // DuckDB and PostgreSQL: SQL-standard quoting; backslash is an ordinary character in '...'
  // (PostgreSQL's standard_conforming_strings, on by default since 9.1). A bare 2.5 is DECIMAL
  // or NUMERIC there, hence the casts. Number arrays are one string cast to the array type: the
  // database parses it once, where a list of thousands of literals costs planning time.
  duckdb: {
    identifier: doubleQuoted,
    string: standardString,
    double: (x) => `CAST('${decimal(x)}' AS DOUBLE)`,
    integers: (xs) => `CAST('[${xs.join(',')}]' AS INTEGER[])`,
    doubles: (xs) => `CAST('[${xs.map(decimal).join(',')}]' AS DOUBLE[])`,
    strings: (xs) => `[${xs.map(standardString).join(', ')}]`,
    array: (items) => `[${items.join(', ')}]`,
    asDouble: (value) => `CAST(${value} AS DOUBLE)`,
    bit: castBit,
    position: (names, value) => `coalesce(list_position(${names}, CAST(${value} AS VARCHAR)), 0)`,
  },
  postgres: {
    identifier: doubleQuoted,
    string: standardString,
    double: (x) => `CAST(${decimal(x)} AS DOUBLE PRECISION)`,
    integers: (xs) => `CAST('{${xs.join(',')}}' AS INTEGER[])`,
    doubles: (xs) => `CAST('{${xs.map(decimal).join(',')}}' AS DOUBLE PRECISION[])`,
    strings: (xs) => `CAST(ARRAY[${xs.map(standardString).join(', ')}] AS TEXT[])`,
    array: (items) => `ARRAY[${items.join(', ')}]`,
    asDouble: (value) => `CAST(${value} AS DOUBLE PRECISION)`,
    bit: castBit,
    position: (names, value) => `coalesce(array_position(${names}, CAST(${value} AS TEXT)), 0)`,
  },
  // ClickHouse: backslash escapes in both identifiers and strings; a bare 2.5 is Float64, and an
  // array of such literals is one literal to the parser.
  clickhouse: {
    identifier: (name) => `\`${backslashEscaped(name, '`')}\``,
    string: clickhouseString,
    double: clickhouseDouble,
    integers: (xs) => `[${xs.join(', ')}]`,
    doubles: (xs) => `[${xs.map(clickhouseDouble).join(', ')}]`,
    strings: (xs) => `[${xs.map(clickhouseString).join(', ')}]`,
    array: (items) => `[${items.join(', ')}]`,
    asDouble: (value) => `toFloat64(${value})`,
    bit: (test) => test, // a comparison is already UInt8 (Nullable for a NULL operand)
    position: (names, value) => `indexOf(${names}, ${value})`, // 0 when absent or NULL
  },
};

function clickhouseString(text: string): string {
  return `'${backslashEscaped(text, "'")}'`;
}

function clickhouseDouble(x: number): string {
  const s = decimal(x);
  return /[.e]/.test(s) ? s : `${s}.0`;
}

function backslashEscaped(text: string, quote: string): string {
  let out = '';
  for (const ch of text) {
    if (ch === '\\') out += '\\\\';
    else if (ch === quote) out += `\\${quote}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\0') out += '\\0';
    else out += ch;
  }
  return out;
}

/** The rules of `dialect`. */
export function dialectRules(dialect: SqlDialect): DialectRules {
  return RULES[dialect];
}

/** A table name as given to --table: dot-separated parts (schema.table), each quoted. */
export function tableReference(name: string, rules: DialectRules): string {
  const parts = name.split('.');
  if (name.length === 0 || parts.some((p) => p.length === 0)) {
    throw new GroveError(`--table: expected a table name such as rows or schema.rows, got '${name}'`, {
      code: 'E_OPTION',
    });
  }
  return parts.map((p) => rules.identifier(p)).join('.');
}
