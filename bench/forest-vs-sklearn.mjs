#!/usr/bin/env node
/**
 * Accuracy (and, as a side note, fit time) of grove's random forest against scikit-learn's
 * RandomForestClassifier: 100 trees, gini, sqrt features, bootstrap, the same stratified folds,
 * same run, same machine. Not part of `npm test`.
 *
 *   npm run build
 *   node bench/forest-vs-sklearn.mjs [--datasets iris,wine,...] [--folds 10] [--trees 100]
 *
 * scikit-learn: Debian's /usr/bin/python3 with python3-sklearn ($GROVE_BENCH_PYTHON overrides),
 * three seeds (random_state 0, 1, 2), n_jobs=1; grove: seed 1, one thread. Numeric data sets only
 * (scikit-learn's forest takes numbers). Writes bench/results/forest-vs-sklearn.{md,json}.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const BENCH = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(BENCH, '..');
const DATA_DIR = process.env.GROVE_DATA_DIR ?? resolve(ROOT, '../shared/datasets');
const PYTHON = process.env.GROVE_BENCH_PYTHON ?? '/usr/bin/python3';
const { readDataset, fitForest, stratifiedFolds } = await import(join(ROOT, 'dist/node.js'));
const { subsetRows } = await import(join(ROOT, 'dist/data/subset.js'));

const argv = process.argv.slice(2);
const args = {};
for (let i = 0; i < argv.length; i++) if (argv[i].startsWith('--')) args[argv[i].slice(2)] = argv[i + 1];
const datasets = (args.datasets ?? 'iris,wine,sonar,glass,ionosphere,pima-indians-diabetes').split(',');
const folds = Number(args.folds ?? 10);
const trees = Number(args.trees ?? 100);

const PY = `
import json, sys, time
import numpy as np
from sklearn.ensemble import RandomForestClassifier
d = json.load(open(sys.argv[1]))
X = np.array(d['X'], dtype=float); y = np.array(d['y']); fold = np.array(d['folds'])
out = {}
for seed in (0, 1, 2):
    right = 0; t = 0.0
    for f in range(int(fold.max()) + 1):
        tr, te = fold != f, fold == f
        if te.sum() == 0: continue
        m = RandomForestClassifier(n_estimators=d['trees'], random_state=seed, n_jobs=1)
        t0 = time.perf_counter(); m.fit(X[tr], y[tr]); t += time.perf_counter() - t0
        right += int((m.predict(X[te]) == y[te]).sum())
    out[str(seed)] = {'accuracy': right / len(y), 'fitSeconds': t}
print(json.dumps(out))
`;

const dir = mkdtempSync(join(tmpdir(), 'grove-forest-bench-'));
const pyFile = join(dir, 'rf.py');
writeFileSync(pyFile, PY);
const rows = [];
for (const name of datasets) {
  const data = await readDataset(join(DATA_DIR, `${name}.csv`));
  if (data.features.some((c) => c.kind !== 'numeric')) {
    console.error(`${name}: skipped (categorical features)`);
    continue;
  }
  const assignment = stratifiedFolds(data.labels, data.classes.length, folds, 1);
  let right = 0;
  let fitMs = 0;
  for (let f = 0; f < folds; f++) {
    const train = [];
    const test = [];
    for (let i = 0; i < data.nRows; i++) (assignment[i] === f ? test : train).push(i);
    if (test.length === 0) continue;
    const t0 = performance.now();
    const forest = fitForest(subsetRows(data, train), { trees, seed: 1, threads: 1 });
    fitMs += performance.now() - t0;
    const testData = subsetRows(data, test);
    const codes = forest.predictCodes(testData);
    for (let i = 0; i < test.length; i++) if (codes[i] === testData.labels[i]) right++;
  }
  const X = Array.from({ length: data.nRows }, (_, i) => data.features.map((c) => c.values[i]));
  const jsonFile = join(dir, `${name}.json`);
  writeFileSync(jsonFile, JSON.stringify({ X, y: Array.from(data.labels), folds: Array.from(assignment), trees }));
  const py = spawnSync(PYTHON, [pyFile, jsonFile], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (py.status !== 0) throw new Error(`${name}: scikit-learn failed: ${py.stderr}`);
  const sk = JSON.parse(py.stdout);
  const skAcc = [0, 1, 2].map((s) => sk[s].accuracy);
  const row = {
    dataset: name,
    rows: data.nRows,
    grove: right / data.nRows,
    sklearnMean: skAcc.reduce((a, b) => a + b, 0) / 3,
    sklearnWorst: Math.min(...skAcc),
    groveFitSeconds: fitMs / 1000,
    sklearnFitSeconds: [0, 1, 2].reduce((a, s) => a + sk[s].fitSeconds, 0) / 3,
  };
  rows.push(row);
  console.error(JSON.stringify(row));
}
const pct = (x) => (100 * x).toFixed(2);
const mean = (f) => rows.reduce((a, r) => a + f(r), 0) / rows.length;
const lines = [
  `# grove random forest vs scikit-learn RandomForestClassifier (${trees} trees, ${folds}-fold CV, same folds)`,
  '',
  '| data set | rows | grove % | sklearn mean of 3 seeds % | sklearn worst seed % | grove − sklearn mean | fit s grove / sklearn (1 thread) |',
  '|---|---:|---:|---:|---:|---:|---:|',
  ...rows.map(
    (r) =>
      `| ${r.dataset} | ${r.rows} | ${pct(r.grove)} | ${pct(r.sklearnMean)} | ${pct(r.sklearnWorst)} | ` +
      `${(100 * (r.grove - r.sklearnMean)).toFixed(2)} | ${r.groveFitSeconds.toFixed(1)} / ${r.sklearnFitSeconds.toFixed(1)} |`,
  ),
  `| mean | | ${pct(mean((r) => r.grove))} | ${pct(mean((r) => r.sklearnMean))} | | ${(100 * mean((r) => r.grove - r.sklearnMean)).toFixed(2)} | |`,
  '',
];
mkdirSync(join(BENCH, 'results'), { recursive: true });
writeFileSync(join(BENCH, 'results', 'forest-vs-sklearn.md'), lines.join('\n'));
writeFileSync(join(BENCH, 'results', 'forest-vs-sklearn.json'), `${JSON.stringify(rows, null, 2)}\n`);
console.log(lines.join('\n'));
