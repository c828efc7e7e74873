#!/usr/bin/env node
/**
 * Predict throughput of a full (unpruned) gini tree on magic, single thread: rows per second of
 * wall time and of CPU time, predicting the training rows repeatedly for 2 s.
 *
 *   npm run build && node bench/predict-magic.mjs [path/to/magic.csv]
 */
import { fit, readDataset } from '../dist/node.js';

const file = process.argv[2] ?? process.env.GROVE_DATA_DIR?.concat('/magic.csv') ?? '../shared/datasets/magic.csv';
const data = await readDataset(file);
const tree = fit(data, { algorithm: 'cart', prune: 'none' });
tree.predictCodes(data); // compile and warm up
let reps = 0;
const c0 = process.cpuUsage();
const t0 = performance.now();
while (performance.now() - t0 < 2000) {
  tree.predictCodes(data);
  reps++;
}
const ms = performance.now() - t0;
const cpu = process.cpuUsage(c0);
const rows = reps * data.nRows;
const s = tree.stats();
console.log(
  JSON.stringify({
    nodes: s.nodes,
    height: s.height,
    rowsPerSecWall: Math.round((rows / ms) * 1000),
    rowsPerSecCpu: Math.round((rows / ((cpu.user + cpu.system) / 1000)) * 1000),
  }),
);
