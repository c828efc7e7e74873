/** A data file as a source, read by its format (the table in formats.ts); and `readDataset`. */

import type { Dataset } from '../data/dataset.js';
import { formatOf } from './formats.js';
import type { DataSource, SourceReadOptions } from './source.js';

/** A data file as a source; its format comes from its name (`.csv.gz`: gzip-compressed CSV). */
export function fileSource(path: string): DataSource {
  const { format, gzip } = formatOf(path);
  return {
    spec: path,
    describe: () => `${format.name}${gzip ? ' (gzip)' : ''} file ${path}`,
    read: (options = {}) => format.read(path, gzip, { ...options, source: options.source ?? path }),
  };
}

/**
 * Read a data file into a Dataset, in any format `grove fit` reads: CSV (also any extension no
 * other format claims), TSV, JSON Lines, Parquet, Arrow IPC or ARFF, each gzip-compressed or not
 * (`.csv.gz`) except Parquet. The class is the last column unless `options.target` names another.
 * Rejects with a GroveError: `E_IO` when the file cannot be read, `E_DATA` for bad contents (with
 * file, line and column), `E_OPTION` for options that do not fit the file.
 *
 * @example
 * const data = await readDataset('data/iris.csv');
 * const tree = fit(data, { algorithm: 'c45' });
 */
export async function readDataset(path: string, options: SourceReadOptions = {}): Promise<Dataset> {
  return fileSource(path).read(options);
}
