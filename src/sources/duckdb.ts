/** One throwaway in-memory DuckDB per use, closed afterwards; DuckDB's errors become one-line GroveErrors. */

import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { GroveError } from '../core/errors.js';

/** Run `work` on a fresh in-memory DuckDB connection, closing it however `work` ends. */
export async function withDuckDB<T>(work: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    return await work(connection);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** A string literal for SQL ('it''s'). */
export const sqlString = (s: string): string => `'${s.replace(/'/g, "''")}'`;

/** A quoted SQL identifier ("my ""col"""). */
export const sqlIdentifier = (s: string): string => `"${s.replace(/"/g, '""')}"`;

/** DuckDB's error (`Invalid Input Error: No magic bytes…`) as a one-line GroveError about `file`. */
export function duckdbError(err: unknown, what: string, file: string): GroveError {
  if (err instanceof GroveError) return err;
  const first = String((err as Error)?.message ?? err).split('\n')[0];
  return new GroveError(`${what}: ${first}`, { file, code: 'E_DATA' });
}
