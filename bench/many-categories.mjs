// Time to fit one categorical feature with m distinct values (an ID column) and two classes:
// node bench/many-categories.mjs [dist] [m...]

import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

const dist = path.resolve(process.argv[2] ?? 'dist');
const sizes = process.argv.slice(3).map(Number);
const { fit, datasetFromRows, scoreAttributes } = await import(pathToFileURL(path.join(dist, 'index.js')).href);

let seed = 7;
const rand = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
for (const m of sizes.length ? sizes : [50_000, 100_000]) {
  const rows = [];
  for (let i = 0; i < m; i++) rows.push({ id: `v${i}`, y: rand() < 0.5 ? 'a' : 'b' });
  const data = datasetFromRows(rows);
  for (const [mode, extra] of [
    ['exact', {}],
    ['histogram', { bins: 255 }],
  ]) {
    const t0 = performance.now();
    const tree = fit(data, { ...extra, maxDepth: 1 });
    const t1 = performance.now();
    tree.predict(rows.slice(0, 1000));
    scoreAttributes(data, extra);
    const t2 = performance.now();
    console.log(`${m} categories, ${mode}: fit ${(t1 - t0).toFixed(0)} ms, score ${(t2 - t1).toFixed(0)} ms`);
  }
}
