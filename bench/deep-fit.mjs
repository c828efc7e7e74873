// Fit data that grows an (n-1)-deep chain through the API, exact and histogram mode, then
// stats() and predict: node bench/deep-fit.mjs [dist] [rows]. One numeric feature x = i with
// alternating labels: each split peels one row off an end. Cost is quadratic in the depth (every
// node scans its rows), so 100,000 rows take minutes; too slow for a test.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const dist = path.resolve(process.argv[2] ?? 'dist');
const n = Number(process.argv[3] ?? 100_000);
const { fit } = await import(pathToFileURL(path.join(dist, 'index.js')).href);
const x = Float64Array.from({ length: n }, (_, i) => i);
const labels = Int32Array.from({ length: n }, (_, i) => i % 2);
const data = {
  features: [{ kind: 'numeric', name: 'x', values: x }],
  labels,
  classes: ['a', 'b'],
  targetName: 'y',
  nRows: n,
};
for (const extra of [{}, { bins: 65535 }]) {
  const t0 = Date.now();
  const tree = fit(data, { ...extra, prune: 'none' });
  const s = tree.stats();
  const p = tree.predict([{ x: 3 }]);
  console.log(JSON.stringify(extra), `${Date.now() - t0} ms`, 'height', s.height, 'nodes', s.nodes, p);
}
