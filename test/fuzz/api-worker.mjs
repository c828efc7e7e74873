/**
 * Worker for test/fuzz/api.test.ts: calls every function exported from one built entry point
 * (dist/index.js, dist/extend.js) and, for the main one, every method of a fitted DecisionTree with junk arguments, and reports per
 * target whether anything other than a GroveError escaped. It announces each target before running
 * it, so the test can tell a hang (no report within its time) from a failure, end this worker and
 * go on in a new one from the next target.
 */
import { parentPort, workerData } from 'node:worker_threads';
import fc from 'fast-check';
import { describe, junkArgs } from './junk.mjs';

const api = await import(workerData.library);
const { GroveError, DecisionTree, datasetFromRows, fit } = await import(new URL('index.js', `file://${workerData.library}`).href);

function tree() {
  const rows = [
    ['Sunny', 85, 'No'],
    ['Sunny', 80, 'No'],
    ['Overcast', 83, 'Yes'],
    ['Rain', 70, 'Yes'],
    ['Rain', 68, 'Yes'],
    ['Rain', 65, 'No'],
    ['Overcast', 64, 'Yes'],
    ['Sunny', 72, 'No'],
  ];
  return fit(datasetFromRows(rows, { columns: ['outlook', 'temp', 'play'] }), { algorithm: 'cart' });
}

/** Every target by name: exported functions (constructors with `new`) and `DecisionTree#method`. */
function targets() {
  const out = new Map();
  for (const [name, value] of Object.entries(api)) {
    if (typeof value !== 'function' || name === 'GroveError') continue;
    // A class is called as a user calls it: with `new`.
    const isClass = /^class\b/.test(Function.prototype.toString.call(value));
    out.set(name, isClass ? (...a) => new value(...a) : value);
  }
  if (!('DecisionTree' in api)) return out;
  const t = tree();
  for (const m of ['predict', 'predictCodes', 'predictProba', 'predictProbaFlat', 'costComplexityPath', 'stats'])
    out.set(`DecisionTree#${m}`, (...a) => t[m](...a));
  out.set('DecisionTree.fromJSON', (...a) => DecisionTree.fromJSON(...a));
  return out;
}

const all = targets();
if (workerData.list) parentPort.postMessage({ type: 'list', names: [...all.keys()] });
for (const name of workerData.names) {
  const fn = all.get(name);
  parentPort.postMessage({ type: 'start', name });
  const result = fc.check(
    fc.property(junkArgs, (args) => {
      try {
        fn(...args);
      } catch (err) {
        if (err instanceof GroveError) return;
        throw err;
      }
    }),
    { seed: workerData.seed, numRuns: workerData.numRuns },
  );
  const failure = result.failed
    ? `${result.errorInstance?.constructor?.name ?? 'error'}: ${String(result.errorInstance?.message ?? result.error).split('\n')[0]} ` +
      `(args ${result.counterexample?.[0].map(describe).join(', ')}; seed ${result.seed}, path ${result.counterexamplePath})`
    : undefined;
  parentPort.postMessage({ type: 'done', name, failure });
}
