/**
 * Data files, read by extension: `.csv` (and any unknown extension, as before), `.tsv`/`.tab`,
 * `.jsonl`/`.ndjson`, `.parquet`, `.arrow`/`.feather`/`.ipc` (Arrow IPC), `.arff`; the text and
 * Arrow formats also gzip-compressed (`.csv.gz`), decompressed as they stream in.
 */

import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { GroveError } from '../core/errors.js';
import { parseArff } from '../data/arff.js';
import type { Dataset } from '../data/dataset.js';
import { readDelimited } from './delimited.js';
import { fileBytes, fileChunks } from './file-bytes.js';
import { readJsonLines } from './jsonl.js';
import type { DataSource, SourceReadOptions } from './source.js';

/** A file format: its extensions (lower case, with the dot) and its reader. */
interface FileFormat {
  readonly name: string;
  readonly extensions: readonly string[];
  /** False when the format cannot be read gzip-compressed. */
  readonly gzip: boolean;
  read(path: string, gzip: boolean, options: SourceReadOptions): Promise<Dataset>;
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

const CSV: FileFormat = {
  name: 'CSV',
  extensions: ['.csv'],
  gzip: true,
  read: (path, gzip, options) =>
    readDelimited(fileChunks(path, gzip, options.onProgress), { ...sizeHint(path, gzip), ...options, delimiter: ',' }),
};

/** The file formats grove reads, in the order `grove --help` lists them. */
export const FILE_KINDS: readonly FileFormat[] = [
  CSV,
  {
    name: 'TSV',
    extensions: ['.tsv', '.tab'],
    gzip: true,
    read: (path, gzip, options) =>
      readDelimited(fileChunks(path, gzip, options.onProgress), {
        ...sizeHint(path, gzip),
        ...options,
        delimiter: '\t',
      }),
  },
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
  },
  {
    name: 'Arrow IPC',
    extensions: ['.arrow', '.feather', '.ipc'],
    gzip: true,
    read: async (path, gzip, options) => (await import('./arrow-ipc.js')).readArrowIpc(path, gzip, options),
  },
  {
    name: 'ARFF',
    extensions: ['.arff'],
    gzip: true,
    read: async (path, gzip, options) => {
      const text = (await fileBytes(path, gzip, options.onProgress)).toString('utf8');
      return parseArff(text, options);
    },
  },
];

/** The format and compression of a file name: `x.csv.gz` → CSV, gzip. Unknown extensions are CSV. */
function formatOf(path: string): { format: FileFormat; gzip: boolean } {
  const lower = basename(path).toLowerCase();
  const gzip = lower.endsWith('.gz');
  const name = gzip ? lower.slice(0, -3) : lower;
  const format = FILE_KINDS.find((f) => f.extensions.some((e) => name.endsWith(e))) ?? CSV;
  if (gzip && !format.gzip)
    throw new GroveError(`a gzip-compressed ${format.name} file is not read (${format.name} compresses inside)`, {
      file: path,
      code: 'E_INPUT',
    });
  return { format, gzip };
}

/** A data set's name from its file: the base name without its extensions (`data/iris.csv.gz` → `iris`). */
export function fileDatasetName(path: string): string {
  const base = basename(path);
  const lower = base.toLowerCase();
  const gz = lower.endsWith('.gz') ? 3 : 0;
  const inner = lower.slice(0, lower.length - gz);
  const ext = FILE_KINDS.flatMap((f) => f.extensions).find((e) => inner.endsWith(e));
  if (ext) return base.slice(0, inner.length - ext.length);
  const dot = base.lastIndexOf('.', base.length - gz - 1);
  return dot > 0 ? base.slice(0, dot) : base.slice(0, base.length - gz);
}

/** A data file as a source. */
export function fileSource(path: string): DataSource {
  const { format, gzip } = formatOf(path);
  return {
    spec: path,
    describe: () => `${format.name}${gzip ? ' (gzip)' : ''} file ${path}`,
    read: (options = {}) => format.read(path, gzip, { ...options, source: options.source ?? path }),
  };
}
