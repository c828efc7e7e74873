// 5,000 classes × 5,000 rows (one row per class, 10 numeric features): fit time and peak memory.
//   node bench/many-classes.mjs [dist] [prune] [classes]
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const dist = path.resolve(process.argv[2] ?? 'dist');
const prune = process.argv[3] ?? 'none';
const k = Number(process.argv[4] ?? 5000);
const { fit } = await import(pathToFileURL(path.join(dist, 'index.js')).href);
let seed = 9;
const rand = () => {
  seed = (seed * 1103515245 + 12345) >>> 0;
  return seed / 2 ** 32;
};
const d = 10;
const features = Array.from({ length: d }, (_, f) => ({
  kind: 'numeric',
  name: `x${f}`,
  values: Float64Array.from({ length: k }, rand),
}));
const labels = Int32Array.from({ length: k }, (_, i) => i);
const classes = Array.from({ length: k }, (_, i) => `c${i}`);
const data = { features, labels, classes, targetName: 'y', nRows: k };
let peak = 0;
const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
const t0 = Date.now();
const tree = fit(data, prune === 'default' ? {} : { prune });
const ms = Date.now() - t0;
clearInterval(timer);
peak = Math.max(peak, process.memoryUsage().rss);
console.log(
  `${k} classes, prune ${prune}: ${ms} ms, nodes ${tree.stats().nodes}, peak rss ${(peak / 2 ** 20).toFixed(0)} MB`,
);
