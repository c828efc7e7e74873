/**
 * File readers (Node): `readDataset` picks the format from the extension (`.arff` -> ARFF,
 * anything else -> CSV).
 */

import { extname } from 'node:path';
import { parseArff } from './arff.js';
import { readCsv, readTextFile } from './csv.js';
import type { Dataset } from './dataset.js';
import type { EncodeOptions } from './encode.js';

/** Read a Weka ARFF file. */
export function readArff(path: string, options: EncodeOptions = {}): Dataset {
  const text = readTextFile(path);
  return parseArff(text, { ...options, source: options.source ?? path });
}

/** Read a data file: ARFF when the name ends in `.arff` (any case), CSV otherwise. */
export function readDataset(path: string, options: EncodeOptions = {}): Dataset {
  return extname(path).toLowerCase() === '.arff' ? readArff(path, options) : readCsv(path, options);
}
