/**
 * The file formats the explore page reads, by name and extension, as the CLI's table of formats
 * (src/sources/formats.ts) decides a file's format: by its extension, `.gz` around it where the
 * format allows, CSV when no format claims the name. The readers are read-file.ts's (the worker's):
 * this table is the page's too, for its file picker, without loading them.
 */
import { GroveError } from '../core/errors.js';

/** A format the page reads: its name, the extensions that claim a file, and whether `.gz` may wrap it. */
export interface PageFormat {
  readonly name: 'CSV' | 'TSV' | 'JSON Lines' | 'Parquet' | 'Arrow IPC' | 'ARFF';
  readonly extensions: readonly string[];
  readonly gzip: boolean;
}

/** The formats, CSV first (the fallback). */
export const PAGE_FORMATS: readonly PageFormat[] = [
  { name: 'CSV', extensions: ['.csv'], gzip: true },
  { name: 'TSV', extensions: ['.tsv', '.tab'], gzip: true },
  { name: 'JSON Lines', extensions: ['.jsonl', '.ndjson'], gzip: true },
  { name: 'Parquet', extensions: ['.parquet', '.pq'], gzip: false },
  { name: 'Arrow IPC', extensions: ['.arrow', '.feather', '.ipc'], gzip: true },
  { name: 'ARFF', extensions: ['.arff'], gzip: true },
];

/** The extensions the page's file picker offers (`.csv`, `.csv.gz`, …). */
export const PAGE_EXTENSIONS: readonly string[] = PAGE_FORMATS.flatMap((f) =>
  f.gzip ? [...f.extensions, ...f.extensions.map((e) => `${e}.gz`)] : f.extensions,
);

/** The format of file `name` and whether it is gzip-compressed; CSV when no format claims it. */
export function pageFormatOf(name: string): { format: PageFormat; gzip: boolean } {
  const lower = name.toLowerCase();
  const gzip = lower.endsWith('.gz');
  const bare = gzip ? lower.slice(0, -3) : lower;
  const format = PAGE_FORMATS.find((f) => f.extensions.some((e) => bare.endsWith(e))) ?? PAGE_FORMATS[0];
  if (gzip && !format.gzip)
    throw new GroveError(`a gzip-compressed ${format.name} file is not read (${format.name} compresses inside)`, {
      file: name,
      code: 'E_INPUT',
    });
  return { format, gzip };
}
