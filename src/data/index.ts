/** Browser-safe data API: the Dataset types, encoding and the ARFF text parser (no Node imports). */

export * from './arff.js';
export * from './dataset.js';
export * from './encode.js';
