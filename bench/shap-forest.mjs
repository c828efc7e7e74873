#!/usr/bin/env node
/**
 * TreeSHAP on a forest: 100 trees of depth ≤ 8 fitted on 10,000 rows of the 10k × 20, 3-class
 * synthetic set of bench/run.mjs, every class of every one of the 10,000 rows explained, one
 * thread. Prints the seconds and the largest local-accuracy gap.
 *
 *   npm run build && node bench/shap-forest.mjs [--n 10000] [--trees 100] [--depth 8]
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fitForest, shapValues } from '../dist/node.js';
import { loadPart, readHeader, toGroveDataset } from './lib/data.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const n = arg('--n', '10000');
const here = new URL('.', import.meta.url).pathname;
const dir = execFileSync(
  process.execPath,
  [join(here, 'synthetic.mjs'), '--n', n, '--features', '20', '--classes', '3'],
  {
    encoding: 'utf8',
  },
)
  .trim()
  .split('\n')
  .pop();
const data = toGroveDataset(loadPart(dir, 'train', readHeader(dir)));
const forest = fitForest(data, {
  trees: Number(arg('--trees', '100')),
  maxDepth: Number(arg('--depth', '8')),
  seed: 1,
});
const t0 = performance.now();
const shap = shapValues(forest, data);
const seconds = (performance.now() - t0) / 1000;
const proba = forest.predictProbaFlat(data);
const f = shap.features.length;
const k = shap.classes.length;
let gap = 0;
for (let i = 0; i < shap.nRows; i++)
  for (let c = 0; c < k; c++) {
    let sum = shap.expected[c];
    for (let j = 0; j < f; j++) sum += shap.values[(i * f + j) * k + c];
    gap = Math.max(gap, Math.abs(sum - proba[i * k + c]));
  }
const s = forest.stats();
console.log(
  JSON.stringify({
    rows: shap.nRows,
    trees: forest.trees.length,
    classes: k,
    stats: s,
    seconds: +seconds.toFixed(2),
    localAccuracyGap: gap,
  }),
);
