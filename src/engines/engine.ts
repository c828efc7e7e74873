import { GroveError } from '../core/errors.js';
import type { TimeUnit } from '../data/dataset.js';
import type { Dialect, SqlValue, TimeKind } from '../sql/index.js';

export type { SqlValue };

/**
 * A connection to a database engine that runs grove's queries. Rows come back as arrays, one
 * entry per selected column: numbers as JS numbers (integers and counts included), text as
 * strings, SQL NULL as null.
 */
export interface Engine {
  readonly dialect: Dialect;
  /** Run a query and return all its rows. */
  query(sql: string, params?: readonly SqlValue[]): Promise<unknown[][]>;
  /**
   * Run a query whose columns are all numbers and hand them over a chunk at a time as doubles
   * (`columns[j][0 … rows−1]`, arrays reused between chunks): no JS value per cell.
   */
  streamNumbers?(
    sql: string,
    params: readonly SqlValue[],
    onChunk: (columns: Float64Array[], rows: number) => void,
  ): Promise<void>;
  /**
   * Run a query and hand its rows over in batches as they arrive (bounded memory); a promise from `onRows` is
   * awaited.
   */
  stream(sql: string, params: readonly SqlValue[], onRows: (rows: unknown[][]) => void | Promise<void>): Promise<void>;
  /** The names and kinds of the columns `relation` (a FROM item) yields. */
  columns(relation: string, params: readonly SqlValue[]): Promise<EngineColumn[]>;
  /**
   * Save the rows of `select` in a temporary table of this session and return its name; null when
   * `source` (the user's FROM item the rows come from; absent for rows of grove's own temporary
   * tables) says the rows must stay where they are (a distributed table: no server gets a copy of
   * them all). Temporary tables go when the session ends, even when grove is interrupted.
   */
  tempTable(select: string, params: readonly SqlValue[], source?: string): Promise<TempTable | null>;
  /**
   * True when `source` (the user's FROM item) may read rows that live on other servers (a
   * ClickHouse Distributed table): grove's queries over it are then each one SELECT (flat.ts).
   */
  rowsElsewhere?(source: string): Promise<boolean>;
  /**
   * Why `query` (the user's `--query`, a FROM item's subquery) is not exactly one read-only
   * SELECT, as the database's own parser tells; undefined when it is. The session then reads
   * only, where the database can make it (grove's temporary tables excepted).
   */
  acceptQuery(query: string): Promise<string | undefined>;
  /** Release the connection (and drop what it made: temporary objects are the session's). */
  close(): Promise<void>;
  /** Stop the running query (Ctrl-C), which then fails; the connection stays usable for clean-up. */
  interrupt?(): Promise<void>;
}

/** A temporary table made by `Engine.tempTable`. */
export interface TempTable {
  /** The quoted name, to select from. */
  readonly name: string;
  drop(): Promise<void>;
}

/** A source column as the engine types it: numbers, or anything else (read as text). */
export interface EngineColumn {
  name: string;
  /** A date or time column is a `number` one, read as seconds ({@link columnDouble}). */
  type: 'number' | 'text';
  /** Dates or times: which (read as seconds, {@link TimeKind}). */
  time?: TimeKind;
}

/** What the seconds of a date or time column count. */
export function timeUnitOf(kind: TimeKind): TimeUnit {
  return kind === 'time' ? 'day-seconds' : 'epoch-seconds';
}

/** A `number` column (quoted `expr`) as a double: dates and times as seconds, numbers without a trip through text. */
export function columnDouble(d: Dialect, expr: string, time: TimeKind | undefined): string {
  return time !== undefined ? d.timeToSeconds(expr, time) : d.numberToDouble(expr);
}

/** Parameters of one query: `add` binds a value and returns its placeholder. */
export class Params {
  readonly values: SqlValue[] = [];
  constructor(private readonly dialect: Dialect) {}

  add(value: SqlValue): string {
    this.values.push(value);
    return this.dialect.placeholder(this.values.length, value);
  }
}

/** Stop with a GroveError when `signal` has been aborted (Ctrl-C), before the next query. */
export function stopIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new GroveError('interrupted', { code: 'E_INPUT' });
}

/**
 * Run a query whose columns are all numbers and hand them over a chunk at a time as doubles: the
 * engine's own `streamNumbers` where it has one, else each batch of its rows copied into columns
 * (reused between batches), SQL NULL as NaN.
 */
export async function streamNumbers(
  engine: Engine,
  sql: string,
  params: readonly SqlValue[],
  onChunk: (columns: Float64Array[], rows: number) => void,
): Promise<void> {
  if (engine.streamNumbers) return engine.streamNumbers(sql, params, onChunk);
  let columns: Float64Array[] = [];
  await engine.stream(sql, params, (rows) => {
    if (rows.length === 0) return;
    if (columns.length === 0 || columns[0].length < rows.length)
      columns = rows[0].map(() => new Float64Array(rows.length));
    for (let j = 0; j < columns.length; j++) {
      const column = columns[j];
      for (let i = 0; i < rows.length; i++) {
        const v = rows[i][j];
        column[i] = v === null ? Number.NaN : Number(v);
      }
    }
    onChunk(columns, rows.length);
  });
}
