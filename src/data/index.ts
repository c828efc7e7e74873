/**
 * Browser-safe data API: the Dataset types, encoding, the streaming CSV reader and the ARFF text parser (no
 * Node imports).
 */

export * from './arff.js';
export * from './dataset.js';
export {
  createDelimitedReader,
  type DelimitedReader,
  type DelimitedReadOptions,
  parseCsvText,
} from './delimited.js';
export { datasetFromRows, encodeTable, type RowsOptions } from './encode.js';
export type { DeclaredType, EncodeOptions } from './encode-options.js';
export { parseEncodingName, TEXT_ENCODINGS, type TextEncodingName } from './text-decode.js';
export { DEFAULT_NA_TOKENS, isNumericToken } from './tokens.js';
