#!/usr/bin/env node
import { execFileSync } from 'node:child_process';
/**
 * Predict throughput on the benchmark's big tree: the full (unpruned) gini tree of the 1M × 20,
 * 2-class synthetic set of bench/run.mjs (≈ 200k nodes, height ≈ 60), predicting its 250k test
 * rows, single thread. The fitted model is cached next to the data (fitting takes ~30 s).
 * Prints rows/s of wall and CPU time for predictCodes and predictProbaFlat, and grove's leaf
 * agreement with a plain row-at-a-time walk of the saved node list (a correctness check).
 *
 *   npm run build && node bench/predict-big.mjs [--n 1000000] [--seconds 3]
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fit, loadModel, saveModel } from '../dist/node.js';
import { loadPart, readHeader, toGroveDataset } from './lib/data.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const n = arg('--n', '1000000');
const seconds = Number(arg('--seconds', '3'));
const dir = execFileSync(
  process.execPath,
  [new URL('./synthetic.mjs', import.meta.url).pathname, '--n', n, '--features', '20', '--classes', '2'],
  { encoding: 'utf8' },
)
  .trim()
  .split('\n')
  .pop();
const header = readHeader(dir);
const modelPath = join(dir, 'gini-full.model.json');
let tree;
if (existsSync(modelPath)) tree = loadModel(modelPath);
else {
  tree = fit(toGroveDataset(loadPart(dir, 'train', header)), { algorithm: 'cart', prune: 'none' });
  saveModel(tree, modelPath);
}
const test = toGroveDataset(loadPart(dir, 'test', header));

function throughput(run) {
  run(); // warm-up (and compile on first use)
  let rows = 0;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  while (performance.now() - t0 < seconds * 1000) {
    run();
    rows += test.nRows;
  }
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  return { wall: Math.round((rows / ms) * 1000), cpu: Math.round((rows / ((cpu.user + cpu.system) / 1000)) * 1000) };
}

// Reference: walk the node list one row at a time (no compiled form).
const nodes = tree.nodes;
function walk(i) {
  let node = nodes[0];
  while (node.children)
    node = nodes[node.children[test.features[node.split.feature].values[i] <= node.split.thresholds[0] ? 0 : 1]];
  return node;
}
const codes = tree.predictCodes(test);
let agree = 0;
for (let i = 0; i < test.nRows; i++) {
  const leaf = walk(i);
  const best = leaf.counts.indexOf(Math.max(...leaf.counts));
  if (best === codes[i]) agree++;
}
let correct = 0;
for (let i = 0; i < test.nRows; i++) if (codes[i] === test.labels[i]) correct++;
const s = tree.stats();
console.log(
  JSON.stringify({
    nodes: s.nodes,
    height: s.height,
    testRows: test.nRows,
    accuracy: correct / test.nRows,
    agreeWithNodeWalk: agree / test.nRows,
    predictCodes: throughput(() => tree.predictCodes(test)),
    predictProba: throughput(() => tree.predictProbaFlat(test)),
  }),
);
