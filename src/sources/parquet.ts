/**
 * Parquet files through DuckDB: the schema decides each column's kind (numbers cast to DOUBLE,
 * strings as ENUM indexes, booleans as text), then the rows stream in chunks copied in bulk into a
 * {@link TypedTableBuilder}, never as a table of strings.
 */

import {
  type DuckDBConnection,
  type DuckDBDataChunk,
  DuckDBEnumType,
  type DuckDBResult,
  type DuckDBType,
  DuckDBTypeId,
  DuckDBVector,
} from '@duckdb/node-api';
import { GroveError } from '../core/errors.js';
import type { Dataset } from '../data/dataset.js';
import { type FieldKind, type TextSink, type TypedField, TypedTableBuilder } from '../data/typed-columns.js';
import { duckdbError, sqlIdentifier, sqlString, withDuckDB } from './duckdb.js';
import { BOOLEAN_BYTES, type IndexWidth, readDoubles, readIndexes } from './duckdb-vectors.js';
import type { SourceReadOptions } from './source.js';

const NUMBER_TYPES = new Set<DuckDBTypeId>([
  DuckDBTypeId.TINYINT,
  DuckDBTypeId.SMALLINT,
  DuckDBTypeId.INTEGER,
  DuckDBTypeId.BIGINT,
  DuckDBTypeId.HUGEINT,
  DuckDBTypeId.UTINYINT,
  DuckDBTypeId.USMALLINT,
  DuckDBTypeId.UINTEGER,
  DuckDBTypeId.UBIGINT,
  DuckDBTypeId.UHUGEINT,
  DuckDBTypeId.FLOAT,
  DuckDBTypeId.DOUBLE,
  DuckDBTypeId.DECIMAL,
]);

/** How grove reads a DuckDB column type. */
export function duckdbFieldKind(type: DuckDBType): FieldKind {
  if (NUMBER_TYPES.has(type.typeId)) return 'number';
  if (type.typeId === DuckDBTypeId.VARCHAR || type.typeId === DuckDBTypeId.ENUM) return 'text';
  if (type.typeId === DuckDBTypeId.BOOLEAN) return 'boolean';
  return 'unsupported';
}

/** Text columns with at most this many distinct values are read as DuckDB ENUM indexes; others value by value. */
const MAX_ENUM_VALUES = 1 << 16;

/** How one supported field is selected and copied from each chunk into its sink. */
interface ColumnReader {
  /** The SELECT expression. */
  expr: string;
  read(chunk: DuckDBDataChunk, c: number, n: number, row: number): void;
}

/** ENUM index width in bytes from the enum's storage type. */
function enumWidth(type: DuckDBEnumType): IndexWidth {
  if (type.internalTypeId === DuckDBTypeId.UTINYINT) return 1;
  return type.internalTypeId === DuckDBTypeId.USMALLINT ? 2 : 4;
}

/** Dictionary indexes, or each value as a JS value, into a text sink. */
function indexedReader(expr: string, sink: TextSink, width: IndexWidth, dictionary: readonly string[]): ColumnReader {
  const indexes = new Int32Array(DuckDBVector.standardSize());
  return {
    expr,
    read(chunk, c, n, row) {
      readIndexes(chunk, c, n, width, indexes);
      sink.setIndexed(row, indexes.subarray(0, n), dictionary);
    },
  };
}

function valueReader(expr: string, sink: TextSink): ColumnReader {
  return {
    expr,
    read(chunk, c, n, row) {
      const vector = chunk.getColumnVector(c) as DuckDBVector<string | null>;
      for (let r = 0; r < n; r++) sink.set(row + r, vector.getItem(r));
    },
  };
}

/**
 * The reader of each field: numbers as DOUBLE copied in bulk; booleans as their 0/1 bytes; ENUMs by
 * index; VARCHAR (and anything else read as text) made an ENUM first when it has few distinct
 * values, so every row is a small integer, not a JS string.
 */
async function columnReaders(
  db: DuckDBConnection,
  from: string,
  fields: readonly TypedField[],
  types: readonly DuckDBType[],
  builder: TypedTableBuilder,
): Promise<ColumnReader[]> {
  const readers: ColumnReader[] = [];
  for (let j = 0; j < fields.length; j++) {
    const sink = builder.sink(j);
    if (!sink || sink.kind === 'value') continue; // no DuckDB column is read as JS values
    const name = sqlIdentifier(fields[j].name);
    const type = types[j];
    if (sink.kind === 'number') {
      const expr = type.typeId === DuckDBTypeId.DOUBLE ? name : `CAST(${name} AS DOUBLE)`;
      readers.push({ expr, read: (chunk, c, n, row) => readDoubles(chunk, c, n, sink, row) });
    } else if (type.typeId === DuckDBTypeId.BOOLEAN && BOOLEAN_BYTES === 1) {
      readers.push(indexedReader(name, sink, 1, BOOLEAN_TEXTS));
    } else if (type instanceof DuckDBEnumType) {
      readers.push(indexedReader(name, sink, enumWidth(type), type.values));
    } else {
      const e = type.typeId === DuckDBTypeId.BOOLEAN ? undefined : await textEnum(db, from, name, j);
      readers.push(
        e
          ? indexedReader(`CAST(${name} AS ${e.sqlName})`, sink, enumWidth(e.type), e.type.values)
          : valueReader(`CAST(${name} AS VARCHAR)`, sink),
      );
    }
  }
  return readers;
}

/**
 * An ENUM type (named `grove_enum_j`) of the distinct texts of column `name`, or undefined when
 * there are more than {@link MAX_ENUM_VALUES} (the type is then dropped).
 */
async function textEnum(
  db: DuckDBConnection,
  from: string,
  name: string,
  j: number,
): Promise<{ type: DuckDBEnumType; sqlName: string } | undefined> {
  const sqlName = sqlIdentifier(`grove_enum_${j}`);
  await db.run(
    `CREATE TYPE ${sqlName} AS ENUM (SELECT DISTINCT CAST(${name} AS VARCHAR) FROM ${from} WHERE ${name} IS NOT NULL LIMIT ${MAX_ENUM_VALUES + 1})`,
  );
  // The type's values come back with the column types of a query that uses it.
  const type = (await db.run(`SELECT CAST(NULL AS ${sqlName})`)).columnTypes()[0] as DuckDBEnumType;
  if (type.values.length <= MAX_ENUM_VALUES) return { type, sqlName };
  await db.run(`DROP TYPE ${sqlName}`);
  return undefined;
}

/** A DuckDB BOOLEAN's texts by its byte (as `CAST(b AS VARCHAR)` writes them). */
const BOOLEAN_TEXTS: readonly string[] = ['false', 'true'];

/**
 * Copy the result's chunks into the columns. The next chunk is asked for before this one is copied,
 * so DuckDB decodes while JS copies; a fetch still running when the copy fails is awaited before the
 * connection closes.
 */
async function copyRows(
  result: DuckDBResult,
  readers: readonly ColumnReader[],
  nRows: number,
  file: string,
  options: SourceReadOptions,
): Promise<void> {
  let row = 0;
  let reported = 0;
  let next: Promise<DuckDBDataChunk | null> | undefined = result.fetchChunk();
  try {
    for (;;) {
      const chunk = await next;
      next = undefined;
      if (!chunk || chunk.rowCount === 0) break;
      next = result.fetchChunk();
      const n = chunk.rowCount;
      if (row + n > nRows)
        throw new GroveError(`more rows than the ${nRows} counted (did the source change?)`, { file, code: 'E_DATA' });
      for (let c = 0; c < readers.length; c++) readers[c].read(chunk, c, n, row);
      row += n;
      if (options.onProgress && row - reported >= 100_000) {
        reported = row;
        options.onProgress({ rows: row, totalRows: nRows });
      }
    }
  } finally {
    await next?.catch(() => undefined);
  }
  options.onProgress?.({ rows: row, totalRows: nRows });
}

/**
 * Read the rows of a DuckDB relation (`from`, e.g. `read_parquet('x.parquet')`) into a Dataset.
 * Reused by the in-database sources: any relation DuckDB can scan reads the same way.
 */
export async function readDuckDBRelation(
  from: string,
  file: string,
  options: SourceReadOptions,
  what = 'cannot read Parquet',
): Promise<Dataset> {
  return withDuckDB(async (db) => {
    try {
      const probe = await db.run(`SELECT * FROM ${from} LIMIT 0`);
      const names = probe.columnNames();
      const types = probe.columnTypes();
      const fields: TypedField[] = names.map((name, j) => ({
        name,
        kind: duckdbFieldKind(types[j]),
        type: types[j].toString(),
      }));
      const count = await db.runAndReadAll(`SELECT count(*) FROM ${from}`);
      const nRows = Number(count.getColumns()[0][0]);
      const builder = new TypedTableBuilder(fields, nRows, { ...options, source: options.source ?? file });
      const readers = await columnReaders(db, from, fields, types, builder);
      await copyRows(
        await db.stream(`SELECT ${readers.map((r) => r.expr).join(', ')} FROM ${from}`),
        readers,
        nRows,
        file,
        options,
      );
      return builder.finish();
    } catch (err) {
      throw duckdbError(err, what, file);
    }
  });
}

/** Read a Parquet file into a Dataset. */
export function readParquet(path: string, options: SourceReadOptions = {}): Promise<Dataset> {
  return readDuckDBRelation(`read_parquet(${sqlString(path)})`, path, options);
}
