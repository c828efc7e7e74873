#!/usr/bin/env node
/**
 * TreeSHAP throughput: grove's shapValues on the unpruned CART tree of the 200k × 20, 2-class
 * synthetic set of bench/run.mjs (the model cached next to the data), on 1 and on 2 threads
 * (`shapValues(…, { threads })`: workers start with each call), against XGBoost's pred_contribs
 * (Debian python3-xgboost) on one XGBoost tree grown to the same depth from the same rows, in
 * alternating rounds. Prints rows/s (wall) of each, medians, per-round ratios and both
 * local-accuracy gaps.
 *
 *   apt-get install -y python3-xgboost     # once (Debian)
 *   npm run build && node bench/shap.mjs [--n 200000] [--rows 2000] [--seconds 3] [--rounds 3]
 *
 * grove explains both classes' probabilities; XGBoost explains its one margin output; each with
 * 1 and with 2 threads.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fit, loadModel, saveModel, shapValues } from '../dist/node.js';
import { loadPart, readHeader, toGroveDataset } from './lib/data.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const n = arg('--n', '200000');
const rows = Number(arg('--rows', '2000'));
const seconds = Number(arg('--seconds', '3'));
const rounds = Number(arg('--rounds', '3'));
const here = new URL('.', import.meta.url).pathname;
const dir = execFileSync(
  process.execPath,
  [join(here, 'synthetic.mjs'), '--n', n, '--features', '20', '--classes', '2'],
  {
    encoding: 'utf8',
  },
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
const sample = {
  ...test,
  nRows: rows,
  labels: test.labels.subarray(0, rows),
  features: test.features.map((f) => ({ ...f, values: f.values.subarray(0, rows) })),
};

const shap = shapValues(tree, sample); // warm-up, and the local-accuracy check
const proba = tree.predictProbaFlat(sample);
const f = shap.features.length;
let gap = 0;
for (let i = 0; i < rows; i++)
  for (let c = 0; c < 2; c++) {
    let sum = shap.expected[c];
    for (let j = 0; j < f; j++) sum += shap.values[(i * f + j) * 2 + c];
    gap = Math.max(gap, Math.abs(sum - proba[i * 2 + c]));
  }
function groveRound(threads) {
  let done = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < seconds * 1000) {
    shapValues(tree, sample, { threads });
    done += rows;
  }
  return +((done / (performance.now() - t0)) * 1000).toFixed(2);
}
function xgboostRound(threads) {
  const out = execFileSync(
    '/usr/bin/python3',
    [
      join(here, 'shap_xgboost.py'),
      '--dir',
      dir,
      '--depth',
      String(s.height),
      '--rows',
      String(rows),
      '--threads',
      String(threads),
      '--seconds',
      String(seconds),
    ],
    { encoding: 'utf8' },
  );
  return JSON.parse(out.trim().split('\n').pop());
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const s = tree.stats();
console.log(
  JSON.stringify({ system: 'grove', nodes: s.nodes, leaves: s.leaves, height: s.height, rows, localAccuracyGap: gap }),
);
// Alternating rounds (the machine is shared: compare within a round, report medians).
const grove = [];
const grove2 = [];
const xgb1 = [];
const xgb2 = [];
let xgbInfo;
for (let r = 0; r < rounds; r++) {
  grove.push(groveRound(1));
  grove2.push(groveRound(2));
  try {
    xgbInfo = xgboostRound(1);
    xgb1.push(xgbInfo.rowsPerSecond);
    xgb2.push(xgboostRound(2).rowsPerSecond);
  } catch (e) {
    console.log(JSON.stringify({ system: 'xgboost', skipped: String(e.message).split('\n')[0] }));
    break;
  }
  console.log(
    JSON.stringify({ round: r + 1, grove1: grove[r], grove2: grove2[r], xgboost1: xgb1[r], xgboost2: xgb2[r] }),
  );
}
if (xgbInfo) console.log(JSON.stringify({ ...xgbInfo, rowsPerSecond: undefined }));
console.log(
  JSON.stringify({
    groveRowsPerSecond1Thread: median(grove),
    groveRowsPerSecond2Threads: median(grove2),
    xgboostRowsPerSecond1Thread: median(xgb1),
    xgboostRowsPerSecond2Threads: median(xgb2),
    groveOverXgboost1Thread: xgb1.length ? +(median(grove) / median(xgb1)).toFixed(3) : null,
    groveOverXgboost2Threads: xgb2.length ? +(median(grove2) / median(xgb2)).toFixed(3) : null,
    roundRatios: grove.map((g, r) => +(g / xgb1[r]).toFixed(3)).filter(Number.isFinite),
  }),
);
