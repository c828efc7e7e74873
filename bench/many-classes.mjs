// k classes × k rows (one row per class, 10 numeric features): fit CPU time and peak memory of
// grove unpruned and with the default (CV-pruned) preset, and scikit-learn's unpruned
// DecisionTreeClassifier on the same data (bench/many_classes_sklearn.py, Debian's /usr/bin/python3
// or $GROVE_BENCH_PYTHON), in one run; prints the ratios to scikit-learn's time.
// A preset may add numeric options after a colon: `none:bins=255` grows unpruned in histogram mode.
//   node bench/many-classes.mjs [dist] [presets: none,default] [classes: 5000] [sklearn: yes|no]
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const dist = path.resolve(process.argv[2] ?? 'dist');
const presets = (process.argv[3] ?? 'none,default').split(',');
const k = Number(process.argv[4] ?? 5000);
const withSklearn = (process.argv[5] ?? 'yes') !== 'no';
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

const cpuSeconds = (u) => (u.user + u.system) / 1e6;
const grove = new Map();
for (const preset of presets) {
  const [prune, ...extra] = preset.split(':');
  const more = Object.fromEntries(extra.map((kv) => kv.split('=')).map(([key, v]) => [key, Number(v)]));
  let peak = 0;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const c0 = process.cpuUsage();
  const tree = fit(data, prune === 'default' ? more : { prune, ...more });
  const cpu = cpuSeconds(process.cpuUsage(c0));
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  grove.set(preset, cpu);
  console.log(
    `grove ${k} classes, prune ${preset}: ${cpu.toFixed(2)} s CPU, nodes ${tree.stats().nodes}, peak rss ${(peak / 2 ** 20).toFixed(0)} MB`,
  );
}
if (withSklearn) {
  const python = process.env.GROVE_BENCH_PYTHON ?? '/usr/bin/python3';
  if (!existsSync(python)) {
    console.error(`${python} not found: apt-get install -y python3-sklearn (Debian), or set GROVE_BENCH_PYTHON`);
    process.exit(2);
  }
  const env = { ...process.env, PYTHONNOUSERSITE: '1' };
  for (const v of ['PYTHONPATH', 'PYTHONHOME', 'VIRTUAL_ENV', 'PYENV_VERSION']) delete env[v];
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'many_classes_sklearn.py');
  const py = spawnSync(python, [script, String(k)], { env, encoding: 'utf8' });
  if (py.status !== 0) {
    console.error(`scikit-learn side failed: ${(py.stderr || String(py.error ?? '')).trim().split('\n').pop()}`);
    process.exit(2);
  }
  const sk = JSON.parse(py.stdout);
  console.log(`sklearn ${k} classes, unpruned: ${sk.cpu.toFixed(2)} s CPU, nodes ${sk.nodes}`);
  for (const [prune, cpu] of grove) console.log(`ratio grove ${prune} / sklearn: ${(cpu / sk.cpu).toFixed(2)}`);
}
