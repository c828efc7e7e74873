#!/usr/bin/env node
/**
 * Optimal trees on the corpus (../shared/datasets), from the built library (npm run build):
 *
 *   node bench/optimal.mjs speed [--depth 3] [--bins 16] [--max-rows 20000] [--time-limit 120] [--sets a,b]
 *                                [--threads N]
 *   node bench/optimal.mjs gap [--depths 2,3,4] [--bins 16] [--max-rows 5000] [--folds 5] [--time-limit 60] [--sets a,b]
 *
 * `speed`: per data set, the search's seconds, sub-problems, depth-2 solves, cache hits and
 * entries (and their estimated MB), the peak resident memory of the process that searched (each
 * set in a child process of its own), its training error and the greedy (gini) tree's, and
 * whether it was proven optimal. Without --bins every midpoint is a test.
 *
 * `gap`: per data set and depth, the training-error gap of each greedy criterion's tree (same
 * depth, same bins, unpruned) to the optimal tree, and test accuracy of each over stratified
 * folds (the optimal tree refitted on each fold's training rows). Only searches that finish (are
 * proven optimal within --time-limit on every fold) enter the table.
 *
 * Prints a Markdown table on stdout; one JSON line per row on stderr.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DATA = process.env.GROVE_DATA_DIR ?? path.resolve(ROOT, '../shared/datasets');
const { fit, fitOptimal, stratifiedFolds } = await import(pathToFileURL(path.join(ROOT, 'dist/index.js')).href);
const { readDataset } = await import(pathToFileURL(path.join(ROOT, 'dist/node.js')).href);
const { subsetRows } = await import(pathToFileURL(path.join(ROOT, 'dist/data/subset.js')).href);

const [mode = 'speed', ...rest] = process.argv.slice(2);
const threads = arg('threads') === undefined ? undefined : Number(arg('threads'));
function arg(name, fallback) {
  const i = rest.indexOf(`--${name}`);
  return i >= 0 ? rest[i + 1] : fallback;
}
const bins = arg('bins') === undefined ? undefined : Number(arg('bins'));
const timeLimit = Number(arg('time-limit', mode === 'speed' ? 120 : 60));
const maxRows = Number(arg('max-rows', mode === 'speed' ? 20000 : 5000));
const CRITERIA = [
  'info-gain',
  'gain-ratio',
  'normalized-gain',
  'average-gain',
  'gini',
  'twoing',
  'chi-square',
  'g-statistic',
  'dcsm',
  'chandra-varghese',
];

/** Corpus sets with at most `maxRows` rows, smallest first. */
async function corpusSets() {
  if (!existsSync(DATA)) {
    console.error(`no corpus at ${DATA} (set GROVE_DATA_DIR)`);
    process.exit(2);
  }
  const chosen = arg('sets')?.split(',');
  const sets = [];
  for (const file of readdirSync(DATA).filter((f) => f.endsWith('.csv'))) {
    const name = file.slice(0, -4);
    if (chosen && !chosen.includes(name)) continue;
    const data = await readDataset(path.join(DATA, file));
    if (data.nRows <= maxRows && data.classes.length >= 2) sets.push({ name, data });
  }
  return sets.sort((a, b) => a.data.nRows - b.data.nRows);
}

const pct = (x) => (100 * x).toFixed(2);
const withBins = (o) => (bins === undefined ? o : { ...o, bins });

/** One set's search in a child process of its own, so that its peak memory is its own. */
function speedChild(name, depth) {
  const args = [fileURLToPath(import.meta.url), 'speed-child', name, String(depth), ...rest];
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`${name}: child failed (${r.status}): ${r.stderr.slice(-2000)}`);
  return JSON.parse(r.stdout);
}

/** In the child: fit one set, print its seconds, optimality and peak resident memory (MB) as JSON. */
async function speedOne(name, depth) {
  const data = await readDataset(path.join(DATA, `${name}.csv`));
  const t0 = process.hrtime.bigint();
  const tree = fitOptimal(data, withBins({ maxDepth: depth, timeLimit, ...(threads ? { threads } : {}) }));
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const peakMB = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(JSON.stringify({ seconds, peakMB, o: tree.optimality }));
}

async function speed() {
  const depth = Number(arg('depth', 3));
  const how = bins === undefined ? 'every midpoint' : `${bins} bins`;
  console.log(`Optimal trees, depth ${depth}, ${how}, ${threads ?? 1} thread(s), time limit ${timeLimit} s\n`);
  console.log(
    '| data set | rows | tests | seconds | sub-problems | depth-2 solves | cache hits | cache entries | cache MB | ' +
      'peak RSS MB | optimal error % | greedy (gini) error % | proven |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const { name, data } of await corpusSets()) {
    const { seconds, peakMB, o } = speedChild(name, depth);
    console.error(JSON.stringify({ name, rows: data.nRows, seconds, peakMB, ...o }));
    console.log(
      `| ${name} | ${data.nRows} | ${o.tests} | ${seconds.toFixed(2)} | ${o.subproblems} | ${o.depth2} | ` +
        `${o.cacheHits} | ${o.cacheEntries} | ${(o.cacheBytes / 2 ** 20).toFixed(1)} | ${peakMB.toFixed(0)} | ` +
        `${pct(o.trainingError)} | ${pct(o.greedyError)} | ${o.proven ? 'yes' : `no (${o.stopped})`} |`,
    );
  }
}

/** Accuracy of `tree` on `data`. */
const accuracy = (tree, data) => tree.score(data);

async function gap() {
  const depths = arg('depths', '2,3,4').split(',').map(Number);
  const k = Number(arg('folds', 5));
  console.log(
    `Gap to the optimal tree: training error of each greedy criterion's tree minus the optimal tree's ` +
      `(percentage points, same depth, ${bins === undefined ? 'every midpoint' : `${bins} bins`}), and mean test ` +
      `accuracy over ${k} stratified folds\n`,
  );
  console.log(`| data set | depth | optimal: train err % / test acc % | ${CRITERIA.join(' | ')} |`);
  console.log(`|---|---:|---|${CRITERIA.map(() => '---').join('|')}|`);
  for (const { name, data } of await corpusSets()) {
    for (const depth of depths) {
      const opt = fitOptimal(data, withBins({ maxDepth: depth, timeLimit }));
      if (!opt.optimality.proven) {
        console.error(JSON.stringify({ name, depth, skipped: 'not proven within the time limit' }));
        continue;
      }
      const folds = stratifiedFolds(data.labels, data.classes.length, k, 1);
      const test = { optimal: 0 };
      let proven = true;
      for (let f = 0; f < k && proven; f++) {
        const rowsOf = (keep) => Int32Array.from(Array.from(folds.keys()).filter((r) => keep(folds[r] === f)));
        const train = subsetRows(
          data,
          rowsOf((inFold) => !inFold),
        );
        const held = subsetRows(
          data,
          rowsOf((inFold) => inFold),
        );
        const o = fitOptimal(train, withBins({ maxDepth: depth, timeLimit }));
        proven = o.optimality.proven;
        test.optimal += accuracy(o, held) / k;
        for (const criterion of CRITERIA) {
          const g = fit(train, withBins({ criterion, maxDepth: depth, prune: 'none' }));
          test[criterion] = (test[criterion] ?? 0) + accuracy(g, held) / k;
        }
      }
      if (!proven) {
        console.error(JSON.stringify({ name, depth, skipped: 'a fold was not proven within the time limit' }));
        continue;
      }
      const optErr = opt.optimality.trainingError;
      const cells = CRITERIA.map((criterion) => {
        const g = fit(data, withBins({ criterion, maxDepth: depth, prune: 'none' }));
        const gapPoints = 100 * (1 - accuracy(g, data) - optErr);
        return `+${gapPoints.toFixed(2)} / ${pct(test[criterion])}`;
      });
      console.error(JSON.stringify({ name, depth, optErr, test }));
      console.log(`| ${name} | ${depth} | ${pct(optErr)} / ${pct(test.optimal)} | ${cells.join(' | ')} |`);
    }
  }
}

if (mode === 'speed') await speed();
else if (mode === 'speed-child') await speedOne(rest[0], Number(rest[1]));
else if (mode === 'gap') await gap();
else {
  console.error(`unknown mode '${mode}' (speed, gap)`);
  process.exit(2);
}
