#!/usr/bin/env node
/**
 * grove's `c45` and `cart` presets next to Weka's J48, R's rpart and scikit-learn, on the SAME
 * stratified 10-fold split (grove's stratifiedFolds, seed 1). Not part of `npm test`.
 *
 *   npm run build && node scripts/compare-peers.mjs [--datasets a,b] [--skip j48,rpart,sklearn]
 *        [--jobs 2] [--out docs/peers-c45-cart.md] [--json file]
 *
 * Needs: Debian `weka` (/usr/share/java/weka.jar), `r-cran-rpart` (Rscript), `python3-sklearn`
 * (run with /usr/bin/python3). Reads the UCI corpus from $GROVE_DATA_DIR (default ../shared/datasets)
 * read-only and writes its temporary files (per-fold ARFF files, the data as CSV, fold ids) under
 * /tmp. $GROVE_DIST points at another build of grove (default ./dist).
 *
 * - grove c45: `fit(train, { algorithm: 'c45', subtreeRaising: false })` (next to J48 -S), and the
 *   preset as it is, `{ algorithm: 'c45' }` (J48's rules and subtree raising, next to J48).
 * - J48 (Weka 3.6): `-C 0.25 -M 2` (its defaults: subtree raising on), and with `-S` (no raising),
 *   trained on the fold's training ARFF and scored on its test ARFF (`-t train -T test`).
 * - grove cart: `fit(train, { algorithm: 'cart' })`: α by 10-fold CV on the training part, 1-SE.
 * - rpart: Gini, cp = 0, minsplit 2, minbucket 1 (grown like grove's cart), xval = the same inner
 *   folds grove uses, pruned at the 1-SE row of the cptable (scripts/compare-peers/rpart_cv.R).
 * - scikit-learn 1.2: imputation + one-hot, ccp_alpha by CV on the same inner folds, 1-SE
 *   (scripts/compare-peers/sklearn_cv.py).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const dist = resolve(process.env.GROVE_DIST ?? join(root, 'dist'));
const { fit } = await import(join(dist, 'index.js'));
const { readDataset } = await import(join(dist, 'node.js'));
const { stratifiedFolds } = await import(join(dist, 'eval/folds.js'));
const { subsetRows } = await import(join(dist, 'data/subset.js'));

const MISSING = ['adult', 'soybean', 'mushroom', 'house-votes-84', 'breast-cancer-wisconsin-original'];
const PAPER = [
  'balance-scale',
  'glass',
  'haberman',
  'ionosphere',
  'iris',
  'magic',
  'pima-indians-diabetes',
  'spambase',
  'wine',
  'zoo',
];
const K = 10;
const SEED = 1;
const WEKA = '/usr/share/java/weka.jar';

const argv = process.argv.slice(2);
const flag = (name, dflt) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : dflt;
};
const dataDir = resolve(process.env.GROVE_DATA_DIR ?? join(root, '../shared/datasets'));
const datasets = flag('--datasets', [...MISSING, ...PAPER].join(',')).split(',');
const skip = new Set(flag('--skip', '').split(',').filter(Boolean));
const jobs = Number(flag('--jobs', '2'));
const outFile = flag('--out', join(root, 'docs/peers-c45-cart.md'));
const jsonFile = flag('--json', undefined);
// --peers-from FILE: take J48, rpart and scikit-learn fold results from an earlier --json file
// (same folds: k = 10, seed 1) and run only grove.
const peersFrom = flag('--peers-from', undefined);
const earlier = peersFrom ? JSON.parse(readFileSync(peersFrom, 'utf8')) : undefined;
if (earlier && (earlier.k !== K || earlier.seed !== SEED)) throw new Error(`${peersFrom} was made with other folds`);
const PEERS = ['j48-S', 'j48', 'rpart', 'sklearn'];
const work = mkdtempSync(join(tmpdir(), 'grove-peers-'));
const log = (msg) => process.stderr.write(`[${((performance.now() - t0) / 1000).toFixed(0)} s] ${msg}\n`);
const t0 = performance.now();

// ---- a small process pool --------------------------------------------------------------------
let running = 0;
const queue = [];
function run(cmd, args) {
  return new Promise((resolveRun, reject) => {
    const start = () => {
      running++;
      const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (err += d));
      child.on('close', (code) => {
        running--;
        if (queue.length) queue.shift()();
        if (code === 0) resolveRun(out);
        else reject(new Error(`${cmd} ${args.join(' ')} exited ${code}: ${err.slice(0, 2000)}`));
      });
    };
    if (running < jobs) start();
    else queue.push(start);
  });
}

// ---- export ----------------------------------------------------------------------------------
const arffQuote = (s) => `'${String(s).replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
const csvQuote = (s) => `"${String(s).replace(/"/g, '""')}"`;

function cell(col, i, forArff) {
  if (col.kind === 'numeric') {
    const v = col.values[i];
    return Number.isNaN(v) ? (forArff ? '?' : '') : String(v);
  }
  const code = col.codes[i];
  if (code < 0) return forArff ? '?' : '';
  return forArff ? arffQuote(col.categories[code]) : csvQuote(col.categories[code]);
}

function arff(data, rows, name) {
  const lines = [`@relation ${arffQuote(name)}`];
  data.features.forEach((col, j) => {
    lines.push(
      `@attribute ${arffQuote(`x${j}`)} ${col.kind === 'numeric' ? 'numeric' : `{${col.categories.map(arffQuote).join(',')}}`}`,
    );
  });
  lines.push(`@attribute class {${data.classes.map(arffQuote).join(',')}}`, '@data');
  for (const i of rows)
    lines.push([...data.features.map((col) => cell(col, i, true)), arffQuote(data.classes[data.labels[i]])].join(','));
  return `${lines.join('\n')}\n`;
}

/** Write data.csv, kinds.txt, outer.txt, inner.csv and per-fold ARFF files; returns the folder. */
function exportDataset(name, data, outer, inner) {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  const header = [...data.features.map((_, j) => `x${j}`), 'y'].join(',');
  const body = Array.from({ length: data.nRows }, (_, i) =>
    [...data.features.map((col) => cell(col, i, false)), csvQuote(data.classes[data.labels[i]])].join(','),
  );
  writeFileSync(join(dir, 'data.csv'), `${[header, ...body].join('\n')}\n`);
  writeFileSync(join(dir, 'kinds.txt'), `${data.features.map((c) => c.kind).join('\n')}\n`);
  writeFileSync(join(dir, 'outer.txt'), `${Array.from(outer).join('\n')}\n`);
  writeFileSync(
    join(dir, 'inner.csv'),
    `${Array.from({ length: data.nRows }, (_, i) => inner.map((col) => col[i]).join(',')).join('\n')}\n`,
  );
  if (!skip.has('j48')) {
    for (let f = 0; f < K; f++) {
      const train = [];
      const test = [];
      outer.forEach((g, i) => (g === f ? test : train).push(i));
      writeFileSync(join(dir, `train-${f}.arff`), arff(data, train, `${name}-train-${f}`));
      writeFileSync(join(dir, `test-${f}.arff`), arff(data, test, `${name}-test-${f}`));
    }
  }
  return dir;
}

// ---- the systems -----------------------------------------------------------------------------
function groveFolds(data, outer, options) {
  const folds = [];
  for (let f = 0; f < K; f++) {
    const train = [];
    const test = [];
    outer.forEach((g, i) => (g === f ? test : train).push(i));
    const trainData = subsetRows(data, train);
    const testData = subsetRows(data, test);
    const started = performance.now();
    const tree = fit(trainData, options);
    const ms = performance.now() - started;
    const pred = tree.predictCodes(testData);
    let ok = 0;
    for (let i = 0; i < testData.nRows; i++) if (pred[i] === testData.labels[i]) ok++;
    folds.push({
      fold: f,
      accuracy: ok / testData.nRows,
      leaves: tree.stats().leaves,
      leavesFull: tree.pruning?.leavesBefore ?? tree.stats().leaves,
      ms,
    });
  }
  return folds;
}

async function j48Folds(dir, extra) {
  const folds = await Promise.all(
    Array.from({ length: K }, async (_, f) => {
      const out = await run('java', [
        '-Xmx2g',
        '-cp',
        WEKA,
        'weka.classifiers.trees.J48',
        '-C',
        '0.25',
        '-M',
        '2',
        ...extra,
        '-t',
        join(dir, `train-${f}.arff`),
        '-T',
        join(dir, `test-${f}.arff`),
      ]);
      const leaves = Number(/Number of Leaves\s*:\s*(\d+)/.exec(out)?.[1]);
      const testPart = out.slice(out.indexOf('=== Error on test data ==='));
      const pct = Number(/Correctly Classified Instances\s+\d+\s+([\d.]+)\s*%/.exec(testPart)?.[1]);
      if (!Number.isFinite(leaves) || !Number.isFinite(pct))
        throw new Error(`cannot parse J48 output for ${dir} fold ${f}:\n${out.slice(-1500)}`);
      return { fold: f, accuracy: pct / 100, leaves };
    }),
  );
  return folds;
}

function parseLines(out) {
  return out
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const [, fold, accuracy, leaves, leavesFull, param] = l.split(',');
      return {
        fold: Number(fold),
        accuracy: Number(accuracy),
        leaves: Number(leaves),
        leavesFull: Number(leavesFull),
        param: Number(param),
      };
    });
}

// ---- main ------------------------------------------------------------------------------------
const SYSTEMS = [
  ['grove-c45', 'grove c45'],
  ['grove-c45-raise', 'grove c45 + raising'],
  ['j48-S', 'J48 -S (no raising)'],
  ['j48', 'J48 (raising)'],
  ['grove-cart', 'grove cart'],
  ['rpart', 'rpart 1-SE'],
  ['sklearn', 'sklearn 1-SE'],
];
const results = {};
const pending = [];
for (const name of datasets) {
  const file = join(dataDir, `${name}.csv`);
  if (!existsSync(file)) {
    log(`skip ${name}: ${file} not found`);
    continue;
  }
  const header = readFileSync(file, 'utf8').split('\n', 1)[0].split(',');
  const readOptions = name === 'soybean' ? { categorical: header.slice(0, -1) } : {};
  const data = await readDataset(file, readOptions);
  const outer = stratifiedFolds(data.labels, data.classes.length, K, SEED);
  // The inner folds grove's cart uses on each outer training set: stratifiedFolds(train labels, 10, seed 1).
  const inner = Array.from({ length: K }, (_, f) => {
    const train = [];
    outer.forEach((g, i) => g !== f && train.push(i));
    const ids = stratifiedFolds(
      Int32Array.from(train, (i) => data.labels[i]),
      data.classes.length,
      K,
      SEED,
    );
    const col = new Int32Array(data.nRows).fill(-1);
    train.forEach((i, j) => (col[i] = ids[j]));
    return col;
  });
  const r = (results[name] = {
    rows: data.nRows,
    features: data.features.length,
    classes: data.classes.length,
    missing: MISSING.includes(name),
  });
  if (earlier) {
    for (const key of PEERS) if (earlier.results[name]?.[key]) r[key] = earlier.results[name][key];
    for (const key of PEERS) skip.add(key.replace('-S', ''));
  }
  const dir = exportDataset(name, data, outer, inner);
  if (!skip.has('j48')) {
    pending.push(j48Folds(dir, ['-S']).then((x) => (r['j48-S'] = x)));
    pending.push(j48Folds(dir, []).then((x) => (r.j48 = x)));
  }
  if (!skip.has('rpart'))
    pending.push(
      run('Rscript', [join(here, 'compare-peers/rpart_cv.R'), dir]).then((out) => (r.rpart = parseLines(out))),
    );
  if (!skip.has('sklearn'))
    pending.push(
      run('/usr/bin/python3', [join(here, 'compare-peers/sklearn_cv.py'), dir]).then(
        (out) => (r.sklearn = parseLines(out)),
      ),
    );
  if (!skip.has('grove')) {
    r['grove-c45'] = groveFolds(data, outer, { algorithm: 'c45', subtreeRaising: false });
    r['grove-c45-raise'] = groveFolds(data, outer, { algorithm: 'c45' });
    r['grove-cart'] = groveFolds(data, outer, { algorithm: 'cart' });
  }
  log(`${name}: grove done (${data.nRows} rows)`);
}
await Promise.all(pending);
log('peers done');

// ---- report ----------------------------------------------------------------------------------
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const sd = (xs) => {
  const m = mean(xs);
  return xs.length > 1 ? Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1)) : 0;
};
const acc = (folds) => (folds ? 100 * mean(folds.map((f) => f.accuracy)) : NaN);
const leaves = (folds) => (folds ? mean(folds.map((f) => f.leaves)) : NaN);
const fmt = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : '—');
const shown = SYSTEMS.filter(([key]) => Object.values(results).some((r) => r[key]));
const names = Object.keys(results);

const lines = [];
lines.push('# grove `c45` and `cart` next to J48, rpart and scikit-learn');
lines.push('');
lines.push(
  `Made by \`node scripts/compare-peers.mjs${argv.length ? ` ${argv.join(' ')}` : ''}\` on ${new Date().toISOString().slice(0, 10)} (${((performance.now() - t0) / 1000).toFixed(0)} s${earlier ? `; peers' numbers from ${earlier.made ?? 'an earlier run'}` : ''}).`,
);
lines.push('Stratified 10-fold CV, the same folds for every system (grove `stratifiedFolds`, seed 1; the inner');
lines.push("folds used to choose α are grove's too, given to rpart and scikit-learn). Each cell: mean test");
lines.push('accuracy in % over the 10 folds (± sd) / mean number of leaves. Data: the shared UCI corpus, read');
lines.push("with grove's reader (soybean: every column categorical), exported to ARFF / CSV in /tmp.");
lines.push('');
lines.push(`| data set | rows | ${shown.map(([, label]) => label).join(' | ')} |`);
lines.push(`|---|---:|${shown.map(() => '---:').join('|')}|`);
for (const name of names) {
  const r = results[name];
  lines.push(
    `| ${name}${r.missing ? ' (missing)' : ''} | ${r.rows} | ${shown.map(([key]) => (r[key] ? `${fmt(acc(r[key]))} ± ${fmt(100 * sd(r[key].map((f) => f.accuracy)))} / ${fmt(leaves(r[key]), 1)}` : '—')).join(' | ')} |`,
  );
}
const avg = (key, f) => mean(names.filter((n) => results[n][key]).map((n) => f(results[n][key])));
lines.push(
  `| **mean** | | ${shown.map(([key]) => `**${fmt(avg(key, acc))}** / ${fmt(avg(key, leaves), 1)}`).join(' | ')} |`,
);
lines.push('');
const pairs = [
  ['grove-c45', 'j48-S'],
  ['grove-c45-raise', 'j48'],
  ['grove-cart', 'rpart'],
  ['grove-cart', 'sklearn'],
];
lines.push('Differences per data set (grove − peer): accuracy points / leaf ratio (grove ÷ peer).');
lines.push('');
lines.push(`| data set | ${pairs.map(([a, b]) => `${a} vs ${b}`).join(' | ')} |`);
lines.push(`|---|${pairs.map(() => '---:').join('|')}|`);
for (const name of names) {
  const r = results[name];
  lines.push(
    `| ${name} | ${pairs.map(([a, b]) => (r[a] && r[b] ? `${(acc(r[a]) - acc(r[b])).toFixed(2)} / ${(leaves(r[a]) / leaves(r[b])).toFixed(2)}` : '—')).join(' | ')} |`,
  );
}
lines.push('');
const report = `${lines.join('\n')}\n`;
if (outFile !== '-') {
  // Keep whatever follows the generated part (hand-written discussion) when the file exists.
  const MARK = '<!-- end of generated part -->';
  const previous = existsSync(outFile) ? readFileSync(outFile, 'utf8') : '';
  const tail = previous.includes(MARK) ? previous.slice(previous.indexOf(MARK)) : `${MARK}\n`;
  writeFileSync(outFile, `${report}\n${tail}`);
  log(`wrote ${relative(process.cwd(), outFile)}`);
} else process.stdout.write(report);
if (jsonFile)
  writeFileSync(
    jsonFile,
    JSON.stringify(
      {
        k: K,
        seed: SEED,
        made: `node scripts/compare-peers.mjs ${argv.join(' ')} (${new Date().toISOString()})`,
        results,
      },
      null,
      1,
    ),
  );
log(`temporary files in ${work}`);
