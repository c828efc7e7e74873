#!/usr/bin/env node
/**
 * TreeSHAP on a forest: 100 trees of depth ≤ 8 fitted on the 10,000 training rows of the 10k × 20,
 * 3-class synthetic set of bench/run.mjs (the forest cached next to the data), every class of
 * every one of the 10,000 rows explained, on each of --threads; against XGBoost's pred_contribs
 * (Debian python3-xgboost) on a random forest of the same shape (bench/shap_xgboost.py --forest:
 * 100 parallel trees per class, depth 8, same rows), in alternating rounds. Prints wall and CPU
 * seconds of each, the ratios within each round, and both local-accuracy gaps.
 *
 *   apt-get install -y python3-xgboost     # once (Debian)
 *   npm run build && nice -n 10 node bench/shap-forest.mjs [--n 10000] [--trees 100] [--depth 8] \
 *     [--threads 1,2] [--xgboost-threads 2] [--rounds 1] [--no-xgboost] [--baseline DIST]
 *
 * --baseline DIST also runs another build's shapValues (its dist/ folder, e.g. a checkout of an
 * earlier commit, built) on the same forest and rows in each round, labelled `baseline<threads>`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fitForest, loadAnyModel, saveModel, shapValues } from '../dist/node.js';
import { loadPart, readHeader, toGroveDataset } from './lib/data.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const n = arg('--n', '10000');
const trees = Number(arg('--trees', '100'));
const depth = Number(arg('--depth', '8'));
const threads = arg('--threads', '1,2').split(',').map(Number);
const xgbThreads = Number(arg('--xgboost-threads', '2'));
const rounds = Number(arg('--rounds', '1'));
const baselineDir = arg('--baseline', undefined);
const baseline = baselineDir === undefined ? undefined : await import(join(resolve(baselineDir), 'node.js'));
const here = new URL('.', import.meta.url).pathname;
const dir = execFileSync(
  process.execPath,
  [join(here, 'synthetic.mjs'), '--n', n, '--features', '20', '--classes', '3'],
  { encoding: 'utf8' },
)
  .trim()
  .split('\n')
  .pop();
const data = toGroveDataset(loadPart(dir, 'train', readHeader(dir)));
const modelPath = join(dir, `forest${trees}-depth${depth}.json`);
/** The cached forest, unless absent or written by a grove whose forest files this one does not read. */
function cachedForest() {
  if (!existsSync(modelPath)) return undefined;
  try {
    return loadAnyModel(modelPath);
  } catch (e) {
    if (e?.code !== 'E_MODEL') throw e;
    return undefined;
  }
}
let forest = cachedForest();
if (forest === undefined) {
  forest = fitForest(data, { trees, maxDepth: depth, seed: 1 });
  saveModel(forest, modelPath);
}

const baselineForest = baseline?.loadAnyModel(modelPath);

/** One timed shapValues over every row: wall and CPU seconds (CPU of every thread of the process). */
function groveRun(t, explain = shapValues, model = forest) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const shap = explain(model, data, { threads: t });
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(c0);
  return { shap, seconds: +seconds.toFixed(2), cpuSeconds: +((cpu.user + cpu.system) / 1e6).toFixed(2) };
}

function gapOf(shap) {
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
  return gap;
}

function xgboostRun() {
  const args = [join(here, 'shap_xgboost.py'), '--dir', dir, '--depth', String(depth), '--forest', String(trees)];
  const out = execFileSync('/usr/bin/python3', [...args, '--part', 'train', '--threads', String(xgbThreads)], {
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').pop());
}

const s = forest.stats();
console.log(
  JSON.stringify({
    system: 'grove',
    rows: data.nRows,
    trees: s.trees,
    classes: forest.classes.length,
    nodes: s.nodes,
    leaves: s.leaves,
    depth: s.depth,
  }),
);
const first = new Map();
for (let r = 0; r < rounds; r++) {
  const round = { round: r + 1 };
  for (const t of threads) {
    const run = groveRun(t);
    if (!first.has(t)) first.set(t, run.shap);
    round[`grove${t}`] = { seconds: run.seconds, cpuSeconds: run.cpuSeconds };
    if (r === 0) round[`grove${t}`].localAccuracyGap = gapOf(run.shap);
    if (baseline !== undefined) {
      const b = groveRun(t, baseline.shapValues, baselineForest);
      round[`baseline${t}`] = { seconds: b.seconds, cpuSeconds: b.cpuSeconds };
    }
  }
  if (!process.argv.includes('--no-xgboost')) {
    try {
      const x = xgboostRun();
      round[`xgboost${xgbThreads}`] = x;
      for (const t of threads) round[`grove${t}OverXgboost`] = +(round[`grove${t}`].seconds / x.seconds).toFixed(3);
    } catch (e) {
      round.xgboost = { skipped: String(e.message).split('\n')[0] };
    }
  }
  console.log(JSON.stringify(round));
}
// Threads change nothing: every thread count's values equal the first's, bit for bit.
const [base, ...rest] = [...first.values()];
const same = rest.every((v) => Buffer.from(v.values.buffer).equals(Buffer.from(base.values.buffer)));
console.log(JSON.stringify({ threads, bitIdentical: same }));
