/** Node-only data readers (file system, csv-parse). */
export { type CsvRecords, parseCsvRecords, parseCsvText, readCsv, readTextFile } from './csv.js';
export { readArff, readDataset } from './read.js';
