/**
 * Scoring the exported model in each engine: ONNX Runtime (onnxruntime-web's WebAssembly build
 * under Node), DuckDB (embedded), PostgreSQL and ClickHouse (throwaway servers from
 * test/helpers/servers). Rows are loaded through each client's own value path (appender,
 * JSON parameters, JSONEachRow), not through the exporter's literal quoting.
 */
import { type ClickHouseClient, createClient } from '@clickhouse/client';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import * as ort from 'onnxruntime-web';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { type ClickHouseHandle, clickhouseUnavailable, startClickHouse } from '../helpers/servers/clickhouse.js';
import type { ServerHandle } from '../helpers/servers/common.js';
import { postgresUnavailable, startPostgres } from '../helpers/servers/postgres.js';
import type { PlainColumn, Scored } from './rows.js';

ort.env.wasm.numThreads = 1;

/** Run the ONNX model on the columns; unclassified rows keep ONNX's zero probabilities. */
export async function scoreOnnx(bytes: Uint8Array, columns: PlainColumn[], nRows: number): Promise<Scored> {
  const session = await ort.InferenceSession.create(bytes);
  const feeds: Record<string, ort.Tensor> = {};
  for (const c of columns) {
    feeds[c.name] =
      c.kind === 'number'
        ? new ort.Tensor(
            'float32',
            Float32Array.from(c.values, (v) => (v === null ? NaN : (v as number))),
            [nRows, 1],
          )
        : new ort.Tensor(
            'string',
            c.values.map((v) => (v === null ? '' : (v as string))),
            [nRows, 1],
          );
  }
  const out = await session.run(feeds);
  await session.release();
  const labels = Array.from(out.label.data as ArrayLike<unknown>, (v) => String(v));
  return { labels, proba: Float64Array.from(out.probabilities.data as Float32Array) };
}

/** The labels and probability columns of a SQL result, rows ordered by `grove_row_id`. */
function fromResult(names: string[], rows: unknown[][], classes: string[]): Scored {
  const id = names.indexOf('grove_row_id');
  const label = names.lastIndexOf('predicted');
  const probaAt = classes.map((c) => names.lastIndexOf(c));
  const sorted = [...rows].sort((a, b) => Number(a[id]) - Number(b[id]));
  const k = classes.length;
  const proba = new Float64Array(sorted.length * k);
  sorted.forEach((r, i) => {
    probaAt.forEach((at, c) => {
      proba[i * k + c] = at < 0 || r[at] === null ? NaN : Number(r[at]);
    });
  });
  return { labels: sorted.map((r) => String(r[label])), proba };
}

/** A DuckDB in-memory database for a test file. */
export async function duckdb(): Promise<{ connection: DuckDBConnection; close: () => void }> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  return {
    connection,
    close: () => {
      connection.closeSync();
      instance.closeSync();
    },
  };
}

/** A value for a JSON row: NaN (a float column's NaN, not a NULL) as the engine's text for it; JSON has none. */
const jsonValue = (v: number | string | null, nan: string): number | string | null =>
  typeof v === 'number' && Number.isNaN(v) ? nan : v;

const dq = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/** Load the rows into DuckDB table `table`, run `sql`, return the scores. */
export async function scoreDuckdb(
  connection: DuckDBConnection,
  table: string,
  sql: string,
  columns: PlainColumn[],
  nRows: number,
  classes: string[],
): Promise<Scored> {
  const defs = columns.map((c) => `${dq(c.name)} ${c.kind === 'number' ? 'DOUBLE' : 'VARCHAR'}`);
  await connection.run(`CREATE OR REPLACE TABLE ${dq(table)} (grove_row_id INTEGER, ${defs.join(', ')})`);
  const appender = await connection.createAppender(table);
  for (let i = 0; i < nRows; i++) {
    appender.appendInteger(i);
    for (const c of columns) {
      const v = c.values[i];
      if (v === null) appender.appendNull();
      else if (c.kind === 'number') appender.appendDouble(v as number);
      else appender.appendVarchar(v as string);
    }
    appender.endRow();
  }
  appender.closeSync();
  const reader = await connection.runAndReadAll(sql);
  return fromResult(reader.columnNames(), reader.getRowsJS() as unknown[][], classes);
}

/** Load the rows into PostgreSQL table `table` (via one JSON parameter), run `sql`, return the scores. */
export async function scorePostgres(
  client: pg.Client,
  table: string,
  sql: string,
  columns: PlainColumn[],
  nRows: number,
  classes: string[],
): Promise<Scored> {
  const defs = columns.map((c) => `${dq(c.name)} ${c.kind === 'number' ? 'DOUBLE PRECISION' : 'TEXT'}`);
  await client.query(`DROP TABLE IF EXISTS ${dq(table)}`);
  await client.query(`CREATE TABLE ${dq(table)} (grove_row_id INTEGER, ${defs.join(', ')})`);
  const rows = Array.from({ length: nRows }, (_, i) => {
    const row: Record<string, unknown> = { grove_row_id: i };
    for (const c of columns) row[c.name] = jsonValue(c.values[i], 'NaN');
    return row;
  });
  await client.query(`INSERT INTO ${dq(table)} SELECT * FROM json_populate_recordset(NULL::${dq(table)}, $1)`, [
    JSON.stringify(rows),
  ]);
  const result = await client.query({ text: sql, rowMode: 'array' });
  return fromResult(
    result.fields.map((f) => f.name),
    result.rows as unknown[][],
    classes,
  );
}

/** A PostgreSQL client connected to `url`. */
export async function postgresClient(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

const bq = (name: string): string => `\`${name.replaceAll('\\', '\\\\').replaceAll('`', '\\`')}\``;

const clickhouseClients = new Map<string, ClickHouseClient>();

/** A @clickhouse/client for the server at `url` (one per server, closed with `closeClickhouse`). */
function clickhouseClient(url: string): ClickHouseClient {
  let client = clickhouseClients.get(url);
  if (!client) {
    client = createClient({ url });
    clickhouseClients.set(url, client);
  }
  return client;
}

/** Close the client of the server at `url`. */
export async function closeClickhouse(url: string): Promise<void> {
  await clickhouseClients.get(url)?.close();
  clickhouseClients.delete(url);
}

/** Settings a big exported query needs on ClickHouse (docs/export.md). */
export const CLICKHOUSE_SETTINGS = {
  max_query_size: '1000000000',
  max_ast_elements: '100000000',
  max_expanded_ast_elements: '100000000',
  max_ast_depth: '100000',
};

/** Load the rows into ClickHouse table `table` (JSONEachRow), run `sql`, return the scores. */
export async function scoreClickhouse(
  url: string,
  table: string,
  sql: string,
  columns: PlainColumn[],
  nRows: number,
  classes: string[],
): Promise<Scored> {
  const client = clickhouseClient(url);
  const defs = columns.map((c) => `${bq(c.name)} Nullable(${c.kind === 'number' ? 'Float64' : 'String'})`);
  await client.command({ query: `DROP TABLE IF EXISTS ${bq(table)}` });
  await client.command({
    query: `CREATE TABLE ${bq(table)} (grove_row_id UInt32, ${defs.join(', ')}) ENGINE = Memory`,
  });
  const values = Array.from({ length: nRows }, (_, i) => {
    const row: Record<string, unknown> = { grove_row_id: i };
    for (const c of columns) row[c.name] = jsonValue(c.values[i], 'nan');
    return row;
  });
  await client.insert({ table: bq(table), values, format: 'JSONEachRow' });
  const result = await client.query({
    query: sql,
    format: 'JSONCompact',
    clickhouse_settings: CLICKHOUSE_SETTINGS as unknown as Record<string, string>,
  });
  const parsed = (await result.json()) as unknown as { meta: { name: string }[]; data: unknown[][] };
  return fromResult(
    parsed.meta.map((m) => m.name),
    parsed.data,
    classes,
  );
}

/**
 * A throwaway PostgreSQL server and a client for the tests of the enclosing describe block
 * (started before them, stopped after them); `unavailable` says why they skip.
 */
export function usePostgres(what: string): { unavailable: string | undefined; client: () => pg.Client } {
  const unavailable = postgresUnavailable();
  if (unavailable) console.warn(`skipping ${what}: ${unavailable}`);
  let server: ServerHandle | undefined;
  let client: pg.Client | undefined;
  beforeAll(async () => {
    if (unavailable) return;
    server = await startPostgres();
    client = await postgresClient(server.url);
  }, 60_000);
  afterAll(async () => {
    await client?.end();
    await server?.stop();
  });
  return { unavailable, client: () => client! };
}

/** A throwaway ClickHouse server for the tests of the enclosing describe block; its URL. */
export function useClickHouse(what: string): { unavailable: string | undefined; url: () => string } {
  const unavailable = clickhouseUnavailable();
  if (unavailable) console.warn(`skipping ${what}: ${unavailable}`);
  let server: ClickHouseHandle | undefined;
  beforeAll(async () => {
    if (!unavailable) server = await startClickHouse();
  }, 60_000);
  afterAll(async () => {
    if (server) await closeClickhouse(server.url);
    await server?.stop();
  });
  return { unavailable, url: () => server!.url };
}
