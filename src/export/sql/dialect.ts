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
}

/** Shortest decimal that reads back as `x` (JS prints exactly such a decimal). */
const decimal = (x: number): string => {
  if (!Number.isFinite(x)) throw new GroveError(`cannot write the non-finite number ${x} in SQL`, { code: 'E_MODEL' });
  return String(x);
};

const doubleQuoted = (name: string): string => `"${name.replaceAll('"', '""')}"`;
const standardString = (text: string): string => `'${text.replaceAll("'", "''")}'`;

const RULES: Record<SqlDialect, DialectRules> = {
  // DuckDB and PostgreSQL: SQL-standard quoting; backslash is an ordinary character in '...'
  // (PostgreSQL's standard_conforming_strings, on by default since 9.1). A bare 2.5 is DECIMAL
  // or NUMERIC there, hence the cast.
  duckdb: { identifier: doubleQuoted, string: standardString, double: (x) => `CAST('${decimal(x)}' AS DOUBLE)` },
  postgres: {
    identifier: doubleQuoted,
    string: standardString,
    double: (x) => `CAST(${decimal(x)} AS DOUBLE PRECISION)`,
  },
  // ClickHouse: backslash escapes in both identifiers and strings; a bare 2.5 is Float64.
  clickhouse: {
    identifier: (name) => `\`${backslashEscaped(name, '`')}\``,
    string: (text) => `'${backslashEscaped(text, "'")}'`,
    double: (x) => {
      const s = decimal(x);
      return /[.e]/.test(s) ? s : `${s}.0`;
    },
  },
};

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
