/** Browser-safe data API: the Dataset types, encoding and the ARFF text parser (no Node imports). */
export * from './dataset.js';
export * from './encode.js';
export * from './arff.js';
