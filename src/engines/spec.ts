import { GroveError } from '../core/errors.js';
import { DUCKDB, loadOptional, PG } from '../core/optional.js';
import { clickhouseDialect, duckdbDialect, postgresDialect } from '../sql/index.js';
import type { Engine } from './engine.js';
import { checkDatabaseUrl, redactUrl } from './redact.js';
import type { EngineSource } from './schema.js';
import { asSubquery, trimQuery } from './subquery.js';

export { redactUrl };

/** The engines grove trains in, and `memory` (grove's own growers). */
export const ENGINE_NAMES = ['memory', 'duckdb', 'postgres', 'clickhouse'] as const;
export type EngineName = (typeof ENGINE_NAMES)[number];

/** A parsed training source: which engine it belongs to and how to reach it. */
export interface SourceSpec {
  /** `file` (read by DuckDB, or by grove in memory) or a database. */
  kind: 'file' | 'duckdb' | 'postgres' | 'clickhouse';
  /** The engine a database source trains in by default. */
  defaultEngine: EngineName;
  /** The spec as messages may show it: a URL without its password. */
  label: string;
  /** Connect to the engine. */
  connect(): Promise<Engine>;
  source: EngineSource;
}

/** What names the rows inside a database: a table or a query (`--table`, `--query`). */
export interface RowsSelector {
  table?: string;
  query?: string;
}

/** True when `spec` names a database rather than a file. */
export function isDatabaseSpec(spec: string): boolean {
  return /^(duckdb:|postgres(ql)?:\/\/|clickhouse:\/\/)/.test(spec);
}

/** The FROM item for `--table` or `--query` (exactly one of them). */
function tableOrQuery(label: string, rows: RowsSelector, quote: (id: string) => string): EngineSource {
  if ((rows.table === undefined) === (rows.query === undefined))
    throw new GroveError(`${label}: give the rows with --table NAME or --query 'SELECT …' (one of them)`, {
      code: 'E_OPTION',
    });
  const { table, query } = rows;
  return { label, from: () => (table !== undefined ? quote(table) : asSubquery(query ?? '')) };
}

/**
 * `open`, and when the rows are the user's query, that query checked by the database to be exactly
 * one read-only SELECT before anything else runs (the connection closed when it is not).
 */
function connectChecked(open: () => Promise<Engine>, rows: RowsSelector): () => Promise<Engine> {
  const { query } = rows;
  if (query === undefined) return open;
  return async () => {
    const engine = await open();
    let why: string | undefined;
    try {
      why = await engine.acceptQuery(trimQuery(query));
    } catch (e) {
      await engine.close();
      throw e;
    }
    if (why === undefined) return engine;
    await engine.close();
    const said = why.split('\n')[0];
    throw new GroveError(
      `--query must be exactly one read-only SELECT: ${said.length > 300 ? `${said.slice(0, 300)}… (cut)` : said}`,
      { code: 'E_OPTION' },
    );
  };
}

/**
 * Parse a database source for the engines: `duckdb:PATH.duckdb`, `postgres://user@host:port/db`,
 * `clickhouse://host:port/db`. (A data file as an engine's source: `src/sources/engine-source.ts`,
 * which knows the file formats.)
 */
export async function parseDatabaseSpec(spec: string, rows: RowsSelector = {}): Promise<SourceSpec> {
  if (spec.startsWith('duckdb:')) {
    const path = spec.slice('duckdb:'.length);
    const source = tableOrQuery(spec, rows, duckdbDialect.quote);
    return {
      kind: 'duckdb',
      defaultEngine: 'duckdb',
      label: spec,
      connect: connectChecked(() => openDuckDB(path), rows),
      source,
    };
  }
  if (/^postgres(ql)?:\/\//.test(spec)) {
    checkDatabaseUrl(spec);
    const { PostgresEngine } = await loadOptional(PG, 'a postgres:// source', () => import('./postgres.js'));
    const label = redactUrl(spec);
    const source = tableOrQuery(label, rows, postgresDialect.quote);
    return {
      kind: 'postgres',
      defaultEngine: 'postgres',
      label,
      connect: connectChecked(() => PostgresEngine.open(spec), rows),
      source,
    };
  }
  if (spec.startsWith('clickhouse://')) {
    checkDatabaseUrl(spec);
    const { ClickHouseEngine } = await import('./clickhouse.js');
    const label = redactUrl(spec);
    const source = tableOrQuery(label, rows, clickhouseDialect.quote);
    return {
      kind: 'clickhouse',
      defaultEngine: 'clickhouse',
      label,
      connect: connectChecked(() => ClickHouseEngine.open(spec), rows),
      source,
    };
  }
  throw new GroveError(`not a database: '${spec}' (duckdb:PATH, postgres://…, clickhouse://…)`, { code: 'E_OPTION' });
}

/** DuckDB's engine, loaded on first use (its native module is slow to load and most commands never need it). */
export async function openDuckDB(path?: string): Promise<Engine> {
  const { DuckDBEngine } = await loadOptional(
    DUCKDB,
    'DuckDB (a duckdb: source or --engine duckdb)',
    () => import('./duckdb.js'),
  );
  return DuckDBEngine.open(path);
}
