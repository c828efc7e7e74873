/** Node-only data readers (the file system). */
export { readCsv } from './csv.js';
export { readFileChunks, readTextFile } from './file-bytes.js';
export { readArff, readDataset } from './read.js';
