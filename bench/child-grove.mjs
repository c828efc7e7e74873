#!/usr/bin/env node
/**
 * grove side of bench/run.mjs: ONE (data set, mode, criterion) per process, so V8's compiled code
 * and the process's peak memory belong to this run alone. Progress lines and the final result are
 * JSON objects, one per line, on stdout ({"event": ...}); messages go to stderr.
 *
 *   node --expose-gc bench/child-grove.mjs --dir /tmp/grove-bench/<key> --mode exact|hist|exact-threads|hist-threads|exact-f32|hist-f32
 *        --criterion gini [--repeats 3] [--budget-seconds 120] [--predict-seconds 0.5] [--bins 255] [--float32]
 *
 * Timed: fit(data, options) only (the data are loaded before the clock from the binary cache,
 * as Float64Array column views, no CSV). Predict: tree.predictCodes(test) repeated until at
 * least --predict-seconds of work, rows/s = rows predicted / seconds.
 * Memory: VmRSS before the data are read (the runtime with grove loaded), VmHWM right after the
 * fits (load + fit peak), VmHWM at the end (with the test set and predictions as well).
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadPart, procMemory, readHeader, toGroveDataset } from './lib/data.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
};
const dir = arg('--dir');
const mode = arg('--mode', 'exact');
const criterion = arg('--criterion', 'gini');
const repeats = Number(arg('--repeats', '3'));
const budgetMs = Number(arg('--budget-seconds', '120')) * 1000;
const predictMs = Number(arg('--predict-seconds', '0.5')) * 1000;
const bins = Number(arg('--bins', '255'));
const fitOnly = args.includes('--fit-only'); // for profiling: stop after the fits
/** exact / hist, each also with float32 columns (-f32) and on every core (-threads). */
const GROVE_MODES = ['exact', 'hist', 'exact-threads', 'hist-threads', 'exact-f32', 'hist-f32'];
const float32 = args.includes('--float32') || mode.endsWith('-f32'); // numeric columns as float32 (grove's `float32` read option)
const threads = mode.endsWith('-threads') ? 'auto' : 1;
const emit = (o) => process.stdout.write(`${JSON.stringify(o)}\n`);
if (!dir || !Number.isInteger(repeats) || repeats < 1 || !GROVE_MODES.includes(mode)) {
  console.error(
    `usage: node --expose-gc bench/child-grove.mjs --dir DIR --mode ${GROVE_MODES.join('|')} --criterion NAME [--repeats N]`,
  );
  process.exit(2);
}
// run.mjs passes a snapshot of dist/ taken when the run started (other work may rebuild dist/ meanwhile).
const entry = join(process.env.GROVE_BENCH_DIST ?? join(ROOT, 'dist'), 'node.js');
if (!existsSync(entry)) {
  console.error(`child-grove.mjs: ${entry} not found: run 'npm run build' first`);
  process.exit(1);
}
const grove = await import(pathToFileURL(entry).href);
const { fit, DEFAULTS } = grove;
if (mode.startsWith('hist') && !('bins' in DEFAULTS)) {
  emit({ event: 'result', status: 'unavailable', note: 'hist: not available in this build (no `bins` in DEFAULTS)' });
  process.exit(0);
}
const options = {
  algorithm: 'cart',
  criterion,
  prune: 'none',
  maxDepth: Infinity,
  minSamplesLeaf: 1,
  minSamplesSplit: 2,
  threads,
};
if (mode.startsWith('hist')) options.bins = bins;

globalThis.gc?.();
const memStart = procMemory();
const header = readHeader(dir);
let t = performance.now();
const train = toGroveDataset(loadPart(dir, 'train', header, { float32 }));
const loadMs = performance.now() - t;
const memLoaded = procMemory();
// Time since this process started, so the driver can bound a capped run's fit time from below.
emit({ event: 'loaded', atMs: performance.now() });

const times = [];
let tree;
let shape;
const t0 = performance.now();
for (let r = 0; r < repeats; r++) {
  if (r > 0) {
    // Another repeat only if it fits the budget (a run that is too slow keeps its first times).
    const last = times[times.length - 1];
    if (performance.now() - t0 + last > budgetMs) break;
  }
  tree = undefined;
  globalThis.gc?.();
  t = performance.now();
  tree = fit(train, options);
  const ms = performance.now() - t;
  times.push(ms);
  const s = tree.stats();
  const now = `${s.nodes}/${s.leaves}/${s.height}`;
  if (shape !== undefined && now !== shape) {
    console.error(`child-grove.mjs: repeat ${r + 1} grew a different tree (${now} vs ${shape})`);
    process.exit(1);
  }
  shape = now;
  emit({ event: 'fit', repeat: r, ms, nodes: s.nodes });
}
const memFit = procMemory();
const s = tree.stats();
if (fitOnly) {
  emit({
    event: 'result',
    status: 'ok',
    system: 'grove',
    mode,
    criterion,
    timesMs: times,
    bestMs: Math.min(...times),
    nodes: s.nodes,
    leaves: s.leaves,
    height: s.height,
  });
  process.exit(0);
}

const accuracy = (data) => {
  const p = tree.predictCodes(data);
  let ok = 0;
  for (let i = 0; i < data.nRows; i++) if (p[i] === data.labels[i]) ok++;
  return ok / data.nRows;
};
const trainAccuracy = accuracy(train);
const test = toGroveDataset(loadPart(dir, 'test', header, { float32 }));
const testAccuracy = accuracy(test); // also the predict warm-up
// Predict throughput on the test rows, repeated to >= predictMs of work.
let predicted = 0;
let passes = 0;
t = performance.now();
let elapsed = 0;
do {
  tree.predictCodes(test);
  predicted += test.nRows;
  passes++;
  elapsed = performance.now() - t;
} while (elapsed < predictMs);
const memEnd = procMemory();

const sorted = [...times].sort((a, b) => a - b);
const m = sorted.length >> 1;
emit({
  event: 'result',
  status: 'ok',
  system: 'grove',
  mode,
  criterion,
  float32,
  options,
  rows: train.nRows,
  testRows: test.nRows,
  features: train.features.length,
  classes: train.classes.length,
  loadMs,
  timesMs: times,
  bestMs: sorted[0],
  medianMs: sorted.length % 2 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2,
  nodes: s.nodes,
  leaves: s.leaves,
  height: s.height,
  trainAccuracy,
  testAccuracy,
  predictRowsPerSec: predicted / (elapsed / 1000),
  predictPasses: passes,
  mem: { rssStart: memStart.rss, rssLoaded: memLoaded.rss, hwmAfterFit: memFit.hwm, hwmEnd: memEnd.hwm },
  node: process.version,
});
