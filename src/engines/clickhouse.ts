import { GroveError } from '../core/errors.js';
import type { SqlDialect } from './dialect.js';
import type { Engine, EngineColumn, SqlValue, TempTable } from './engine.js';
import { redactUrl } from './redact.js';

/** UTF-8 bytes of `s` in hex. */
function hexOf(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}

/**
 * ClickHouse. The server this is tested with (18.16, Debian's) has no query parameters (they came
 * in 19.x), so a value is written as its bytes in hex — `unhex('…')` for text, the 8 bytes of the
 * double for a number, which also keeps it exact — and nothing from the data is ever parsed as SQL.
 */
export const clickhouseDialect: SqlDialect = {
  name: 'clickhouse',
  quote: (id) => `\`${id.replaceAll('\\', '\\\\').replaceAll('`', '\\`')}\``,
  placeholder: (_i, v) => {
    if (typeof v === 'string') return `unhex('${hexOf(new TextEncoder().encode(v))}')`;
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setFloat64(0, v, true);
    return `reinterpretAsFloat64(unhex('${hexOf(bytes)}'))`;
  },
  trim: (e) => `replaceRegexpAll(${e}, '^ +| +$', '')`,
  toDouble: (e) => `toFloat64OrNull(toString(${e}))`,
  toText: (e) => `toString(${e})`,
  fullMatch: (e, p) => `match(${e}, ${p})`,
  nanToNull: (e) => `if(isNaN(${e}), NULL, ${e})`,
  rowNumber: 'rowNumberInAllBlocks()',
  intType: (max) => (max < 256 ? 'UInt8' : max < 65536 ? 'UInt16' : 'UInt32'),
  groupByEveryCode: (relation, codes) =>
    `SELECT node, y, toUInt32(fi - 1) AS f, code, sum(w) AS weight, toFloat64(count()) AS n FROM ${relation} ` +
    `ARRAY JOIN arrayEnumerate([${codes.map((c) => `toUInt32(${c})`).join(', ')}]) AS fi, ` +
    `[${codes.map((c) => `toUInt32(${c})`).join(', ')}] AS code GROUP BY node, y, f, code`,
};

/** The longest query text grove sends (a setting of each request). */
const MAX_QUERY_BYTES = 64 << 20;
/** The largest syntax tree of a query grove sends. */
const MAX_AST = 10_000_000;

const NUMERIC = /^(Nullable\()?(U?Int\d+|Float\d+|Decimal)/;

/**
 * ClickHouse through its HTTP interface (`fetch`, JSONCompact results): `clickhouse://host:port/db`,
 * the user and password from the URL or CLICKHOUSE_USER / CLICKHOUSE_PASSWORD. The counts of a
 * Distributed table are computed on its shards and merged by the server grove talks to.
 */
export class ClickHouseEngine implements Engine {
  readonly dialect = clickhouseDialect;
  private constructor(
    private readonly endpoint: string,
    private readonly headers: Record<string, string>,
    private readonly label: string,
    private readonly secret: string | undefined,
  ) {}

  static async open(url: string): Promise<ClickHouseEngine> {
    const u = new URL(url);
    const user = decodeURIComponent(u.username) || process.env.CLICKHOUSE_USER || 'default';
    const password = decodeURIComponent(u.password) || process.env.CLICKHOUSE_PASSWORD || '';
    const db = u.pathname.replace(/^\//, '') || 'default';
    // The coded rows carry every bin edge in the query text: 20 features × 255 edges pass the
    // server's default max_query_size (256 KiB) and max_ast_elements (50,000).
    const limits = `max_query_size=${MAX_QUERY_BYTES}&max_ast_elements=${MAX_AST}&max_expanded_ast_elements=${MAX_AST}`;
    const endpoint = `http://${u.hostname}:${u.port || '8123'}/?database=${encodeURIComponent(db)}&${limits}`;
    const headers = { 'X-ClickHouse-User': user, 'X-ClickHouse-Key': password };
    const engine = new ClickHouseEngine(endpoint, headers, redactUrl(url), password || undefined);
    await engine.query('SELECT 1');
    return engine;
  }

  async query(sql: string): Promise<unknown[][]> {
    let response: Response;
    try {
      response = await fetch(this.endpoint, {
        method: 'POST',
        headers: this.headers,
        body: /^\s*(SELECT|WITH|DESCRIBE)\b/i.test(sql) ? `${sql} FORMAT JSONCompact` : sql,
        signal: AbortSignal.timeout(600_000),
      });
    } catch (e) {
      const cause = (e as { cause?: { code?: string } }).cause?.code ?? (e as Error).message;
      throw this.fail(`cannot connect (${cause})`);
    }
    const text = await response.text();
    if (!response.ok) throw this.fail(text.split('\n')[0].slice(0, 500));
    if (text.trim() === '') return [];
    const json = JSON.parse(text) as { data: unknown[][]; meta: { name: string; type: string }[] };
    return json.data;
  }

  async stream(
    sql: string,
    _params: readonly SqlValue[],
    onRows: (rows: unknown[][]) => void | Promise<void>,
  ): Promise<void> {
    await onRows(await this.query(sql));
  }

  async columns(relation: string): Promise<EngineColumn[]> {
    const response = await this.query(`SELECT name, type FROM (DESCRIBE TABLE (SELECT * FROM ${relation}))`).catch(
      async () => {
        // DESCRIBE of a subquery is newer than some servers: read the types from an empty result.
        const r = await fetch(this.endpoint, {
          method: 'POST',
          headers: this.headers,
          body: `SELECT * FROM ${relation} LIMIT 0 FORMAT JSONCompact`,
        });
        const text = await r.text();
        if (!r.ok) throw this.fail(text.split('\n')[0].slice(0, 500));
        return (JSON.parse(text) as { meta: { name: string; type: string }[] }).meta.map((m) => [m.name, m.type]);
      },
    );
    return response.map(([name, type]) => ({
      name: String(name),
      type: NUMERIC.test(String(type)) ? 'number' : 'text',
    }));
  }

  /** No temporary table: the level queries read the source, so a Distributed table counts on its shards. */
  async tempTable(): Promise<TempTable | null> {
    return null;
  }

  async close(): Promise<void> {}

  private fail(message: string): GroveError {
    const safe = this.secret ? message.replaceAll(this.secret, '***') : message;
    return new GroveError(`ClickHouse (${this.label}): ${safe}`, { code: 'E_IO' });
  }
}
