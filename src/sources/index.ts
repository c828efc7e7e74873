/** Data sources (Node): open a file (or a registered kind) by its spec and read it into a Dataset. */
export { datasetHash } from './content-hash.js';
export { DATABASE_SOURCE_KIND, type DatabaseSource, databaseSource, openRows } from './database.js';
export { readDataset } from './file-source.js';
export { dataFileExtensions } from './formats.js';
export type { OutColumn } from './parquet-writer.js';
export { isKindSpec, openSource, registerSourceKind, sourceName } from './registry.js';
export type { DataSource, ReadProgress, SourceKind, SourceReadOptions } from './source.js';

import { DUCKDB, loadOptional } from '../core/optional.js';
import type { Dataset } from '../data/dataset.js';
import { DATABASE_SOURCE_KIND } from './database.js';
import type { OutColumn } from './parquet-writer.js';
import { openSource, registerSourceKind } from './registry.js';
import type { SourceReadOptions } from './source.js';

registerSourceKind(DATABASE_SOURCE_KIND);

/**
 * Read a data set from any source grove knows (CSV, TSV, JSONL, Parquet, Arrow IPC, ARFF, each
 * gzip-compressed or not; a registered kind such as a database table). Rejects with a GroveError.
 */
export function readSource(spec: string, options: SourceReadOptions = {}): Promise<Dataset> {
  return openSource(spec).read(options);
}

// DuckDB's readers and writer load on first use: a command that reads CSV should not pay DuckDB's start.

/**
 * Read a Parquet file into a Dataset (grove's own decoder for flat files of integers, floats,
 * decimals of up to 18 digits, booleans and strings; DuckDB for the rest). Rejects with a GroveError.
 */
export async function readParquet(path: string, options: SourceReadOptions = {}): Promise<Dataset> {
  return (await import('./parquet-file.js')).readParquetFile(path, options);
}

/**
 * Read the rows of a DuckDB relation (`from`, e.g. `read_parquet('x.parquet')`) into a Dataset;
 * `file` names the source in messages.
 */
export async function readDuckDBRelation(from: string, file: string, options: SourceReadOptions): Promise<Dataset> {
  const viaDuckDB = await loadOptional(DUCKDB, `reading ${file} through DuckDB`, () => import('./parquet.js'));
  return viaDuckDB.readDuckDBRelation(from, file, options);
}

/** Write `nRows` rows of `columns` to the Parquet file `path`; nothing half-written on failure. */
export async function writeParquetFile(path: string, columns: readonly OutColumn[], nRows: number): Promise<void> {
  const writer = await loadOptional(DUCKDB, `writing the Parquet file ${path}`, () => import('./parquet-writer.js'));
  return writer.writeParquetFile(path, columns, nRows);
}
