/** Browser-safe data API: the Dataset types, encoding and the ARFF text parser (no Node imports). */

export * from './arff.js';
export * from './dataset.js';
export type { DeclaredType, EncodeOptions, RowsOptions } from './encode.js';
// The column-planning pieces encode.ts shares with the typed-column readers stay internal.
export { datasetFromRows, encodeTable, isNumericToken } from './encode.js';
