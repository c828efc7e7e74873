/**
 * A training source for the engines (`grove fit --engine`): a database, or a data file that
 * DuckDB reads with the table function its format names (`DATA_FORMATS`, formats.ts).
 */

import { GroveError } from '../core/errors.js';
import { delimiterName, sniffDelimiter } from '../data/delimiter-sniff.js';
import type { TextEncodingName } from '../data/text-decode.js';
import { DEFAULT_NA_TOKENS } from '../data/tokens.js';
import type { EngineSource } from '../engines/schema.js';
import { isDatabaseSpec, openDuckDB, parseDatabaseSpec, type RowsSelector, type SourceSpec } from '../engines/spec.js';
import { fileChunks } from './file-bytes.js';
import { type DataFormat, duckdbFormatNames, formatOf } from './formats.js';

/** How a data file's text is read, as the in-memory reader takes it. */
export interface FileSourceOptions {
  /** A delimited text's field delimiter (`--delimiter`); CSV without it is sniffed from the header. */
  delimiter?: string;
  /** A delimited text's encoding (`--encoding`, default UTF-8). */
  encoding?: TextEncodingName;
  /** A delimited text's cell texts read as missing (`--na`; default the file readers' tokens). */
  naTokens?: readonly string[];
  /** Receives the note that a delimiter was sniffed. */
  onWarning?: (message: string) => void;
}

/** DuckDB's names of the encodings it reads; windows-1252 needs an extension it cannot download here. */
const DUCKDB_ENCODINGS: ReadonlyMap<TextEncodingName, string> = new Map([
  ['utf8', 'utf-8'],
  ['latin1', 'latin-1'],
  ['utf16', 'utf-16'],
]);

function duckdbEncoding(encoding: TextEncodingName | undefined): string | undefined {
  if (encoding === undefined) return undefined;
  const name = DUCKDB_ENCODINGS.get(encoding);
  if (name === undefined)
    throw new GroveError(
      `option --encoding: DuckDB does not read ${encoding} text; train in memory (--engine memory) ` +
        'or give the file as latin1 or UTF-8',
      { code: 'E_OPTION' },
    );
  return name;
}

/**
 * The delimiter of a CSV file with none given, as the in-memory reader decides it (its first
 * line: a comma unless it has none but `;`, tab or `|`), with the reader's note when it is not a
 * comma. A file that cannot be read is left to DuckDB to report.
 */
async function sniffedDelimiter(path: string, gzip: boolean, options: FileSourceOptions): Promise<string> {
  let head: Uint8Array | undefined;
  try {
    for await (const chunk of fileChunks(path, gzip)) {
      head = chunk;
      break;
    }
  } catch {
    return ',';
  }
  const d = head ? sniffDelimiter(head) : ',';
  if (d !== ',')
    options.onWarning?.(
      `${path}: no comma in the header: read with ${delimiterName(d)} as the delimiter (sniffed; --delimiter sets it)`,
    );
  return d;
}

/**
 * The delimiter DuckDB reads the file with, or undefined when it is not delimited text (or its
 * name is refused: {@link parseSourceSpec}'s `from` says why when it is asked to read it).
 */
async function delimiterOf(path: string, options: FileSourceOptions): Promise<string | undefined> {
  let found: { format: DataFormat; known: boolean; gzip: boolean };
  try {
    found = formatOf(path);
  } catch {
    return undefined;
  }
  const { format, known, gzip } = found;
  if (!known || format.delimiter === undefined) return undefined;
  if (options.delimiter !== undefined) return options.delimiter;
  return format.delimiter === ',' ? sniffedDelimiter(path, gzip, options) : format.delimiter;
}

/**
 * Parse a training source: a data file (trained on in memory, or by DuckDB when its format says
 * how DuckDB reads it), `duckdb:PATH.duckdb`, `postgres://user@host:port/db`,
 * `clickhouse://host:port/db`. A file that DuckDB does not read is an error only when DuckDB is
 * asked to read it. A delimited file is read with `options.delimiter`, else as the in-memory
 * reader would (CSV's delimiter sniffed from its header).
 */
export async function parseSourceSpec(
  spec: string,
  rows: RowsSelector = {},
  options: FileSourceOptions = {},
): Promise<SourceSpec> {
  if (isDatabaseSpec(spec)) return parseDatabaseSpec(spec, rows);
  if (rows.table !== undefined || rows.query !== undefined)
    throw new GroveError('--table and --query name rows inside a database, not in a file', { code: 'E_OPTION' });
  const delimiter = await delimiterOf(spec, options);
  const encoding = duckdbEncoding(options.encoding);
  const source: EngineSource = {
    label: spec,
    // A delimited text's cells are missing as the file readers decide; other formats keep the engine's rule.
    ...(delimiter !== undefined ? { missingTexts: options.naTokens ?? DEFAULT_NA_TOKENS } : {}),
    from: (p) => {
      const { format, known } = formatOf(spec);
      if (!known || !format.duckdb)
        throw new GroveError(`--engine duckdb reads ${duckdbFormatNames()} files, not '${spec}'`, {
          file: spec,
          code: 'E_OPTION',
        });
      return format.duckdb(p.add(spec), { delimiter, encoding });
    },
  };
  return { kind: 'file', defaultEngine: 'memory', label: spec, connect: () => openDuckDB(), source };
}
