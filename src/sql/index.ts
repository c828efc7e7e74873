/**
 * The SQL layer: one dialect object per database grove writes SQL for, shared by the in-database
 * engines (src/engines) and the SQL export (src/export/sql).
 */
import { clickhouseDialect } from './clickhouse.js';
import { DIALECT_NAMES, type Dialect, type DialectName } from './dialect.js';
import { duckdbDialect } from './duckdb.js';
import { postgresDialect } from './postgres.js';

export { backslashEscaped, clickhouseDialect, hexFloat } from './clickhouse.js';
export { DIALECT_NAMES, type Dialect, type DialectName, type SqlValue, type TimeKind } from './dialect.js';
export { duckdbDialect } from './duckdb.js';
export { tableReference } from './names.js';
export { postgresDialect } from './postgres.js';
export { caseCodeOf, caseElement, subscript } from './standard.js';
export { bindOnceOf, type WalkRoute, walkNode } from './walk.js';

const DIALECTS = new Map<DialectName, Dialect>([
  ['duckdb', duckdbDialect],
  ['postgres', postgresDialect],
  ['clickhouse', clickhouseDialect],
]);

/** True when `name` is one of {@link DIALECT_NAMES}. */
export function isDialectName(name: unknown): name is DialectName {
  return (DIALECT_NAMES as readonly unknown[]).includes(name);
}

/** The dialect of database `name`. */
export function dialectOf(name: DialectName): Dialect {
  return DIALECTS.get(name)!;
}
