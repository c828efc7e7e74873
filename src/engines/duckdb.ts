import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBConnection, DuckDBInstance, DuckDBTypeId, type DuckDBValue, StatementType } from '@duckdb/node-api';
import { GroveError } from '../core/errors.js';
import type { NumberSink } from '../data/typed-fields.js';
import type { TimeKind } from '../sql/index.js';
import { duckdbDialect } from '../sql/index.js';
import { type DuckDBMemory, duckdbMemory, duckdbSize, isOutOfMemory } from './duckdb-memory.js';
import { readDoubles } from './duckdb-vectors.js';
import type { Engine, EngineColumn, SqlValue, TempTable } from './engine.js';
import { asSubquery } from './subquery.js';

let tempTables = 0;

const NUMERIC_TYPES =
  /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|FLOAT|DOUBLE|DECIMAL)/;

/** A DuckDB type of dates or times (`DATE`, `TIMESTAMP_NS`, `TIMESTAMP WITH TIME ZONE`, `TIME`), else undefined. */
function duckdbTimeKind(type: string): TimeKind | undefined {
  if (type === 'DATE') return 'date';
  if (/^TIMESTAMP(_S|_MS|_NS| WITH TIME ZONE)?$/.test(type)) return 'timestamp';
  if (/^TIME( WITH TIME ZONE)?$/.test(type)) return 'time';
  return undefined;
}

/** Rows of DuckDB values as plain JS: BIGINT and HUGEINT as numbers. */
function plain(rows: unknown[][]): unknown[][] {
  for (const row of rows) for (let j = 0; j < row.length; j++) if (typeof row[j] === 'bigint') row[j] = Number(row[j]);
  return rows;
}

/** `out` as a sink of numbers, missing as NaN. */
function arraySink(out: Float64Array): Pick<NumberSink, 'set' | 'setMany'> {
  return {
    set: (i, value) => void (out[i] = value ?? Number.NaN),
    setMany: (start, values) => out.set(values, start),
  };
}

/**
 * DuckDB, embedded (`@duckdb/node-api`): an in-memory database that reads files itself
 * (read_csv, read_parquet), or a database file opened read-only. grove's own tables go to a
 * database file of its own in a temporary folder (with what spills beyond the memory limit),
 * removed on close: read back through the buffer pool, whose pages of them DuckDB may drop and
 * read again (an in-memory table's pages would first be written to the spill folder).
 */
export class DuckDBEngine implements Engine {
  readonly dialect = duckdbDialect;
  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly conn: DuckDBConnection,
    /** The spill folder, which holds the work database too; removed on close. */
    private readonly tempDirectory: string,
    /** The attached database (quoted) of grove's tables. */
    private readonly work: string,
    private readonly memory: DuckDBMemory,
  ) {}
  private closed = false;

  /**
   * Open `path` (a .duckdb file, read-only) or an in-memory database (`:memory:`), with `memory`
   * (default: from the environment, {@link duckdbMemory}).
   */
  static async open(path = ':memory:', memory: DuckDBMemory = duckdbMemory()): Promise<DuckDBEngine> {
    const spill = mkdtempSync(join(tmpdir(), 'grove-duckdb-'));
    const config: Record<string, string> = { memory_limit: memory.setting, temp_directory: spill };
    if (path !== ':memory:') config.access_mode = 'READ_ONLY';
    // A name no database the user's file attaches can have (its catalog is named after the file).
    const work = duckdbDialect.quote(`grove_work_${process.pid}_${randomUUID().slice(0, 8)}`);
    let instance: DuckDBInstance | undefined;
    try {
      instance = await DuckDBInstance.create(path, config);
      const conn = await DuckDBConnection.create(instance);
      // A literal, not a parameter (ATTACH takes none); READ_WRITE, as a read-only instance
      // attaches read-only by default.
      const file = duckdbDialect.string(join(spill, 'work.duckdb'));
      await conn.run(`ATTACH ${file} AS ${work} (READ_WRITE)`);
      // grove's tables (the only ones written) are written once and read a few times: choosing
      // each segment's compression costs more time than reading it compressed saves.
      await conn.run(`SET force_compression = 'uncompressed'`);
      return new DuckDBEngine(instance, conn, spill, work, memory);
    } catch (e) {
      instance?.closeSync();
      rmSync(spill, { recursive: true, force: true });
      throw new GroveError(`cannot open DuckDB database: ${(e as Error).message.split('\n')[0]}`, {
        file: path,
        code: 'E_IO',
      });
    }
  }

  async query(sql: string, params: readonly SqlValue[] = []): Promise<unknown[][]> {
    const reader = await this.run(() => this.conn.runAndReadAll(sql, params as DuckDBValue[]));
    return plain(reader.getRowsJS() as unknown[][]);
  }

  async stream(
    sql: string,
    params: readonly SqlValue[],
    onRows: (rows: unknown[][]) => void | Promise<void>,
  ): Promise<void> {
    await this.runReading(async (handOn) => {
      const result = await this.conn.stream(sql, params as DuckDBValue[]);
      for await (const rows of result.yieldRowsJs()) {
        handOn();
        await onRows(plain(rows as unknown[][]));
      }
    });
  }

  async streamNumbers(
    sql: string,
    params: readonly SqlValue[],
    onChunk: (columns: Float64Array[], rows: number) => void,
  ): Promise<void> {
    const columns: Float64Array[] = [];
    const sinks: Pick<NumberSink, 'set' | 'setMany'>[] = [];
    await this.runReading(async (handOn) => {
      const result = await this.conn.stream(sql, params as DuckDBValue[]);
      // A DOUBLE column (every count and value grove asks for) is copied in bulk, others value by value.
      const doubles = Array.from(
        { length: result.columnCount },
        (_, c) => result.columnTypeId(c) === DuckDBTypeId.DOUBLE,
      );
      for (;;) {
        const chunk = await result.fetchChunk();
        if (!chunk || chunk.rowCount === 0) break;
        const n = chunk.rowCount;
        for (let c = 0; c < chunk.columnCount; c++) {
          if (!columns[c] || columns[c].length < n) {
            columns[c] = new Float64Array(n);
            sinks[c] = arraySink(columns[c]);
          }
          const out = columns[c];
          if (doubles[c]) {
            readDoubles(chunk.chunk, c, n, sinks[c], 0);
            continue;
          }
          const vector = chunk.getColumnVector(c);
          for (let r = 0; r < n; r++) {
            const v = vector.getItem(r);
            out[r] = v === null ? Number.NaN : Number(v);
          }
        }
        handOn();
        onChunk(columns, n);
      }
    });
  }

  async columns(relation: string, params: readonly SqlValue[]): Promise<EngineColumn[]> {
    const result = await this.run(() =>
      this.conn.run(`SELECT * FROM ${relation} AS src LIMIT 0`, params as DuckDBValue[]),
    );
    const types = result.columnTypes().map(String);
    return result.columnNames().map((name, j) => {
      const time = duckdbTimeKind(types[j]);
      if (time) return { name, type: 'number', time };
      return { name, type: NUMERIC_TYPES.test(types[j]) ? 'number' : 'text' };
    });
  }

  async tempTable(select: string, params: readonly SqlValue[]): Promise<TempTable> {
    const name = `${this.work}.main.${duckdbDialect.quote(`grove_rows_${process.pid}_${++tempTables}`)}`;
    // The table's row order does not matter (it is only counted): DuckDB may then write it in parallel.
    await this.run(() => this.conn.run('SET preserve_insertion_order = false'));
    try {
      await this.run(() => this.conn.run(duckdbDialect.createTemporary(name, select), params as DuckDBValue[]));
    } finally {
      await this.run(() => this.conn.run('RESET preserve_insertion_order'));
    }
    return { name, drop: async () => void (await this.run(() => this.conn.run(duckdbDialect.dropTemporary(name)))) };
  }

  /**
   * DuckDB's parser splits the text into statements, and preparing the one statement (nothing runs)
   * tells its type; the user's database file is open read-only.
   */
  async acceptQuery(query: string): Promise<string | undefined> {
    for (const text of [query, `SELECT * FROM ${asSubquery(query)} AS src`]) {
      let statements: Awaited<ReturnType<DuckDBConnection['extractStatements']>>;
      let type: StatementType;
      try {
        statements = await this.conn.extractStatements(text);
        if (statements.count !== 1) return `DuckDB reads ${statements.count} statements in it`;
        type = (await statements.prepare(0)).statementType;
      } catch (e) {
        return `DuckDB: ${(e as Error).message}`;
      }
      if (type !== StatementType.SELECT) return `DuckDB reads a ${StatementType[type] ?? type} statement`;
    }
    return undefined;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.conn.closeSync();
    this.instance.closeSync();
    rmSync(this.tempDirectory, { recursive: true, force: true });
  }

  /** Interrupt the running query (Ctrl-C): it fails with DuckDB's "interrupted" error. */
  async interrupt(): Promise<void> {
    this.conn.interrupt();
  }

  /**
   * Run `read` (a streamed statement and the reading of its result) as {@link run} does, retried
   * only until it calls `handOn` (before it hands the first rows on).
   */
  private async runReading(read: (handOn: () => void) => Promise<void>): Promise<void> {
    let handedOn = false;
    await this.run(
      () => read(() => void (handedOn = true)),
      () => !handedOn,
    );
  }

  /**
   * Run `f` (a statement, and the reading of its result) with DuckDB's errors as GroveErrors. A
   * statement that runs out of memory runs again with 1.5 × the limit, up to `memory.most`, while
   * `retriable()` says none of its result has been handed on; the start limit then comes back.
   */
  private async run<T>(f: () => Promise<T>, retriable: () => boolean = () => true): Promise<T> {
    const { start, most } = this.memory;
    let limit = start;
    try {
      for (;;) {
        try {
          return await f();
        } catch (e) {
          if (e instanceof GroveError) throw e;
          const outOfMemory = isOutOfMemory(e);
          if (!outOfMemory || !retriable() || limit >= most) throw duckdbError(e, outOfMemory);
          limit = Math.min(Math.round(1.5 * limit), most);
          await this.conn.run(`SET memory_limit = '${duckdbSize(limit)}'`).catch((e2) => {
            throw duckdbError(e2, false);
          });
        }
      }
    } finally {
      // A limit that cannot come back yet (pages DuckDB cannot drop) stays where it is.
      if (limit !== start) await this.conn.run(`SET memory_limit = '${duckdbSize(start)}'`).catch(() => {});
    }
  }
}

/** DuckDB's error as a one-line GroveError; out of memory with where to give more. */
function duckdbError(e: unknown, outOfMemory: boolean): GroveError {
  const hint = outOfMemory ? ' (GROVE_DUCKDB_MEMORY_MAX sets the most DuckDB may have)' : '';
  return new GroveError(`DuckDB: ${(e as Error).message.split('\n')[0]}${hint}`, { code: 'E_DATA' });
}
