/**
 * One throwaway in-memory DuckDB per use, closed afterwards; DuckDB's errors become one-line
 * GroveErrors. The readers talk to DuckDB's C API (`@duckdb/node-bindings`) directly: loading
 * `@duckdb/node-api` on top of it would cost more than the rest of a typical read's start (see
 * docs/performance.md), so only the writer and the readers' rare paths load it, on first use.
 */

import type { DuckDBConnection } from '@duckdb/node-api';
import duckdb from '@duckdb/node-bindings';
import { GroveError } from '../core/errors.js';
import { DUCKDB, loadOptional } from '../core/optional.js';

/** Run `work` on a fresh in-memory DuckDB connection (`@duckdb/node-api`), closing it however `work` ends. */
export async function withDuckDB<T>(work: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
  const { DuckDBInstance } = await loadOptional(DUCKDB, 'DuckDB', () => import('@duckdb/node-api'));
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    return await work(connection);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/**
 * Run `work` on `count` connections (C API) to one fresh in-memory DuckDB, closing them however
 * `work` ends. Work still running on a connection must be awaited before `work` returns.
 */
export async function withDuckDBConnections<T>(
  count: number,
  work: (connections: duckdb.Connection[]) => Promise<T>,
): Promise<T> {
  const database = await duckdb.open(':memory:');
  const connections: duckdb.Connection[] = [];
  try {
    for (let k = 0; k < count; k++) connections.push(await duckdb.connect(database));
    return await work(connections);
  } finally {
    for (const c of connections) duckdb.disconnect_sync(c);
    duckdb.close_sync(database);
  }
}

/** DuckDB's error (`Invalid Input Error: No magic bytes…`) as a one-line GroveError about `file`. */
export function duckdbError(err: unknown, what: string, file: string): GroveError {
  if (err instanceof GroveError) return err;
  const first = String((err as Error)?.message ?? err).split('\n')[0];
  return new GroveError(`${what}: ${first}`, { file, code: 'E_DATA' });
}
