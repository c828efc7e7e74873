import { DuckDBConnection, DuckDBInstance, type DuckDBValue } from '@duckdb/node-api';
import { GroveError } from '../core/errors.js';
import { groupingSets, quoteDoubled, type SqlDialect } from './dialect.js';
import type { Engine, EngineColumn, SqlValue, TempTable } from './engine.js';

let tempTables = 0;

export const duckdbDialect: SqlDialect = {
  name: 'duckdb',
  quote: quoteDoubled,
  placeholder: (i) => `$${i}`,
  trim: (e) => `TRIM(${e})`,
  toDouble: (e) => `CAST(${e} AS DOUBLE)`,
  toText: (e) => `CAST(${e} AS VARCHAR)`,
  fullMatch: (e, p) => `regexp_full_match(${e}, ${p})`,
  nanToNull: (e) => `CASE WHEN isnan(${e}) THEN NULL ELSE ${e} END`,
  rowNumber: 'row_number() OVER ()',
  intType: (max) => (max < 256 ? 'UTINYINT' : max < 65536 ? 'USMALLINT' : 'INTEGER'),
  listAgg: (e, o) => `list(${e} ORDER BY ${o})`,
  countDistinct: (e) => `COUNT(DISTINCT ${e})`,
  groupByEveryCode: (relation, codes) => groupingSets(relation, codes, (e) => `CAST(${e} AS DOUBLE)`),
};

const NUMERIC_TYPES =
  /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|FLOAT|DOUBLE|DECIMAL)/;

/** Rows of DuckDB values as plain JS: BIGINT and HUGEINT as numbers. */
function plain(rows: unknown[][]): unknown[][] {
  for (const row of rows) for (let j = 0; j < row.length; j++) if (typeof row[j] === 'bigint') row[j] = Number(row[j]);
  return rows;
}

/**
 * DuckDB, embedded (`@duckdb/node-api`): an in-memory database that reads files itself
 * (read_csv, read_parquet), or a database file opened read-only.
 */
export class DuckDBEngine implements Engine {
  readonly dialect = duckdbDialect;
  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly conn: DuckDBConnection,
  ) {}

  /** Open `path` (a .duckdb file, read-only) or an in-memory database (`:memory:`). */
  static async open(path = ':memory:', memoryLimit?: string): Promise<DuckDBEngine> {
    const config: Record<string, string> = {};
    if (path !== ':memory:') config.access_mode = 'READ_ONLY';
    if (memoryLimit) config.memory_limit = memoryLimit;
    let instance: DuckDBInstance;
    try {
      instance = await DuckDBInstance.create(path, config);
    } catch (e) {
      throw new GroveError(`cannot open DuckDB database: ${(e as Error).message.split('\n')[0]}`, {
        file: path,
        code: 'E_IO',
      });
    }
    return new DuckDBEngine(instance, await DuckDBConnection.create(instance));
  }

  async query(sql: string, params: readonly SqlValue[] = []): Promise<unknown[][]> {
    const reader = await this.run(() => this.conn.runAndReadAll(sql, params as DuckDBValue[]));
    return plain(reader.getRowsJS() as unknown[][]);
  }

  async queryColumns(sql: string, params: readonly SqlValue[] = []): Promise<unknown[][]> {
    const reader = await this.run(() => this.conn.runAndReadAll(sql, params as DuckDBValue[]));
    return reader.getColumnsJS() as unknown[][];
  }

  async stream(sql: string, params: readonly SqlValue[], onRows: (rows: unknown[][]) => void): Promise<void> {
    const result = await this.run(() => this.conn.stream(sql, params as DuckDBValue[]));
    await this.run(async () => {
      for await (const rows of result.yieldRowsJs()) onRows(plain(rows as unknown[][]));
    });
  }

  async columns(relation: string, params: readonly SqlValue[]): Promise<EngineColumn[]> {
    const result = await this.run(() =>
      this.conn.run(`SELECT * FROM ${relation} AS src LIMIT 0`, params as DuckDBValue[]),
    );
    const types = result.columnTypes().map(String);
    return result.columnNames().map((name, j) => ({ name, type: NUMERIC_TYPES.test(types[j]) ? 'number' : 'text' }));
  }

  async tempTable(select: string, params: readonly SqlValue[]): Promise<TempTable> {
    const name = quoteDoubled(`grove_rows_${process.pid}_${++tempTables}`);
    await this.run(() => this.conn.run(`CREATE TEMP TABLE ${name} AS ${select}`, params as DuckDBValue[]));
    return { name, drop: async () => void (await this.run(() => this.conn.run(`DROP TABLE IF EXISTS ${name}`))) };
  }

  async close(): Promise<void> {
    this.conn.closeSync();
    this.instance.closeSync();
  }

  /** Interrupt the running query (Ctrl-C). */
  interrupt(): void {
    this.conn.interrupt();
  }

  private async run<T>(f: () => Promise<T>): Promise<T> {
    try {
      return await f();
    } catch (e) {
      throw new GroveError(`DuckDB: ${(e as Error).message.split('\n')[0]}`, { code: 'E_DATA' });
    }
  }
}
