/**
 * File readers (Node): `readDataset` picks the format from the extension (`.arff` -> ARFF,
 * `.tsv` -> tab-separated, anything else -> CSV).
 */

import { extname } from 'node:path';
import { parseArff } from './arff.js';
import { readCsv } from './csv.js';
import type { Dataset } from './dataset.js';
import type { DelimitedReadOptions } from './delimited.js';
import type { EncodeOptions } from './encode.js';
import { readTextFile } from './file-bytes.js';
import type { TextEncodingName } from './text-decode.js';

/** Read a Weka ARFF file (UTF-8 unless `options.encoding` says otherwise). */
export function readArff(path: string, options: EncodeOptions & { encoding?: TextEncodingName } = {}): Dataset {
  const { encoding, ...rest } = options;
  const text = readTextFile(path, encoding);
  return parseArff(text, { ...rest, source: options.source ?? path });
}

/**
 * Read a data file: ARFF when the name ends in `.arff` (any case), tab-separated for `.tsv`
 * (unless `options.delimiter` says otherwise), CSV otherwise. The CSV-only options (delimiter,
 * header, naTokens, onWarning) do not apply to ARFF, whose missing value is `?`.
 */
export function readDataset(path: string, options: DelimitedReadOptions = {}): Dataset {
  const ext = extname(path).toLowerCase();
  if (ext === '.tsv') return readCsv(path, { delimiter: '\t', ...options });
  if (ext === '.arff') {
    const { delimiter: _d, header: _h, naTokens: _na, onWarning: _w, sizeHint: _s, ...arffOptions } = options;
    return readArff(path, arffOptions);
  }
  return readCsv(path, options);
}
