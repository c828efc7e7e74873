/**
 * CSV and TSV files (Node): the file's bytes, read a few MB at a time, go through the streaming
 * reader ({@link createDelimitedReader}); the file is never held whole in memory.
 */

import type { Dataset } from './dataset.js';
import { createDelimitedReader, type DelimitedReadOptions } from './delimited.js';
import { readFileChunks } from './file-bytes.js';

/**
 * Read a CSV file (header row, class in the last column unless `options.target`; `delimiter: '\t'`
 * for TSV). Throws GroveError: `E_IO` when the file cannot be read, `E_DATA` for bad contents
 * (with file, line and column), `E_OPTION` for options that do not fit the file.
 */
export function readCsv(path: string, options: DelimitedReadOptions = {}): Dataset {
  let reader: ReturnType<typeof createDelimitedReader> | undefined;
  readFileChunks(
    path,
    (chunk) => reader!.push(chunk),
    (size) => {
      reader = createDelimitedReader({ ...options, source: options.source ?? path, sizeHint: size });
    },
  );
  return reader!.finish();
}
