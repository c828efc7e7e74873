/** Data sources (Node): open a file (or a registered kind) by its spec and read it into a Dataset. */
export { datasetHash } from './content-hash.js';
export { DATABASE_SOURCE_KIND, type DatabaseSource, databaseSource, openRows } from './database.js';
export { readDuckDBRelation, readParquet } from './parquet.js';
export { type OutColumn, writeParquetFile } from './parquet-writer.js';
export { dataFileExtensions, isKindSpec, openSource, registerSourceKind, sourceName } from './registry.js';
export type { DataSource, ReadProgress, SourceKind, SourceReadOptions } from './source.js';

import type { Dataset } from '../data/dataset.js';
import { DATABASE_SOURCE_KIND } from './database.js';
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
