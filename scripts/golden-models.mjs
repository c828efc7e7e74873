#!/usr/bin/env node
// Guard rail for refactors: fits many data sets under many configurations and hashes each model
// file, its predictions (labels and probabilities), its stats and its text, rules and DOT exports.
// `--save` records the hashes in test/golden/models.json; `--check` (default) compares against
// them; `--dump DIR` also writes each model and its outputs for diffing.
//   node scripts/golden-models.mjs [--save | --check] [--dump DIR] [--only SUBSTRING] [--local]
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const golden = resolve(root, 'test/golden/models.json');

/** Data sets: the ones shipped in data/ and test/fixtures (always present), then corpus ones. */
export function goldenDatasets(dataDir) {
  const local = [
    'data/iris.csv',
    'data/glass.csv',
    'data/wine.csv',
    'data/zoo.csv',
    'data/sonar.csv',
    'data/ionosphere.csv',
    'data/vehicle.csv',
    'data/pima-indians-diabetes.csv',
    'data/breast-cancer-wisconsin-original.csv',
    'data/house-votes-84.csv',
    'data/weather-nominal.csv',
    'test/fixtures/tutorial-30.csv',
    'test/fixtures/play-tennis.csv',
    'test/fixtures/taxable-income.csv',
    'test/fixtures/weather.arff',
  ].map((p) => ({ name: p, path: resolve(root, p), corpus: false }));
  const corpus = ['mushroom', 'soybean', 'car', 'credit-g', 'segment'].map((n) => ({
    name: `corpus/${n}.csv`,
    path: resolve(dataDir, `${n}.csv`),
    corpus: true,
  }));
  // Large enough for worker threads (an explicit thread count needs 2^16 row-features).
  const threaded = {
    name: 'corpus/satellite.csv',
    path: resolve(dataDir, 'satellite.csv'),
    corpus: true,
    configs: ['exact', 'histogram', 'threads', 'threads-hist', 'c45'],
  };
  return [...local, ...corpus, threaded];
}

/** Configurations: every grower, preset, pruner and missing-value policy at least once. */
export const CONFIGS = [
  { name: 'exact', options: { algorithm: 'cart', prune: 'none' } },
  { name: 'histogram', options: { algorithm: 'cart', prune: 'none', bins: 16 } },
  { name: 'float32', options: { algorithm: 'cart', prune: 'none', criterion: 'info-gain' }, float32: true },
  { name: 'c45', options: { algorithm: 'c45' } },
  { name: 'c45-raising', options: { algorithm: 'c45', subtreeRaising: true, confidence: 0.1 } },
  { name: 'cart-cv', options: { algorithm: 'cart' } },
  {
    name: 'cart-min',
    options: { algorithm: 'cart', ccpRule: 'min', ccpFolds: 5, categoricalSplit: 'multiway', criterion: 'chi-square' },
  },
  { name: 'id3', options: { algorithm: 'id3' } },
  { name: 'zaki', options: { algorithm: 'zaki' } },
  { name: 'dcsm', options: { criterion: 'dcsm', prune: 'pessimistic', missing: 'learned' } },
  { name: 'cv-hist', options: { criterion: 'chandra-varghese', prune: 'reduced-error', bins: 8, missing: 'learned' } },
  {
    name: 'twoing',
    options: { criterion: 'twoing', prune: 'none', maxDepth: 4, minSamplesLeaf: 3, classWeight: 'balanced' },
  },
  { name: 'g-stat', options: { algorithm: 'id3', criterion: 'g-statistic', chiSquareAlpha: 0.05, purity: 0.9 } },
  {
    name: 'normalized',
    options: { algorithm: 'id3', criterion: 'normalized-gain', categoricalSplit: 'binary', minGain: 0.01 },
  },
  { name: 'average', options: { algorithm: 'id3', criterion: 'average-gain', mdlCorrection: true, maxSubsetSize: 2 } },
  { name: 'cmbsv-knn', options: { algorithm: 'cmbsv', unclassified: 'knn', knnK: 3 } },
  { name: 'cmbsv', options: { algorithm: 'cmbsv', labelCoding: 'one-vs-rest', svmBias: 'max-alpha' } },
  { name: 'threads', options: { algorithm: 'cart', prune: 'none', threads: 2 } },
  { name: 'threads-hist', options: { algorithm: 'c45', missing: 'learned', bins: 64, threads: 2 } },
  { name: 'fractional', options: { algorithm: 'cart', prune: 'error-based', missing: 'fractional' } },
];

const sha = (s) => createHash('sha256').update(s).digest('hex').slice(0, 24);

/** Fit every (data set, configuration) and return name → { model, outputs } hashes (and texts). */
export async function goldenRun({ dataDir, only, local, onEntry } = {}) {
  const grove = await import(pathToFileURL(resolve(root, 'dist/node.js')).href);
  const out = new Map();
  for (const ds of goldenDatasets(dataDir ?? resolve(root, '../shared/datasets'))) {
    if (ds.corpus && (local || !existsSync(ds.path))) continue;
    for (const cfg of CONFIGS) {
      // Yield between fits: a test runner's worker must stay responsive during a long run.
      await new Promise((done) => setImmediate(done));
      const key = `${ds.name} ${cfg.name}`;
      if (only && !key.includes(only)) continue;
      if (ds.configs && !ds.configs.includes(cfg.name)) continue;
      const data = await grove.readDataset(ds.path, { float32: cfg.float32 === true });
      let model;
      let outputs;
      try {
        const tree = grove.fit(data, cfg.options);
        model = `${JSON.stringify(tree.toJSON())}\n`;
        const again = grove.DecisionTree.fromJSON(JSON.parse(model));
        const predictions = JSON.stringify({
          labels: tree.predict(data),
          proba: tree.predictProba(data),
          reloaded: again.predict(data),
        });
        outputs = [
          predictions,
          JSON.stringify(tree.stats()),
          grove.treeToText(tree),
          grove.rulesToText(tree),
          JSON.stringify(grove.treeToRules(tree)),
          grove.treeToDot(tree),
        ].join('\n---\n');
      } catch (err) {
        if (!(err instanceof grove.GroveError)) throw err;
        model = `GroveError: ${err.message}`;
        outputs = '';
      }
      const entry = { model: sha(model), outputs: sha(outputs) };
      out.set(key, entry);
      onEntry?.(key, entry, model, outputs);
    }
  }
  return out;
}

async function main() {
  const args = process.argv.slice(2);
  const save = args.includes('--save');
  const dumpAt = args.indexOf('--dump');
  const dump = dumpAt >= 0 ? resolve(args[dumpAt + 1]) : undefined;
  const onlyAt = args.indexOf('--only');
  const only = onlyAt >= 0 ? args[onlyAt + 1] : undefined;
  if (dump) mkdirSync(dump, { recursive: true });
  const t0 = Date.now();
  const result = await goldenRun({
    only,
    local: args.includes('--local'),
    onEntry: (key, _e, model, outputs) => {
      if (!dump) return;
      const file = key.replace(/[^A-Za-z0-9.-]+/g, '_');
      writeFileSync(resolve(dump, `${file}.model.json`), model);
      writeFileSync(resolve(dump, `${file}.outputs.txt`), outputs);
    },
  });
  const seconds = ((Date.now() - t0) / 1000).toFixed(1);
  if (save) {
    const obj = Object.fromEntries([...result].sort(([a], [b]) => (a < b ? -1 : 1)));
    writeFileSync(golden, `${JSON.stringify(obj, null, 1)}\n`);
    console.log(`saved ${result.size} entries to ${golden} (${seconds} s)`);
    return;
  }
  const expected = JSON.parse(readFileSync(golden, 'utf8'));
  let bad = 0;
  for (const [key, got] of result) {
    const want = expected[key];
    if (!want) console.log(`new (not in the golden file): ${key}`);
    else if (want.model !== got.model || want.outputs !== got.outputs) {
      bad++;
      console.log(
        `DIFFERS: ${key}${want.model !== got.model ? ' model' : ''}${want.outputs !== got.outputs ? ' outputs' : ''}`,
      );
    }
  }
  console.log(`${result.size - bad} of ${result.size} identical (${seconds} s)`);
  if (bad > 0) process.exitCode = 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
