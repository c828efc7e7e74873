/**
 * Parquet files through DuckDB: the schema decides each column's kind (numbers cast to DOUBLE,
 * strings/enums to VARCHAR, booleans as text), then the rows stream in chunks straight into a
 * {@link TypedTableBuilder}, never as a table of strings.
 */

import { type DuckDBType, DuckDBTypeId, type DuckDBVector } from '@duckdb/node-api';
import type { Dataset } from '../data/dataset.js';
import { type FieldKind, type TypedField, TypedTableBuilder } from '../data/typed-columns.js';
import { duckdbError, sqlIdentifier, sqlString, withDuckDB } from './duckdb.js';
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

/** The SELECT list that reads each supported field as DOUBLE or VARCHAR. */
function castList(fields: readonly TypedField[]): string {
  return fields
    .filter((f) => f.kind !== 'unsupported')
    .map((f) => `CAST(${sqlIdentifier(f.name)} AS ${f.kind === 'number' ? 'DOUBLE' : 'VARCHAR'})`)
    .join(', ');
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
      const sinks = fields.map((_, j) => builder.sink(j)).filter((s) => s !== undefined);
      const result = await db.stream(`SELECT ${castList(fields)} FROM ${from}`);
      let row = 0;
      let reported = 0;
      for (;;) {
        const chunk = await result.fetchChunk();
        if (!chunk || chunk.rowCount === 0) break;
        const n = chunk.rowCount;
        sinks.forEach((sink, c) => {
          const vector = chunk.getColumnVector(c) as DuckDBVector<number | string | null>;
          if (sink.kind === 'number') for (let r = 0; r < n; r++) sink.set(row + r, vector.getItem(r) as number | null);
          else for (let r = 0; r < n; r++) sink.set(row + r, vector.getItem(r) as string | null);
        });
        row += n;
        if (options.onProgress && row - reported >= 100_000) {
          reported = row;
          options.onProgress({ rows: row, totalRows: nRows });
        }
      }
      options.onProgress?.({ rows: row, totalRows: nRows });
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
