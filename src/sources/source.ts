/**
 * Data sources: one small interface for every place a data set can come from (a CSV, TSV,
 * JSONL, Parquet, Arrow or ARFF file, gzip-compressed or not; later a database table). A spec
 * string names the source; the first registered kind that claims it opens it, and files are the
 * fallback.
 */

import type { Dataset } from '../data/dataset.js';
import type { TextEncodingName } from '../data/text-decode.js';
import type { TypedReadOptions } from '../data/typed-fields.js';

/** How far a read has come, for a progress display. Totals are given when known. */
export interface ReadProgress {
  /** Bytes read from the file so far (compressed bytes for a `.gz` file). */
  bytes?: number;
  totalBytes?: number;
  /** Rows read so far. */
  rows?: number;
  totalRows?: number;
}

/** Options of {@link DataSource.read}: the readers' options and a progress callback. */
export interface SourceReadOptions extends TypedReadOptions {
  /** Text encoding of CSV, TSV and ARFF files (default UTF-8; a UTF-16 BOM is recognised). */
  encoding?: TextEncodingName;
  /**
   * CSV and TSV: the field delimiter, one ASCII character (default: tab for TSV; for CSV a comma,
   * or `;`, tab or `|` when the header has no comma but one of those, with a warning).
   */
  delimiter?: string;
  /** CSV and TSV: the first non-blank line holds the column names (default true). */
  header?: boolean;
  /** Called now and then while reading (often enough for a display, not for every row). */
  onProgress?: (progress: ReadProgress) => void;
}

/** A data set to read: a file, or (via registered kinds) a database table. */
export interface DataSource {
  /** The spec it was opened from (a path, a URL), used as the Dataset's `source`. */
  readonly spec: string;
  /** What it is, for messages: `Parquet file data/iris.parquet`. */
  describe(): string;
  /** Read the whole source into a Dataset. Rejects with a GroveError on bad input. */
  read(options?: SourceReadOptions): Promise<Dataset>;
}

/** A kind of source: which specs it claims and how it opens them. */
export interface SourceKind {
  /** Short name (`parquet`, `duckdb`, `postgres`). */
  readonly name: string;
  /** True when this kind reads `spec` (by a scheme like `postgres://`, or a file extension). */
  matches(spec: string): boolean;
  open(spec: string): DataSource;
  /** The name of a data set from `spec` (e.g. the table's name); default: the file's base name. */
  datasetName?(spec: string): string;
}
