/**
 * The data file formats grove reads: one table that every entry point reads (`readDataset`,
 * `readSource`, `grove fit` in memory and with `--engine duckdb`, `compare --data FOLDER`, the
 * CLI's help). A file's format is decided by its extension; a name ending in `.gz` is that format
 * gzip-compressed, decompressed as it streams in.
 */

import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { GroveError } from '../core/errors.js';
import { APACHE_ARROW, loadOptional } from '../core/optional.js';
import { parseArff } from '../data/arff.js';
import type { Dataset } from '../data/dataset.js';
import { decodeText } from '../data/text-decode.js';
import { readDelimited } from './delimited.js';
import { fileBytes, fileChunks } from './file-bytes.js';
import { readJsonLines } from './jsonl.js';
import type { SourceReadOptions } from './source.js';

/** A file format: how it is recognised, who reads it, and what DuckDB reads it with. */
export interface DataFormat {
  readonly name: string;
  /** How a file is recognised: its name ends in one of these (lower case, with the dot). */
  readonly extensions: readonly string[];
  /** False when the format cannot be read gzip-compressed (it compresses inside). */
  readonly gzip: boolean;
  /** grove's reader of the file (`gzip`: decompress as it streams in). */
  read(path: string, gzip: boolean, options: SourceReadOptions): Promise<Dataset>;
  /**
   * DuckDB's table function over the file, given the path as an SQL expression (and how a
   * delimited text is read), for `grove fit --engine duckdb`; absent when the engine does not
   * train on the format.
   */
  readonly duckdb?: (path: string, text: DuckDBTextOptions) => string;
  /** A delimited text's own delimiter: `,` for CSV (sniffed when not given), tab for TSV. */
  readonly delimiter?: ',' | '\t';
}

/** How DuckDB reads a delimited text: its delimiter (default the format's) and DuckDB's name of its encoding. */
export interface DuckDBTextOptions {
  delimiter?: string;
  encoding?: string;
}

/** The bytes the reader will see, when known without reading (not for gzip): it sizes its columns once. */
function sizeHint(path: string, gzip: boolean): { sizeHint?: number } {
  if (gzip) return {};
  try {
    return { sizeHint: statSync(path).size };
  } catch {
    return {}; // the read itself reports the problem
  }
}

/** A delimited text format; `options.delimiter` (`--delimiter`) overrides the format's. */
function delimited(name: string, extensions: readonly string[], delimiter: ',' | '\t'): DataFormat {
  return {
    name,
    extensions,
    gzip: true,
    delimiter,
    read: (path, gzip, options) =>
      readDelimited(fileChunks(path, gzip, options.onProgress), {
        ...sizeHint(path, gzip),
        ...options,
        // CSV leaves it to the reader: a comma, unless the header shows `;`, tab or `|`.
        delimiter: options.delimiter ?? (delimiter === ',' ? undefined : delimiter),
      }),
    // Every column as text: the engine types the columns by the CSV reader's rules itself.
    duckdb: (path, { delimiter: d = delimiter, encoding = 'utf-8' }) =>
      `read_csv(${path}, header = true, all_varchar = true, delim = '${d.replaceAll("'", "''")}', ` +
      `quote = '"', escape = '"', encoding = '${encoding}')`,
  };
}

/** The format of a file whose extension names none of the others. */
const CSV = delimited('CSV', ['.csv'], ',');

/** The file formats grove reads, in the order `grove --help` lists them. */
export const DATA_FORMATS: readonly DataFormat[] = [
  CSV,
  delimited('TSV', ['.tsv', '.tab'], '\t'),
  {
    name: 'JSON Lines',
    extensions: ['.jsonl', '.ndjson'],
    gzip: true,
    read: (path, gzip, options) => readJsonLines(fileChunks(path, gzip, options.onProgress), options),
  },
  {
    name: 'Parquet',
    extensions: ['.parquet', '.pq'],
    gzip: false,
    // The Parquet reader loads only when a file needs it: most commands read CSV.
    read: async (path, _gzip, options) => (await import('./parquet-file.js')).readParquetFile(path, options),
    duckdb: (path) => `read_parquet(${path})`,
  },
  {
    name: 'Arrow IPC',
    extensions: ['.arrow', '.feather', '.ipc'],
    gzip: true,
    read: async (path, gzip, options) => {
      const arrow = await loadOptional(APACHE_ARROW, 'reading an Arrow IPC file', () => import('./arrow-ipc.js'));
      return arrow.readArrowIpc(path, gzip, options);
    },
  },
  {
    name: 'ARFF',
    extensions: ['.arff'],
    gzip: true,
    read: async (path, gzip, options) => {
      const bytes = await fileBytes(path, gzip, options.onProgress);
      return parseArff(decodeText(bytes, options.encoding, options.source ?? path), options);
    },
  },
];

/** The file's name in lower case without `.gz`, and whether it had it. */
function splitGzip(path: string): { name: string; gzip: boolean } {
  const lower = basename(path).toLowerCase();
  const gzip = lower.endsWith('.gz');
  return { name: gzip ? lower.slice(0, -3) : lower, gzip };
}

/** The extension of `name` that a format claims, and the format. */
function claimed(name: string): { format: DataFormat; extension: string } | undefined {
  for (const format of DATA_FORMATS)
    for (const extension of format.extensions) if (name.endsWith(extension)) return { format, extension };
  return undefined;
}

/**
 * The format and compression of a file name: `x.csv.gz` → CSV, gzip. A name no format claims is
 * CSV (`known` false). A gzip-compressed file of a format that compresses inside is an error.
 */
export function formatOf(path: string): { format: DataFormat; gzip: boolean; known: boolean } {
  const { name, gzip } = splitGzip(path);
  const found = claimed(name);
  const format = found?.format ?? CSV;
  if (gzip && !format.gzip)
    throw new GroveError(`a gzip-compressed ${format.name} file is not read (${format.name} compresses inside)`, {
      file: path,
      code: 'E_INPUT',
    });
  return { format, gzip, known: found !== undefined };
}

/** A data set's name from its file: the base name without its extensions (`data/iris.csv.gz` → `iris`). */
export function fileDatasetName(path: string): string {
  const base = basename(path);
  const { name, gzip } = splitGzip(path);
  const gz = gzip ? 3 : 0;
  const ext = claimed(name)?.extension;
  if (ext) return base.slice(0, name.length - ext.length);
  const dot = base.lastIndexOf('.', base.length - gz - 1);
  return dot > 0 ? base.slice(0, dot) : base.slice(0, base.length - gz);
}

/** File name endings read as data (for `compare --data FOLDER`), e.g. `.csv`, `.parquet`, `.csv.gz`. */
export function dataFileExtensions(): string[] {
  return DATA_FORMATS.flatMap((f) => f.extensions.flatMap((e) => (f.gzip ? [e, `${e}.gz`] : [e])));
}

/** `a, b and c`. */
function listed(words: readonly string[], and: string): string {
  return words.length > 1 ? `${words.slice(0, -1).join(', ')} ${and} ${words[words.length - 1]}` : words.join('');
}

/**
 * The formats for help text: `CSV (.csv), …, or ARFF (.arff); gzip-compressed too (.csv.gz) except
 * Parquet; other extensions are read as CSV`.
 */
export function formatsHelp(): string {
  const formats = listed(
    DATA_FORMATS.map((f) => `${f.name} (${f.extensions.join(', ')})`),
    'or',
  );
  const noGzip = DATA_FORMATS.filter((f) => !f.gzip).map((f) => f.name);
  const except = noGzip.length > 0 ? ` except ${listed(noGzip, 'and')}` : '';
  const gzip = `gzip-compressed too (${CSV.extensions[0]}.gz)${except}`;
  return `${formats}; ${gzip}; other extensions are read as ${CSV.name}`;
}

/** The formats DuckDB trains on, for messages: `CSV, TSV and Parquet`. */
export function duckdbFormatNames(): string {
  return listed(
    DATA_FORMATS.filter((f) => f.duckdb).map((f) => f.name),
    'and',
  );
}
