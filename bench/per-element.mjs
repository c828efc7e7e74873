#!/usr/bin/env node
/**
 * What bounds grove's fit time: nanoseconds of fit CPU time per row·feature·level, i.e. per entry
 * a split scan and a partition touch (Σ over internal nodes of rows × features). Synthetic data
 * from the same generator idea as bench/synthetic.mjs (seeded; 5 informative + noise features).
 *
 *   npm run build && node bench/per-element.mjs [--n 1000000] [--d 20] [--k 2] [--bins 255] [--criterion gini] [--threads 1]
 *     [--average-gain-rule]          (C4.5's rule: best score among splits of at least average information gain)
 *     [--threshold-criterion NAME]   (the measure that picks numeric thresholds; C4.5: info-gain)
 */
import { fit } from '../dist/node.js';
import { mulberry32 } from './synthetic.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const n = Number(arg('--n', '1000000'));
const d = Number(arg('--d', '20'));
const k = Number(arg('--k', '2'));
const bins = arg('--bins', undefined);
const criterion = arg('--criterion', 'gini');
const threads = arg('--threads', '1');
const averageGainRule = process.argv.includes('--average-gain-rule');
const thresholdCriterion = arg('--threshold-criterion', undefined);

const random = mulberry32(12345);
const gauss = () => Math.sqrt(-2 * Math.log(random() + 1e-12)) * Math.cos(2 * Math.PI * random());
const labels = new Int32Array(n);
for (let i = 0; i < n; i++) labels[i] = Math.floor(random() * k);
const features = [];
for (let f = 0; f < d; f++) {
  const values = new Float64Array(n);
  for (let i = 0; i < n; i++) values[i] = (f < 5 ? (labels[i] * 0.5 * (f + 1)) / 5 : 0) + gauss();
  features.push({ kind: 'numeric', name: `x${f}`, values });
}
const data = { features, labels, classes: Array.from({ length: k }, (_, i) => i), targetName: 'y', nRows: n };
const options = {
  algorithm: 'cart',
  criterion,
  prune: 'none',
  threads: threads === 'auto' ? 'auto' : Number(threads),
  ...(bins ? { bins: Number(bins) } : {}),
  averageGainRule,
  ...(thresholdCriterion ? { thresholdCriterion } : {}),
};

const c0 = process.cpuUsage();
const t0 = performance.now();
const tree = fit(data, options);
const wall = performance.now() - t0;
const cpu = process.cpuUsage(c0);
const cpuMs = (cpu.user + cpu.system) / 1000;
let touched = 0;
for (const node of tree.nodes) if (node.split) touched += node.n * d;
const st = tree.stats();
console.log(
  JSON.stringify({
    n,
    d,
    k,
    criterion,
    averageGainRule,
    thresholdCriterion,
    threads,
    mode: bins ? `hist(${bins})` : 'exact',
    fitWallMs: Math.round(wall),
    fitCpuMs: Math.round(cpuMs),
    nodes: st.nodes,
    height: st.height,
    rowFeatureLevels: touched,
    nsPerRowFeatureLevel: Number(((cpuMs * 1e6) / touched).toFixed(2)),
  }),
);
