#!/usr/bin/env node
/**
 * ml-cart / scikitjs side of bench/run.mjs: ONE (peer, data set) per process. Both libraries
 * live in bench/peers/node_modules (installed on demand by run.mjs with
 * `npm install --prefix bench/peers`), never in grove's dependencies.
 *
 *   node --expose-gc bench/child-jspeer.mjs --peer ml-cart|scikitjs --dir DIR [--repeats 1]
 *        [--budget-seconds 120] [--predict-seconds 0.5]
 *
 * Both take X as arrays of rows (number[][]), built from the binary cache before the clock;
 * categorical codes are given as numbers (missing = -1); a missing numeric value -> skipped.
 *   ml-cart 2.1.1: new DecisionTreeClassifier({ gainFunction: 'gini', maxDepth: Infinity,
 *     minNumSamples: 1, gainThreshold: 0 }).train(X, y)   (defaults are minNumSamples 3 and
 *     gainThreshold 0.01, which stop early; minNumSamples 1 = a node of one row is a leaf)
 *   scikitjs 1.24: new DecisionTreeClassifier({ criterion: 'gini', maxDepth: undefined,
 *     minSamplesSplit: 2, minSamplesLeaf: 1 }).fit(X, y), TensorFlow.js core with its pure-JS
 *     CPU backend (@tensorflow/tfjs-backend-cpu; no native tfjs-node).
 * Same JSON-lines protocol and memory fields as child-grove.mjs.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hasNumericNaN, loadPart, procMemory, readHeader, toRowArrays } from './lib/data.mjs';

const BENCH = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
};
const peer = arg('--peer');
const dir = arg('--dir');
const repeats = Number(arg('--repeats', '1'));
const budgetMs = Number(arg('--budget-seconds', '120')) * 1000;
const predictMs = Number(arg('--predict-seconds', '0.5')) * 1000;
const emit = (o) => process.stdout.write(`${JSON.stringify(o)}\n`);
if (!dir || !['ml-cart', 'scikitjs'].includes(peer)) {
  console.error('usage: node bench/child-jspeer.mjs --peer ml-cart|scikitjs --dir DIR [--repeats N]');
  process.exit(2);
}
const require = createRequire(join(BENCH, 'peers', 'package.json'));
const version = (name) =>
  JSON.parse(readFileSync(join(BENCH, 'peers', 'node_modules', name, 'package.json'), 'utf8')).version;

let make; // () => { fit(X, y): Promise<void>, predict(X): Promise<number[]>, stats(): {...} }
let options;
if (peer === 'ml-cart') {
  const { DecisionTreeClassifier } = require('ml-cart');
  options = { gainFunction: 'gini', maxDepth: Infinity, minNumSamples: 1, gainThreshold: 0 };
  make = () => {
    const clf = new DecisionTreeClassifier(options);
    return {
      fit: async (X, y) => clf.train(X, y),
      predict: async (X) => clf.predict(X),
      stats: () => {
        let nodes = 0,
          leaves = 0,
          height = 0;
        const walk = (n, depth) => {
          nodes++;
          height = Math.max(height, depth);
          if (n.left && n.right) {
            walk(n.left, depth + 1);
            walk(n.right, depth + 1);
          } else leaves++;
        };
        walk(clf.root, 0);
        return { nodes, leaves, height };
      },
    };
  };
} else {
  const tf = require('@tensorflow/tfjs-core');
  require('@tensorflow/tfjs-backend-cpu');
  const sk = require('scikitjs');
  sk.setBackend(tf);
  await tf.setBackend('cpu');
  options = { criterion: 'gini', maxDepth: undefined, minSamplesSplit: 2, minSamplesLeaf: 1 };
  make = () => {
    const clf = new sk.DecisionTreeClassifier(options);
    return {
      fit: async (X, y) => {
        await clf.fit(X, y);
      },
      predict: async (X) => {
        const p = clf.predict(X);
        return Array.isArray(p) ? p : await p.array();
      },
      stats: () => {
        const nodes = clf.tree.nodes;
        let leaves = 0,
          height = 0;
        const depth = new Int32Array(nodes.length);
        // nodes are stored parent before child
        nodes.forEach((n, i) => {
          if (n.parentId >= 0 && n.parentId !== undefined) depth[i] = depth[n.parentId] + 1;
          height = Math.max(height, depth[i]);
          if (n.isLeaf) leaves++;
        });
        return { nodes: nodes.length, leaves, height };
      },
    };
  };
}

globalThis.gc?.();
const memStart = procMemory();
const header = readHeader(dir);
const trainPart = loadPart(dir, 'train', header);
if (hasNumericNaN(trainPart)) {
  emit({ event: 'result', status: 'skipped', note: `${peer} has no missing-value handling (NaN in a numeric column)` });
  process.exit(0);
}
const train = toRowArrays(trainPart);
const memLoaded = procMemory();
emit({ event: 'loaded', atMs: performance.now() });
const times = [];
let model;
const t0 = performance.now();
for (let r = 0; r < repeats; r++) {
  if (r > 0 && performance.now() - t0 + times[times.length - 1] > budgetMs) break;
  model = undefined;
  globalThis.gc?.();
  const m = make();
  const t = performance.now();
  await m.fit(train.X, train.y);
  const ms = performance.now() - t;
  times.push(ms);
  model = m;
  emit({ event: 'fit', repeat: r, ms, nodes: m.stats().nodes });
}
const memFit = procMemory();
const s = model.stats();
const acc = (p, y) => {
  let ok = 0;
  for (let i = 0; i < y.length; i++) if (Number(p[i]) === y[i]) ok++;
  return ok / y.length;
};
const trainAccuracy = acc(await model.predict(train.X), train.y);
const test = toRowArrays(loadPart(dir, 'test', header));
let predicted = 0,
  passes = 0,
  testAccuracy;
const t = performance.now();
let elapsed = 0;
do {
  const p = await model.predict(test.X);
  if (testAccuracy === undefined) testAccuracy = acc(p, test.y);
  predicted += test.X.length;
  passes++;
  elapsed = performance.now() - t;
} while (elapsed < predictMs);
const memEnd = procMemory();
const sorted = [...times].sort((a, b) => a - b);
const mid = sorted.length >> 1;
emit({
  event: 'result',
  status: 'ok',
  system: peer,
  mode: 'exact',
  criterion: 'gini',
  options: JSON.stringify(options, (_k, v) => (v === Infinity ? 'Infinity' : v)),
  version: version(peer),
  rows: train.y.length,
  testRows: test.y.length,
  features: header.features.length,
  classes: header.classes.length,
  timesMs: times,
  bestMs: sorted[0],
  medianMs: sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2,
  nodes: s.nodes,
  leaves: s.leaves,
  height: s.height,
  trainAccuracy,
  testAccuracy,
  predictRowsPerSec: predicted / (elapsed / 1000),
  predictPasses: passes,
  mem: { rssStart: memStart.rss, rssLoaded: memLoaded.rss, hwmAfterFit: memFit.hwm, hwmEnd: memEnd.hwm },
});
