#!/usr/bin/env node
/**
 * grove's random forest against ml-random-forest (npm, the most used forest in JavaScript) on the
 * corpus's small numeric data sets: 100 trees each, 10-fold cross-validation on the same stratified
 * folds, fit time (sum over the folds, wall and CPU, one thread each) and accuracy. The two fit
 * in the same process, alternating which goes first from fold to fold. Not part of `npm test`.
 *
 *   npx tsc -p tsconfig.json
 *   npm install --prefix /tmp/mlrf ml-random-forest@2.1.0    # not a grove dependency
 *   nice -n 10 node bench/forest-vs-mlrf.mjs --peer-dir /tmp/mlrf [--datasets iris,wine,...]
 *        [--max-rows 1000] [--folds 10] [--trees 100]
 *
 * grove: `fitForest(train, { trees, seed: 1, threads: 1 })` (gini, sqrt features drawn per node,
 * bootstrap, grown until pure). ml-random-forest, two settings:
 *   - `defaults`: `new RandomForestClassifier({ nEstimators: trees, noOOB: true })`, everything else
 *     its defaults (seed 42, bootstrap, every feature, drawn once per tree; ml-cart trees with
 *     `minNumSamples: 3`, `gainThreshold: 0.01`);
 *   - `sqrt, pure`: `maxFeatures` = floor(sqrt(d)) features drawn once per tree (it has no per-node
 *     draw) and trees grown until pure (`treeOptions: { gainFunction: 'gini', maxDepth: Infinity,
 *     minNumSamples: 1, gainThreshold: 0 }`), the closest it comes to scikit-learn's defaults.
 * grove also runs as ml-random-forest does by default (`grove as ml-rf defaults`: a random subspace
 * per tree of the expected share of distinct features among d drawn with replacement, bootstrap
 * rows, majority vote, `minSamplesSplit: 4`, `minGain: 0.01`), so accuracy compares at the same settings.
 * `--systems` picks some of: grove, grove as ml-rf defaults, ml-random-forest defaults,
 * ml-random-forest sqrt, pure (comma-separated; grove first is the ratios' base).
 * Data sets: every CSV of the corpus with at most --max-rows rows, numeric features only and no
 * missing value (ml-random-forest takes neither), unless --datasets names them.
 */
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values: opt } = parseArgs({
  options: {
    'peer-dir': { type: 'string' },
    data: { type: 'string', default: process.env.GROVE_DATA_DIR ?? resolve(ROOT, '../shared/datasets') },
    datasets: { type: 'string' },
    'max-rows': { type: 'string', default: '1000' },
    folds: { type: 'string', default: '10' },
    trees: { type: 'string', default: '100' },
    systems: { type: 'string' },
  },
});
if (!opt['peer-dir']) {
  console.error(
    'usage: node bench/forest-vs-mlrf.mjs --peer-dir DIR (where `npm install --prefix DIR ml-random-forest` put it)',
  );
  process.exit(2);
}
const require = createRequire(join(resolve(opt['peer-dir']), 'package.json'));
const { RandomForestClassifier } = require('ml-random-forest');
const mlrfVersion = require('ml-random-forest/package.json').version;
const { readDataset, fitForest, stratifiedFolds } = await import(join(ROOT, 'dist/node.js'));
const { subsetRows } = await import(join(ROOT, 'dist/data/subset.js'));
const folds = Number(opt.folds);
const trees = Number(opt.trees);
const maxRows = Number(opt['max-rows']);

/** The data sets to run: named, or every small numeric CSV without missing values. */
async function pick() {
  const names = opt.datasets
    ? opt.datasets.split(',')
    : readdirSync(opt.data)
        .filter((f) => f.endsWith('.csv'))
        .map((f) => f.slice(0, -4))
        .sort();
  const out = [];
  for (const name of names) {
    const data = await readDataset(join(opt.data, `${name}.csv`));
    const why =
      data.nRows > maxRows && !opt.datasets
        ? `${data.nRows} rows`
        : data.features.some((c) => c.kind !== 'numeric')
          ? 'categorical features'
          : data.features.some((c) => c.values.some((x) => Number.isNaN(x)))
            ? 'missing values'
            : '';
    if (why) console.error(`${name}: skipped (${why})`);
    else out.push({ name, data });
  }
  return out;
}

/** Wall and CPU (user + system) milliseconds of `f()`, and its result. */
function timed(f) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const value = f();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { value, wall, cpu: (c.user + c.system) / 1000 };
}

const SYSTEMS = {
  grove: (train, test) => {
    const fit = timed(() => fitForest(train.data, { trees, seed: 1, threads: 1 }));
    return { ...fit, codes: fit.value.predictCodes(test.data) };
  },
  // ml-random-forest's defaults in grove's terms: d features drawn with replacement per tree (about
  // 63 % of them distinct), bootstrap rows, majority vote; ml-cart leaves a node of 3 rows or fewer
  // and splits only for a Gini gain above 0.01.
  'grove as ml-rf defaults': (train, test) => {
    const fit = timed(() =>
      fitForest(train.data, {
        forest: 'random-subspace',
        bootstrap: true,
        maxFeatures: 1 - (1 - 1 / train.data.features.length) ** train.data.features.length,
        vote: 'majority',
        trees,
        seed: 1,
        threads: 1,
        minSamplesSplit: 4,
        minGain: 0.01,
      }),
    );
    return { ...fit, codes: fit.value.predictCodes(test.data) };
  },
  'ml-random-forest defaults': (train, test) => mlrf(train, test, {}),
  'ml-random-forest sqrt, pure': (train, test) =>
    mlrf(train, test, {
      maxFeatures: Math.max(1, Math.floor(Math.sqrt(train.rows[0].length))),
      treeOptions: { gainFunction: 'gini', maxDepth: Number.POSITIVE_INFINITY, minNumSamples: 1, gainThreshold: 0 },
    }),
};

function mlrf(train, test, extra) {
  const fit = timed(() => {
    const clf = new RandomForestClassifier({ nEstimators: trees, noOOB: true, ...extra });
    clf.train(train.rows, train.labels);
    return clf;
  });
  return { ...fit, codes: fit.value.predict(test.rows) };
}

/** A subset of rows as grove's Dataset and as ml-random-forest's number[][] and labels. */
function part(data, rows) {
  const sub = subsetRows(data, rows);
  return {
    data: sub,
    rows: Array.from({ length: sub.nRows }, (_, i) => sub.features.map((c) => c.values[i])),
    labels: Array.from(sub.labels),
  };
}

const names = opt.systems ? opt.systems.split(',') : Object.keys(SYSTEMS);
for (const s of names)
  if (!SYSTEMS[s]) throw new Error(`unknown system ${s}: one of ${Object.keys(SYSTEMS).join(', ')}`);
const results = [];
for (const { name, data } of await pick()) {
  const assignment = stratifiedFolds(data.labels, data.classes.length, folds, 1);
  const r = Object.fromEntries(names.map((s) => [s, { right: 0, wall: 0, cpu: 0 }]));
  for (let f = 0; f < folds; f++) {
    const trainRows = [];
    const testRows = [];
    for (let i = 0; i < data.nRows; i++) (assignment[i] === f ? testRows : trainRows).push(i);
    if (testRows.length === 0) continue;
    const train = part(data, trainRows);
    const test = part(data, testRows);
    // Rotate the order from fold to fold so load and warm-up fall on every system alike.
    const order = names.map((_, j) => names[(j + f) % names.length]);
    for (const s of order) {
      const got = SYSTEMS[s](train, test);
      r[s].wall += got.wall;
      r[s].cpu += got.cpu;
      for (let i = 0; i < testRows.length; i++) if (Number(got.codes[i]) === test.labels[i]) r[s].right++;
    }
  }
  const row = { dataset: name, rows: data.nRows, features: data.features.length };
  for (const s of names) row[s] = { accuracy: r[s].right / data.nRows, wall: r[s].wall / 1000, cpu: r[s].cpu / 1000 };
  results.push(row);
  console.error(JSON.stringify(row));
}

const pct = (x) => (100 * x).toFixed(2);
const sec = (x) => x.toFixed(2);
const [g, ...peers] = names;
console.log(
  `${new Date().toISOString().slice(0, 10)}; ${trees} trees, ${folds}-fold CV (same stratified folds), one thread each; ml-random-forest ${mlrfVersion}; fit CPU seconds summed over the folds`,
);
console.log(
  `| data set | rows × features | grove % | ${peers.map((p) => `${p.replace('ml-random-forest ', 'ml-rf ')} %`).join(' | ')} | grove fit CPU s | ${peers.map((p) => `${p.replace('ml-random-forest ', 'ml-rf ')} CPU s (× grove)`).join(' | ')} |`,
);
console.log(`|---|--:|--:|${peers.map(() => '--:|').join('')}--:|${peers.map(() => '--:|').join('')}`);
for (const row of results) {
  console.log(
    `| ${row.dataset} | ${row.rows} × ${row.features} | ${pct(row[g].accuracy)} | ${peers.map((p) => pct(row[p].accuracy)).join(' | ')} | ${sec(row[g].cpu)} | ${peers.map((p) => `${sec(row[p].cpu)} (${(row[p].cpu / row[g].cpu).toFixed(1)}×)`).join(' | ')} |`,
  );
}
const mean = (f) => results.reduce((a, x) => a + f(x), 0) / results.length;
const total = (f) => results.reduce((a, x) => a + f(x), 0);
console.log(
  `| mean / total | | ${pct(mean((x) => x[g].accuracy))} | ${peers.map((p) => pct(mean((x) => x[p].accuracy))).join(' | ')} | ${sec(total((x) => x[g].cpu))} | ${peers.map((p) => `${sec(total((x) => x[p].cpu))} (${(total((x) => x[p].cpu) / total((x) => x[g].cpu)).toFixed(1)}×)`).join(' | ')} |`,
);
console.log(
  `wall seconds (sum over folds): ${results.map((row) => `${row.dataset} ${names.map((s) => sec(row[s].wall)).join(' / ')}`).join('; ')}`,
);
