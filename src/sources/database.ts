/**
 * Database sources: the rows of a table or query in DuckDB (`duckdb:PATH.duckdb`), PostgreSQL
 * (`postgres://…`) or ClickHouse (`clickhouse://…`), read into grove through the engines' drivers
 * (src/engines/) and typed by the same rules as a typed file (TypedTableBuilder). The source
 * names itself by its URL without the password.
 */

import { GroveError } from '../core/errors.js';
import type { Dataset } from '../data/dataset.js';
import { TypedTableBuilder } from '../data/typed-columns.js';
import type { TypedField } from '../data/typed-fields.js';
import { columnDouble, type Engine, Params, timeUnitOf } from '../engines/engine.js';
import { isDatabaseSpec, parseDatabaseSpec, type RowsSelector, redactUrl } from '../engines/spec.js';
import type { DataSource, SourceKind, SourceReadOptions } from './source.js';

/** Rows a batch of {@link DatabaseSource.readBatches} holds unless told otherwise. */
export const DATABASE_BATCH_ROWS = 65536;

/** A table or query of a database, read into memory whole or a batch of rows at a time. */
export interface DatabaseSource extends DataSource {
  /**
   * Read the rows in order as Datasets of at most `batchRows` rows each (bounded memory), each
   * handed to `onBatch` (the next rows are fetched once it has returned, or its promise settled).
   * The batches are typed alike when `options` forces
   * every column's kind (`categorical`/`numeric`), as `grove predict` does from the model.
   */
  readBatches(
    options: SourceReadOptions,
    onBatch: (data: Dataset, firstRow: number) => void | Promise<void>,
    batchRows?: number,
  ): Promise<void>;
}

/** The columns of the rows as the engine types them, and the SELECT that reads each as a double or text. */
async function plan(engine: Engine, from: string, params: readonly unknown[]) {
  const d = engine.dialect;
  const cols = await engine.columns(from, params as never);
  const fields: TypedField[] = cols.map((c) =>
    c.time !== undefined
      ? { name: c.name, kind: 'number', type: c.time.toUpperCase(), time: timeUnitOf(c.time) }
      : { name: c.name, kind: c.type, type: c.type },
  );
  const select = cols.map((c) =>
    c.type === 'number' ? columnDouble(d, d.quote(c.name), c.time) : d.toText(d.quote(c.name)),
  );
  return { fields, select: select.join(', ') };
}

/** Fill `builder`'s sinks from `rows` (arrays in the fields' order), starting at row `at`. */
function fill(builder: TypedTableBuilder, fields: readonly TypedField[], rows: readonly unknown[][], at: number): void {
  for (let j = 0; j < fields.length; j++) {
    const sink = builder.sink(j);
    if (!sink) continue;
    if (sink.kind === 'number')
      for (let r = 0; r < rows.length; r++) {
        const v = rows[r][j];
        sink.set(at + r, v === null || v === undefined ? null : Number(v));
      }
    else
      for (let r = 0; r < rows.length; r++) {
        const v = rows[r][j];
        sink.set(at + r, v === null || v === undefined ? null : String(v));
      }
  }
}

/**
 * The rows of `rows.table` or `rows.query` in the database `spec` names, as a source.
 *
 * @throws GroveError when neither or both of `table` and `query` are given
 */
export function databaseSource(spec: string, rows: RowsSelector): DatabaseSource {
  const label = redactUrl(spec);
  if ((rows.table === undefined) === (rows.query === undefined))
    throw new GroveError(`${label}: give the rows with --table NAME or --query 'SELECT …' (one of them)`, {
      code: 'E_OPTION',
    });
  const what = rows.table !== undefined ? `table ${rows.table}` : 'query';
  /** Run `work` on a fresh connection, closed however it ends. */
  const withRows = async <T>(work: (engine: Engine, from: string, params: readonly unknown[]) => Promise<T>) => {
    const parsed = await parseDatabaseSpec(spec, rows);
    const engine = await parsed.connect();
    try {
      const p = new Params(engine.dialect);
      const from = parsed.source.from(p);
      return await work(engine, from, p.values);
    } finally {
      await engine.close();
    }
  };
  return {
    spec: label,
    describe: () => `${label.replace(/:.*$/, '')} ${what} of ${label}`,
    read: (options = {}) =>
      withRows(async (engine, from, params) => {
        const { fields, select } = await plan(engine, from, params);
        const [[count]] = await engine.query(
          `SELECT ${engine.dialect.toDouble('COUNT(*)')} FROM ${from} AS src`,
          params as never,
        );
        const nRows = Number(count);
        const builder = new TypedTableBuilder(fields, nRows, { ...options, source: options.source ?? label });
        let at = 0;
        await engine.stream(`SELECT ${select} FROM ${from} AS src`, params as never, (batch) => {
          const take = batch.length <= nRows - at ? batch : batch.slice(0, nRows - at);
          fill(builder, fields, take, at);
          at += take.length;
          options.onProgress?.({ rows: at, totalRows: nRows });
        });
        if (at < nRows)
          throw new GroveError(`the rows changed while being read (${at} of ${nRows})`, {
            file: label,
            code: 'E_DATA',
          });
        return builder.finish();
      }),
    readBatches: (options, onBatch, batchRows = DATABASE_BATCH_ROWS) =>
      withRows(async (engine, from, params) => {
        const { fields, select } = await plan(engine, from, params);
        let pending: unknown[][] = [];
        let first = 0;
        const flush = async (rows: unknown[][]) => {
          const builder = new TypedTableBuilder(fields, rows.length, { ...options, source: options.source ?? label });
          fill(builder, fields, rows, 0);
          await onBatch(builder.finish(), first);
          first += rows.length;
        };
        await engine.stream(`SELECT ${select} FROM ${from} AS src`, params as never, async (batch) => {
          for (const row of batch) {
            pending.push(row);
            if (pending.length === batchRows) {
              const full = pending;
              pending = [];
              await flush(full);
            }
          }
        });
        if (pending.length > 0 || first === 0) await flush(pending);
      }),
  };
}

/**
 * The source kind of database URLs for `openSource`: `duckdb:PATH.duckdb#table=NAME`,
 * `postgres://user@host:port/db#query=SELECT …` (the rows after `#`, URL-encoded; the CLI gives
 * them with --table/--query instead).
 */
export const DATABASE_SOURCE_KIND: SourceKind = {
  name: 'database',
  matches: isDatabaseSpec,
  open: (spec) => {
    const hash = spec.indexOf('#');
    const params = new URLSearchParams(hash < 0 ? '' : spec.slice(hash + 1));
    const rows: RowsSelector = {};
    const table = params.get('table');
    const query = params.get('query');
    if (table !== null) rows.table = table;
    if (query !== null) rows.query = query;
    return databaseSource(hash < 0 ? spec : spec.slice(0, hash), rows);
  },
  datasetName: (spec) => new URLSearchParams(spec.slice(spec.indexOf('#') + 1)).get('table') ?? 'query',
};

/**
 * The source a command reads: a database's table or query (`--table`/`--query`), or any source
 * `openSource` knows.
 */
export function openRows(spec: string, rows: RowsSelector, open: (spec: string) => DataSource): DataSource {
  if (rows.table === undefined && rows.query === undefined) return open(spec);
  if (!isDatabaseSpec(spec))
    throw new GroveError('--table and --query name rows inside a database, not in a file', { code: 'E_OPTION' });
  return databaseSource(spec, rows);
}
