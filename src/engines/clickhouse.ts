import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { GroveError } from '../core/errors.js';
import { clickhouseDialect } from '../sql/index.js';
import {
  CANNOT_CONNECT,
  NoAnswer,
  refusesDdl,
  SESSION_NOT_FOUND,
  SESSION_TOO_LONG,
  ServerError,
  timeoutSeconds,
} from './clickhouse-errors.js';
import { namedTables } from './clickhouse-names.js';
import { CLICKHOUSE_NUMERIC, clickhouseTimeKind, type TsvCell, TsvRows } from './clickhouse-tsv.js';
import type { Engine, EngineColumn, SqlValue, TempTable } from './engine.js';
import { checkDatabaseUrl, redactUrl } from './redact.js';
import { asSubquery } from './subquery.js';

/** The longest query text grove sends (a setting of each request). */
const MAX_QUERY_BYTES = 64 << 20;
/** The largest syntax tree of a query grove sends. */
const MAX_AST = 10_000_000;

/** Table engines whose rows may live on other servers, or behind a view. */
const SPREAD_ENGINES = ['Distributed', 'Merge', 'View', 'MaterializedView', 'Buffer'];

/** Rows a streamed result hands over at a time. */
const STREAM_ROWS = 4096;

/**
 * A streamed query's settings: the server holds the result until the query is done (spilling to
 * its temporary files), so an error it meets midway is an HTTP error, not text after some rows.
 */
const STREAMED = '&wait_end_of_query=1';

/**
 * Seconds the server keeps grove's session (its temporary tables) after its last query: the
 * largest a server allows by default (max_session_timeout), where its default is 60.
 */
const SESSION_SECONDS = 3600;

/**
 * ClickHouse through its HTTP interface (JSONCompact results, or tab-separated ones streamed as they
 * arrive): `clickhouse://host:port/db`,
 * the user and password from the URL or CLICKHOUSE_USER / CLICKHOUSE_PASSWORD. Over a Distributed
 * table grove's queries are flat (flat.ts): each shard counts its own rows and the server grove
 * talks to merges the counts (docs/in-database.md, "On a real ClickHouse cluster").
 */
export class ClickHouseEngine implements Engine {
  readonly dialect = clickhouseDialect;
  /** Temporary tables made so far (their names' numbers). */
  private tables = 0;
  /** Requests sent so far (their query ids' numbers). */
  private requests = 0;
  /** The query ids of the requests still running (stopped by `interrupt`). */
  private readonly running = new Set<string>();
  /**
   * The session's settings; after the first query with `session_check=1`: an expired session is
   * then an error, not a new, empty one.
   */
  private session: string;
  private readonly queryIds = `grove-${randomUUID()}`;
  /**
   * This engine's connections, closed with it: Node's global agent keeps idle sockets that the
   * server closes after its keep-alive timeout, and a request sent on one meets ECONNRESET.
   */
  private readonly agent = new Agent({ keepAlive: true });
  /** `&readonly=2` once the rows are the user's query (reading and temporary tables only). */
  private readOnly = '';
  private constructor(
    /** The server's URL with the database and limits, without the session. */
    private readonly endpoint: string,
    sessionId: string,
    private readonly headers: Record<string, string>,
    private readonly label: string,
    private readonly secret: string | undefined,
    private readonly timeout: number,
  ) {
    this.session = `&session_id=${sessionId}&session_timeout=${SESSION_SECONDS}`;
  }

  static async open(url: string): Promise<ClickHouseEngine> {
    checkDatabaseUrl(url);
    const u = new URL(url);
    const user = decodeURIComponent(u.username) || process.env.CLICKHOUSE_USER || 'default';
    const password = decodeURIComponent(u.password) || process.env.CLICKHOUSE_PASSWORD || '';
    const db = u.pathname.replace(/^\//, '') || 'default';
    // The coded rows carry every bin edge in the query text, and the walk every split: more than the
    // server's default max_query_size (256 KiB) and max_ast_elements (50,000) allow.
    const limits = `max_query_size=${MAX_QUERY_BYTES}&max_ast_elements=${MAX_AST}&max_expanded_ast_elements=${MAX_AST}`;
    // One HTTP session per engine: its temporary tables (the coded rows, the level tables) are seen
    // only by its queries, and the server drops them when the session ends.
    const session = `grove-${process.pid}-${randomUUID()}`;
    const endpoint = `http://${u.hostname}:${u.port || '8123'}/?database=${encodeURIComponent(db)}&${limits}`;
    const headers = { 'X-ClickHouse-User': user, 'X-ClickHouse-Key': password };
    const engine = new ClickHouseEngine(
      endpoint,
      session,
      headers,
      redactUrl(url),
      password || undefined,
      timeoutSeconds(),
    );
    await engine.query('SELECT 1').catch(async (e: unknown) => {
      // A server whose max_session_timeout is lower: its default session timeout.
      if (!(e instanceof ServerError && SESSION_TOO_LONG.test(e.serverMessage))) throw e;
      engine.session = `&session_id=${session}`;
      await engine.query('SELECT 1');
    });
    engine.session += '&session_check=1';
    return engine;
  }

  async query(sql: string): Promise<unknown[][]> {
    const text = await this.post(/^\s*(SELECT|WITH|DESCRIBE)\b/i.test(sql) ? `${sql} FORMAT JSONCompact` : sql);
    if (text.trim() === '') return [];
    const json = JSON.parse(text) as { data: unknown[][]; meta: { name: string; type: string }[] };
    return json.data;
  }

  async stream(
    sql: string,
    _params: readonly SqlValue[],
    onRows: (rows: unknown[][]) => void | Promise<void>,
  ): Promise<void> {
    let rows: TsvCell[][] = [];
    await this.streamRows(
      sql,
      (row) => rows.push(row),
      () => {
        if (rows.length < STREAM_ROWS) return;
        const full = rows;
        rows = [];
        return onRows(full);
      },
    );
    if (rows.length > 0) await onRows(rows);
  }

  async streamNumbers(
    sql: string,
    _params: readonly SqlValue[],
    onChunk: (columns: Float64Array[], rows: number) => void,
  ): Promise<void> {
    let columns: Float64Array[] = [];
    let n = 0;
    await this.streamRows(
      sql,
      (row) => {
        if (columns.length !== row.length) columns = row.map(() => new Float64Array(STREAM_ROWS));
        for (let j = 0; j < row.length; j++) columns[j][n] = row[j] === null ? Number.NaN : Number(row[j]);
        if (++n === STREAM_ROWS) {
          onChunk(columns, n);
          n = 0;
        }
      },
      () => undefined,
    );
    if (n > 0) onChunk(columns, n);
  }

  async columns(relation: string): Promise<EngineColumn[]> {
    const response = await this.query(`SELECT name, type FROM (DESCRIBE TABLE (SELECT * FROM ${relation}))`).catch(
      async () => {
        // DESCRIBE of a subquery is newer than some servers: read the types from an empty result.
        const text = await this.post(`SELECT * FROM ${relation} LIMIT 0 FORMAT JSONCompact`);
        return (JSON.parse(text) as { meta: { name: string; type: string }[] }).meta.map((m) => [m.name, m.type]);
      },
    );
    return response.map(([name, type]) => {
      const time = clickhouseTimeKind(String(type));
      if (time) return { name: String(name), type: 'number', time };
      return { name: String(name), type: CLICKHOUSE_NUMERIC.test(String(type)) ? 'number' : 'text' };
    });
  }

  /**
   * A temporary table (engine Memory) of the session holding the rows of `select`, computed once —
   * or null when `source` (the user's FROM item the rows come from) may read rows that live on other
   * servers (a Distributed or Merge table, a view, a Buffer, `remote()`/`cluster()`): the level
   * queries then read the source (flat.ts), and the server grove talks to never holds a copy of all
   * the rows.
   * Without `source` (grove's own temporary tables) the table is always made.
   */
  async tempTable(select: string, _params: readonly SqlValue[] = [], source?: string): Promise<TempTable | null> {
    if (source !== undefined && (await this.rowsElsewhere(source))) return null;
    const name = this.dialect.quote(`grove_rows_${process.pid}_${++this.tables}`);
    try {
      await this.post(this.dialect.createTemporary(name, select));
    } catch (e) {
      // A user without DDL rights (readonly=1, allow_ddl=0): the level queries read the source.
      if (source !== undefined && e instanceof ServerError && refusesDdl(e.serverMessage)) return null;
      throw e;
    }
    // A failed drop (the session still busy with a query grove gave up on) leaves the table to the
    // session's end, and the error that stopped growth is the one reported.
    const drop = () =>
      this.post(this.dialect.dropTemporary(name)).then(
        () => undefined,
        () => undefined,
      );
    return { name, drop };
  }

  /**
   * True when `source` calls a table function that reads other servers, or names a table (whole
   * identifier; unqualified: of the session's database) whose engine may.
   */
  async rowsElsewhere(source: string): Promise<boolean> {
    const { tables, remote } = namedTables(source);
    if (remote) return true;
    if (tables.length === 0) return false;
    const engines = SPREAD_ENGINES.map((e) => `'${e}'`).join(', ');
    const spread = await this.query(
      `SELECT database, name, currentDatabase() FROM system.tables WHERE engine IN (${engines})`,
    );
    const key = (database: string, name: string) => `${database}\u0000${name}`;
    const names = new Set(spread.map(([database, name]) => key(String(database), String(name))));
    const current = String(spread[0]?.[2] ?? '');
    return tables.some((t) => names.has(key(t.database ?? current, t.name)));
  }

  /**
   * The server refuses more than one statement in a request; the query then runs as a subquery
   * (no result rows) under `readonly=2`, which allows reading and temporary tables only, as all of
   * the session's queries then do (unless the user's profile is read-only already). A server that
   * knows EXPLAIN also parses the query alone: one SELECT.
   */
  async acceptQuery(query: string): Promise<string | undefined> {
    const said = (e: unknown) => (e instanceof ServerError ? e.serverMessage : (e as Error).message);
    const [[readonly]] = await this.query("SELECT value FROM system.settings WHERE name = 'readonly'");
    if (String(readonly) === '0') this.readOnly = '&readonly=2';
    try {
      await this.post(`SELECT * FROM ${asSubquery(query)} AS src LIMIT 0`);
    } catch (e) {
      return `ClickHouse: ${said(e)}`;
    }
    const explained = await this.post(`EXPLAIN AST ${query}`).catch((e: unknown) => e);
    if (typeof explained === 'string')
      return /^\s*SelectWithUnionQuery\b/.test(explained) ? undefined : 'ClickHouse reads no SELECT in it';
    // A server without EXPLAIN refuses even the simplest one.
    if ((await this.post('EXPLAIN AST SELECT 1').catch(() => undefined)) === undefined) return undefined;
    return `ClickHouse: ${said(explained)}`;
  }

  async close(): Promise<void> {
    this.agent.destroy();
  }

  /**
   * Stop the running queries (Ctrl-C), which then fail: `KILL QUERY` by their ids, sent outside the
   * session (which is busy with them), answered once they have stopped (`SYNC`).
   */
  async interrupt(): Promise<void> {
    if (this.running.size === 0) return;
    const ids = [...this.running].map((id) => `'${id}'`).join(', ');
    await this.request(`KILL QUERY WHERE query_id IN (${ids}) SYNC`, '', () => undefined, false).catch(() => undefined);
  }

  /** POST `body` and return the answer's text. */
  private async post(body: string): Promise<string> {
    const chunks: Buffer[] = [];
    await this.request(body, '', (chunk) => {
      chunks.push(chunk);
    });
    return Buffer.concat(chunks).toString('utf8');
  }

  /**
   * Run `sql` and hand its rows to `onRow` as they arrive; after each arrival `drained` may return a
   * promise, and no more bytes are read until it settles (bounded memory whatever the result's size).
   */
  private async streamRows(
    sql: string,
    onRow: (row: TsvCell[]) => void,
    drained: () => void | Promise<void>,
  ): Promise<void> {
    const rows = new TsvRows(onRow, (message) => this.fail(message));
    await this.request(`${sql} FORMAT TabSeparatedWithNamesAndTypes`, STREAMED, (chunk) => {
      rows.push(chunk);
      return drained();
    });
    rows.end();
  }

  /**
   * POST `body` with `settings` appended to the URL (`&name=value…`), handing each chunk of a successful answer
   * to `onData`
   * (pausing while a promise it returns is pending). `node:http` rather than `fetch`: fetch gives
   * up on a response whose headers take over 300 s, and ClickHouse sends them only when the query
   * is done.
   */
  private request(
    body: string,
    settings: string,
    onData: (chunk: Buffer) => void | Promise<void>,
    inSession = true,
  ): Promise<void> {
    if (Buffer.byteLength(body) > MAX_QUERY_BYTES)
      throw new GroveError(
        `ClickHouse (${this.label}): a query of ${(Buffer.byteLength(body) / 2 ** 20).toFixed(0)} MiB ` +
          `is over the max_query_size grove sets (${MAX_QUERY_BYTES / 2 ** 20} MiB); ` +
          'over rows on other servers each level query carries the tree so far: give a smaller --max-depth',
        { code: 'E_DATA' },
      );
    const id = `${this.queryIds}-${++this.requests}`;
    const url = `${this.endpoint}${inSession ? this.session + this.readOnly : ''}&query_id=${id}${settings}`;
    this.running.add(id);
    return new Promise<void>((resolve, reject) => {
      const req = request(url, { method: 'POST', headers: this.headers, agent: this.agent }, (res) => {
        const failed = res.statusCode !== 200;
        const errorText: Buffer[] = [];
        res.on('data', (chunk: Buffer) => {
          if (failed) return void errorText.push(chunk);
          try {
            const wait = onData(chunk);
            if (!wait) return;
            res.pause();
            wait.then(
              () => res.resume(),
              (e: unknown) => {
                reject(e);
                req.destroy();
              },
            );
          } catch (e) {
            reject(e);
            req.destroy();
          }
        });
        res.on('error', (e) => reject(this.requestFailed(e)));
        res.on('end', () => {
          if (failed) reject(this.serverError(Buffer.concat(errorText).toString('utf8').split('\n')[0].slice(0, 500)));
          else resolve();
        });
      });
      // No byte for `timeout` seconds (the server is still counting): give up, and say so.
      req.setTimeout(this.timeout * 1000, () => req.destroy(new NoAnswer()));
      req.on('error', (e) => reject(this.requestFailed(e)));
      req.end(body);
    }).finally(() => this.running.delete(id));
  }

  /** A server's error answer: an expired session said plainly. */
  private serverError(message: string): ServerError {
    const said = SESSION_NOT_FOUND.test(message)
      ? `the session ended (its timeout passed, or the server restarted) and its temporary tables with it: ${message}`
      : message;
    return new ServerError(this.redacted(`ClickHouse (${this.label}): ${said}`), message);
  }

  private requestFailed(e: Error): GroveError {
    if (e instanceof NoAnswer)
      return this.fail(
        `no answer within ${this.timeout} s ` +
          '(GROVE_CLICKHOUSE_TIMEOUT sets the seconds; the query may still run on the server)',
      );
    const code = (e as { code?: string }).code ?? e.message;
    return this.fail(CANNOT_CONNECT.has(code) ? `cannot connect (${code})` : `request failed (${code})`);
  }

  private fail(message: string): GroveError {
    return new GroveError(this.redacted(`ClickHouse (${this.label}): ${message}`), { code: 'E_IO' });
  }

  private redacted(message: string): string {
    return this.secret ? message.replaceAll(this.secret, '***') : message;
  }
}
