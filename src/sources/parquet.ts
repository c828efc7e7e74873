/**
 * Parquet files through DuckDB's C API: the schema decides each column's kind (numbers cast to
 * DOUBLE, dates and times as seconds, strings as ENUM indexes, booleans as bytes), then the rows
 * stream in chunks copied in bulk into a {@link TypedTableBuilder}, never as a table of strings.
 */

import duckdb from '@duckdb/node-bindings';
import { GroveError } from '../core/errors.js';
import { DUCKDB, loadOptional } from '../core/optional.js';
import type { Dataset, TimeUnit } from '../data/dataset.js';
import { TypedTableBuilder } from '../data/typed-columns.js';
import { BOOLEAN_TEXTS, type FieldKind, type TextSink, type TypedField } from '../data/typed-fields.js';
import {
  BOOLEAN_BYTES,
  type IndexWidth,
  readBigInt,
  readDoubles,
  readIndexes,
  readTexts,
} from '../engines/duckdb-vectors.js';
import { duckdbDialect } from '../sql/index.js';
import { duckdbError, withDuckDBConnections } from './duckdb.js';
import type { SourceReadOptions } from './source.js';

const T = duckdb.Type;

const NUMBER_TYPES = new Set<duckdb.Type>([
  T.TINYINT,
  T.SMALLINT,
  T.INTEGER,
  T.BIGINT,
  T.HUGEINT,
  T.UTINYINT,
  T.USMALLINT,
  T.UINTEGER,
  T.UBIGINT,
  T.UHUGEINT,
  T.FLOAT,
  T.DOUBLE,
  T.DECIMAL,
]);

/** Dates and times, read as seconds by `epoch()`: since 1970-01-01 00:00, or since midnight for a time of day. */
const TIME_TYPES = new Map<duckdb.Type, TimeUnit>([
  [T.DATE, 'epoch-seconds'],
  [T.TIMESTAMP, 'epoch-seconds'],
  [T.TIMESTAMP_S, 'epoch-seconds'],
  [T.TIMESTAMP_MS, 'epoch-seconds'],
  [T.TIMESTAMP_NS, 'epoch-seconds'],
  [T.TIMESTAMP_TZ, 'epoch-seconds'],
  [T.TIME, 'day-seconds'],
  [T.TIME_TZ, 'day-seconds'],
]);

/** The unit of a DuckDB date or time type, else undefined. */
export function duckdbTimeUnit(type: duckdb.Type): TimeUnit | undefined {
  return TIME_TYPES.get(type);
}

/** How grove reads a DuckDB column type. */
export function duckdbFieldKind(type: duckdb.Type): FieldKind {
  if (NUMBER_TYPES.has(type) || TIME_TYPES.has(type)) return 'number';
  if (type === T.VARCHAR || type === T.ENUM) return 'text';
  if (type === T.BOOLEAN) return 'boolean';
  return 'unsupported';
}

/** Text columns with at most this many distinct values are read as DuckDB ENUM indexes; others value by value. */
const MAX_ENUM_VALUES = 1 << 16;

/** A column of a relation: its name and DuckDB type. */
interface RelationColumn {
  name: string;
  type: duckdb.LogicalType;
  typeId: duckdb.Type;
}

/** How one supported field is selected and copied from each chunk into its sink. */
interface ColumnReader {
  /** The SELECT expression. */
  expr: string;
  read(chunk: duckdb.DataChunk, c: number, n: number, row: number): void;
}

/** An ENUM type's index width in bytes (from its storage type) and its values. */
interface EnumType {
  width: IndexWidth;
  values: readonly string[];
}

function enumType(type: duckdb.LogicalType): EnumType {
  const storage = duckdb.enum_internal_type(type);
  const width = storage === T.UTINYINT ? 1 : storage === T.USMALLINT ? 2 : 4;
  const values = Array.from({ length: duckdb.enum_dictionary_size(type) }, (_, k) =>
    duckdb.enum_dictionary_value(type, k),
  );
  return { width, values };
}

/** Dictionary indexes into a text sink. */
function indexedReader(expr: string, sink: TextSink, { width, values }: EnumType): ColumnReader {
  const indexes = new Int32Array(duckdb.vector_size());
  return {
    expr,
    read(chunk, c, n, row) {
      readIndexes(chunk, c, n, width, indexes);
      sink.setIndexed(row, indexes.subarray(0, n), values);
    },
  };
}

/** The readers of the fields that need no query first, and the text fields that do (to be made ENUMs). */
interface ReaderPlan {
  ready: ColumnReader[];
  text: Array<{ name: string; j: number; sink: TextSink }>;
}

/**
 * The reader of each field: numbers as DOUBLE copied in bulk; booleans as their 0/1 bytes; ENUMs by
 * index; VARCHAR (and anything else read as text) made an ENUM first ({@link textReaders}).
 */
function planReaders(columns: readonly RelationColumn[], builder: TypedTableBuilder): ReaderPlan {
  const plan: ReaderPlan = { ready: [], text: [] };
  for (let j = 0; j < columns.length; j++) {
    const sink = builder.sink(j);
    if (!sink || sink.kind === 'value') continue; // no DuckDB column is read as JS values
    const name = duckdbDialect.quote(columns[j].name);
    const { type, typeId } = columns[j];
    if (sink.kind === 'number') {
      const expr =
        typeId === T.DOUBLE
          ? name
          : TIME_TYPES.has(typeId)
            ? `CAST(epoch(${name}) AS DOUBLE)`
            : `CAST(${name} AS DOUBLE)`;
      plan.ready.push({ expr, read: (chunk, c, n, row) => readDoubles(chunk, c, n, sink, row) });
    } else if (typeId === T.BOOLEAN) {
      plan.ready.push(
        BOOLEAN_BYTES === 1
          ? indexedReader(name, sink, { width: 1, values: BOOLEAN_TEXTS })
          : varcharReader(name, sink),
      );
    } else if (typeId === T.ENUM) {
      plan.ready.push(indexedReader(name, sink, enumType(type)));
    } else plan.text.push({ name, j, sink });
  }
  return plan;
}

/** Each value as text. */
function varcharReader(name: string, sink: TextSink): ColumnReader {
  return { expr: `CAST(${name} AS VARCHAR)`, read: (chunk, c, n, row) => readTexts(chunk, c, n, sink, row) };
}

/**
 * The readers of text fields: each made an ENUM when it has few distinct values, so every row is a
 * small integer, not a JS string; else value by value.
 */
async function textReaders(db: duckdb.Connection, from: string, text: ReaderPlan['text']): Promise<ColumnReader[]> {
  const readers: ColumnReader[] = [];
  for (const { name, j, sink } of text) {
    const e = await textEnum(db, from, name, j);
    readers.push(e ? indexedReader(`CAST(${name} AS ${e.sqlName})`, sink, e.type) : varcharReader(name, sink));
  }
  return readers;
}

/**
 * An ENUM type (named `grove_enum_j`) of the distinct texts of column `name`, or undefined when
 * there are more than {@link MAX_ENUM_VALUES} (the type is then dropped).
 */
async function textEnum(
  db: duckdb.Connection,
  from: string,
  name: string,
  j: number,
): Promise<{ type: EnumType; sqlName: string } | undefined> {
  const sqlName = duckdbDialect.quote(`grove_enum_${j}`);
  await duckdb.query(
    db,
    `CREATE TYPE ${sqlName} AS ENUM (SELECT DISTINCT CAST(${name} AS VARCHAR) FROM ${from} ` +
      `WHERE ${name} IS NOT NULL LIMIT ${MAX_ENUM_VALUES + 1})`,
  );
  const [column] = await describeQuery(db, `SELECT CAST(NULL AS ${sqlName})`);
  const type = enumType(column.type);
  if (type.values.length <= MAX_ENUM_VALUES) return { type, sqlName };
  await duckdb.query(db, `DROP TYPE ${sqlName}`);
  return undefined;
}

/** The result columns of a query, from preparing it (nothing runs). */
async function describeQuery(db: duckdb.Connection, sql: string): Promise<RelationColumn[]> {
  const prepared = await duckdb.prepare(db, sql);
  try {
    return Array.from({ length: duckdb.prepared_statement_column_count(prepared) }, (_, j) => {
      const type = duckdb.prepared_statement_column_logical_type(prepared, j);
      return { name: duckdb.prepared_statement_column_name(prepared, j), type, typeId: duckdb.get_type_id(type) };
    });
  } finally {
    duckdb.destroy_prepare_sync(prepared);
  }
}

/**
 * The type's name for messages (`STRUCT("a" INTEGER)`): DuckDB's own spelling through
 * `@duckdb/node-api`, loaded only for a column grove cannot read.
 */
async function typeName(column: RelationColumn): Promise<string> {
  const { DuckDBLogicalType } = await loadOptional(DUCKDB, 'DuckDB', () => import('@duckdb/node-api'));
  return DuckDBLogicalType.create(column.type).asType().toString();
}

/** How a column is read: its kind, its type's name, and a date's unit or a decimal's digits. */
async function fieldOf(column: RelationColumn): Promise<TypedField> {
  const kind = duckdbFieldKind(column.typeId);
  const named = kind === 'unsupported' || column.typeId === T.DECIMAL;
  const type = named ? await typeName(column) : (T[column.typeId] ?? String(column.typeId));
  const time = duckdbTimeUnit(column.typeId);
  const decimal = /^DECIMAL\((\d+),\s*(\d+)\)$/.exec(type);
  return {
    name: column.name,
    kind,
    type,
    ...(time !== undefined ? { time } : {}),
    ...(decimal ? { decimal: { precision: Number(decimal[1]), scale: Number(decimal[2]) } } : {}),
  };
}

async function countRows(db: duckdb.Connection, from: string): Promise<number> {
  const chunk = await duckdb.fetch_chunk(await duckdb.query(db, `SELECT count(*) FROM ${from}`));
  if (!chunk) throw new GroveError('DuckDB returned no row count', { code: 'E_DATA' });
  return Number(readBigInt(chunk, 0));
}

/**
 * Stream `SELECT <readers' expressions> FROM from` into the readers' sinks; returns the rows read.
 * The next chunk is asked for before this one is copied, so DuckDB decodes while JS copies; a
 * fetch still running when the copy fails is awaited before returning.
 */
async function streamRows(
  db: duckdb.Connection,
  from: string,
  readers: readonly ColumnReader[],
  nRows: number,
  file: string,
  onRows: (rows: number) => void,
): Promise<number> {
  const prepared = await duckdb.prepare(db, `SELECT ${readers.map((r) => r.expr).join(', ')} FROM ${from}`);
  let result: duckdb.Result;
  try {
    result = await duckdb.execute_prepared_streaming(prepared);
  } finally {
    duckdb.destroy_prepare_sync(prepared);
  }
  let row = 0;
  let next: Promise<duckdb.DataChunk | null> | undefined = duckdb.fetch_chunk(result);
  try {
    for (;;) {
      const chunk = await next;
      next = undefined;
      const n = chunk ? duckdb.data_chunk_get_size(chunk) : 0;
      if (!chunk || n === 0) break;
      next = duckdb.fetch_chunk(result);
      if (row + n > nRows)
        throw new GroveError(`more rows than the ${nRows} counted (did the source change?)`, { file, code: 'E_DATA' });
      for (let c = 0; c < readers.length; c++) readers[c].read(chunk, c, n, row);
      row += n;
      onRows(row);
    }
  } finally {
    await next?.catch(() => undefined);
  }
  return row;
}

/**
 * Read the rows of a DuckDB relation (`from`, e.g. `read_parquet('x.parquet')`) into a Dataset.
 * `stableOrder`: the relation gives its rows in the same order every time (a file scan, not a
 * GROUP BY), so its text columns can stream in a second query, lined up by row order, while the
 * first streams the rest without waiting for the text columns' ENUMs to be made.
 */
export async function readDuckDBRelation(
  from: string,
  file: string,
  options: SourceReadOptions,
  stableOrder = false,
): Promise<Dataset> {
  return withDuckDBConnections(stableOrder ? 2 : 1, async (connections) => {
    const db = connections[0];
    try {
      const columns = await describeQuery(db, `SELECT * FROM ${from}`);
      const fields: TypedField[] = [];
      for (const column of columns) fields.push(await fieldOf(column));
      const nRows = await countRows(db, from);
      const builder = new TypedTableBuilder(fields, nRows, { ...options, source: options.source ?? file });
      const { ready, text } = planReaders(columns, builder);
      const split = connections.length > 1 && ready.length > 0 && text.length > 0;
      const jobs: Array<() => Promise<ColumnReader[]>> = split
        ? [async () => ready, () => textReaders(connections[1], from, text)]
        : [async () => [...ready, ...(await textReaders(db, from, text))]];
      // Progress: the rows every stream has reached.
      const reached = jobs.map(() => 0);
      let reported = 0;
      const onRows = (k: number, rows: number) => {
        reached[k] = rows;
        const done = Math.min(reached[0], reached[reached.length - 1]);
        if (options.onProgress && done - reported >= 100_000) {
          reported = done;
          options.onProgress({ rows: done, totalRows: nRows });
        }
      };
      // Every stream runs to its end (or failure) before the connections close.
      const settled = await Promise.allSettled(
        jobs.map(async (readers, k) =>
          streamRows(connections[k], from, await readers(), nRows, file, (rows) => onRows(k, rows)),
        ),
      );
      for (const s of settled) if (s.status === 'rejected') throw s.reason;
      if (settled.some((s) => (s as PromiseFulfilledResult<number>).value !== nRows))
        throw new GroveError(`fewer rows than the ${nRows} counted (did the source change?)`, { file, code: 'E_DATA' });
      options.onProgress?.({ rows: nRows, totalRows: nRows });
      return builder.finish();
    } catch (err) {
      throw duckdbError(err, 'cannot read Parquet', file);
    }
  });
}

/**
 * Read a Parquet file into a Dataset through DuckDB (any file DuckDB reads; parquet-file.ts tries grove's
 * decoder first).
 */
export function readParquet(path: string, options: SourceReadOptions = {}): Promise<Dataset> {
  return readDuckDBRelation(`read_parquet(${duckdbDialect.string(path)})`, path, options, true);
}
