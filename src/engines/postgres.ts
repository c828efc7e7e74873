import pg from 'pg';
import { GroveError } from '../core/errors.js';
import { postgresDialect, type TimeKind } from '../sql/index.js';
import type { Engine, EngineColumn, SqlValue, TempTable } from './engine.js';
import { checkDatabaseUrl, redactUrl } from './redact.js';
import { asSubquery } from './subquery.js';

// int2, int4, int8, float4, float8, numeric, oid
const NUMERIC_OIDS = new Set([21, 23, 20, 700, 701, 1700, 26]);
// date; timestamp, timestamptz; time, timetz
const TIME_OIDS = new Map<number, TimeKind>([
  [1082, 'date'],
  [1114, 'timestamp'],
  [1184, 'timestamp'],
  [1083, 'time'],
  [1266, 'time'],
]);
const FETCH_ROWS = 20000;
let tempTables = 0;

/**
 * PostgreSQL through `pg`: the URL's user, host, port and database, the rest from the usual
 * PGUSER, PGPASSWORD, PGHOST … variables. Messages never show the password.
 */
export class PostgresEngine implements Engine {
  readonly dialect = postgresDialect;
  private constructor(
    private readonly client: pg.Client,
    private readonly url: string,
    private readonly label: string,
    private readonly secret: string | undefined,
  ) {}
  /** True once the session's transactions are read-only (the rows are the user's query). */
  private readOnly = false;

  static async open(url: string): Promise<PostgresEngine> {
    checkDatabaseUrl(url);
    const secret = new URL(url).password || process.env.PGPASSWORD || undefined;
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
    const engine = new PostgresEngine(client, url, redactUrl(url), secret);
    client.on('error', () => {}); // a dropped connection fails the running query instead
    await engine.run(() => client.connect());
    return engine;
  }

  async query(sql: string, params: readonly SqlValue[] = []): Promise<unknown[][]> {
    const r = await this.run(() => this.client.query({ text: sql, values: params as unknown[], rowMode: 'array' }));
    return r.rows as unknown[][];
  }

  async stream(
    sql: string,
    params: readonly SqlValue[],
    onRows: (rows: unknown[][]) => void | Promise<void>,
  ): Promise<void> {
    await this.query('BEGIN');
    try {
      await this.query(`DECLARE grove_cursor NO SCROLL CURSOR FOR ${sql}`, params);
      for (;;) {
        const rows = await this.query(`FETCH ${FETCH_ROWS} FROM grove_cursor`);
        if (rows.length > 0) await onRows(rows);
        if (rows.length < FETCH_ROWS) break;
      }
    } finally {
      await this.query('ROLLBACK').catch(() => {});
    }
  }

  async columns(relation: string, params: readonly SqlValue[]): Promise<EngineColumn[]> {
    const r = await this.run(() =>
      this.client.query({
        text: `SELECT * FROM ${relation} AS src LIMIT 0`,
        values: params as unknown[],
        rowMode: 'array',
      }),
    );
    return r.fields.map((f) => {
      const time = TIME_OIDS.get(f.dataTypeID);
      if (time) return { name: f.name, type: 'number', time };
      return { name: f.name, type: NUMERIC_OIDS.has(f.dataTypeID) ? 'number' : 'text' };
    });
  }

  /**
   * PostgreSQL parses the text as one statement (the extended protocol refuses more) and plans it
   * without running it, alone and as a subquery (no data-modifying statement is one). The session's
   * transactions are then read-only, so a function the query calls cannot write either.
   */
  async acceptQuery(query: string): Promise<string | undefined> {
    for (const text of [query, `SELECT * FROM ${asSubquery(query)} AS src`]) {
      try {
        await this.client.query({ text: `EXPLAIN ${text}`, queryMode: 'extended' } as pg.QueryConfig);
      } catch (e) {
        return `PostgreSQL: ${this.redacted((e as Error).message)}`;
      }
    }
    await this.query('SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY');
    this.readOnly = true;
    return undefined;
  }

  async tempTable(select: string, params: readonly SqlValue[]): Promise<TempTable> {
    const name = postgresDialect.quote(`grove_rows_${process.pid}_${++tempTables}`);
    const drop = postgresDialect.dropTemporary(name);
    if (!this.readOnly) {
      await this.query(postgresDialect.createTemporary(name, select), params);
      return { name, drop: async () => void (await this.query(drop)) };
    }
    // A read-only transaction may write temporary tables but not create or drop them: the table is
    // made empty in a read-write one, and filled in a read-only one, where the user's query runs.
    await this.readWrite(`CREATE TEMP TABLE ${name} AS ${select} WITH NO DATA`, params);
    await this.query(`INSERT INTO ${name} ${select}`, params);
    return { name, drop: () => this.readWrite(drop, []) };
  }

  /** Run `sql` in a read-write transaction of its own. */
  private async readWrite(sql: string, params: readonly SqlValue[]): Promise<void> {
    await this.query('BEGIN READ WRITE');
    try {
      await this.query(sql, params);
      await this.query('COMMIT');
    } catch (e) {
      await this.query('ROLLBACK').catch(() => {});
      throw e;
    }
  }

  async close(): Promise<void> {
    await this.client.end().catch(() => {});
  }

  /** Cancel the running query from a second connection (`pg_cancel_backend`), as psql's Ctrl-C does. */
  async interrupt(): Promise<void> {
    const pid = (this.client as unknown as { processID?: number }).processID;
    if (pid === undefined) return;
    const other = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 5000 });
    other.on('error', () => {});
    try {
      await other.connect();
      await other.query('SELECT pg_cancel_backend($1)', [pid]);
    } catch {
      // the query fails anyway when the connection closes
    } finally {
      await other.end().catch(() => {});
    }
  }

  /** Run `f`, turning a failure into a GroveError that names the server but never the password. */
  private async run<T>(f: () => Promise<T>): Promise<T> {
    try {
      return await f();
    } catch (e) {
      if (e instanceof GroveError) throw e;
      const message = (e as Error).message.split('\n')[0] || String((e as { code?: string }).code ?? e);
      throw new GroveError(`PostgreSQL (${this.label}): ${this.redacted(message)}`, { code: 'E_IO' });
    }
  }

  private redacted(message: string): string {
    return this.secret ? message.replaceAll(this.secret, '***') : message;
  }
}
