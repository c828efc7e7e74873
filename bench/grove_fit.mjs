#!/usr/bin/env node
/**
 * grove side of bench/fit-vs-sklearn.mjs: ONE data set and ONE criterion per process, so that
 * earlier fits with other criteria cannot change what V8 has compiled (the criterion call in
 * the split scanner goes polymorphic/megamorphic once several measures have run in one process,
 * which slows a later gini fit by ~10%). Prints one JSON object on stdout.
 *
 *   node bench/grove_fit.mjs --data FILE.csv --criterion gini [--repeats 3]
 *
 * Timed: fit(data, { algorithm: 'cart', criterion, prune: 'none' }) only; readDataset() runs before the clock.
 * The first repeat includes V8's compilation of the grower (`firstMs`, the cold fit a one-off
 * `grove fit` gets); best-of-N is the warm fit of a process that fits again and again.
 * No forced garbage collection between repeats: a `gc()` (node --expose-gc) discards V8's optimised
 * code, so every repeat ran cold (spambase: 230-280 ms each over 8 repeats with it, 100-165 ms by the
 * third without; 424 functions optimised against 194).
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
};
const file = arg('--data');
const criterion = arg('--criterion', 'gini');
const repeats = Number(arg('--repeats', '3'));
if (!file || !Number.isInteger(repeats) || repeats < 1) {
  console.error('usage: node --expose-gc bench/grove_fit.mjs --data FILE.csv --criterion NAME [--repeats N]');
  process.exit(2);
}
const entry = join(ROOT, 'dist', 'node.js');
if (!existsSync(entry)) {
  console.error(`grove_fit.mjs: ${entry} not found: run 'npm run build' first`);
  process.exit(1);
}
const { fit, readDataset } = await import(pathToFileURL(entry).href);

const t0 = performance.now();
const data = await readDataset(file);
const readMs = performance.now() - t0;

const times = [];
let tree;
let shape;
for (let r = 0; r < repeats; r++) {
  const t = performance.now();
  tree = fit(data, { algorithm: 'cart', criterion, prune: 'none' });
  times.push(performance.now() - t);
  const s = tree.stats();
  const now = `${s.nodes}/${s.leaves}/${s.height}`;
  if (shape !== undefined && now !== shape) {
    console.error(`grove_fit.mjs: ${file} ${criterion}: repeat ${r + 1} grew a different tree (${now} vs ${shape})`);
    process.exit(1);
  }
  shape = now;
}
const s = tree.stats();
const pred = tree.predictCodes(data);
let ok = 0;
for (let i = 0; i < data.nRows; i++) if (pred[i] === data.labels[i]) ok++;
const sorted = [...times].sort((a, b) => a - b);
const m = sorted.length >> 1;
process.stdout.write(
  `${JSON.stringify({
    rows: data.nRows,
    features: data.features.length,
    classes: data.classes.length,
    featureKinds: [...new Set(data.features.map((c) => c.kind))],
    system: 'grove',
    criterion,
    params: `fit(data, { algorithm: 'cart', criterion: '${criterion}', prune: 'none' })`,
    readMs,
    timesMs: times,
    firstMs: times[0],
    bestMs: sorted[0],
    medianMs: sorted.length % 2 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2,
    nodes: s.nodes,
    leaves: s.leaves,
    height: s.height,
    trainAccuracy: ok / data.nRows,
  })}\n`,
);
