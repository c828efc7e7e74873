/** Node-only data readers (file system, csv-parse). */
export { readCsv, parseCsvText, parseCsvRecords, readTextFile, type CsvRecords } from './csv.js';
export { readArff, readDataset } from './read.js';
