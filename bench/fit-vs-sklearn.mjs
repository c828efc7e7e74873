#!/usr/bin/env node
/**
 * Fit time of grove's full (unlimited-depth) trees vs scikit-learn's DecisionTreeClassifier,
 * same data, same run, same machine. Not part of `npm test`. See bench/README.md.
 *
 *   npm run build                      # the benchmark runs the built dist/
 *   node bench/fit-vs-sklearn.mjs [--datasets magic,shuttle] [--repeats 3] [--seed-spread 5]
 *
 * Data: $GROVE_DATA_DIR, default ../shared/datasets relative to the project root (read in place,
 * never copied). sklearn: Debian's /usr/bin/python3 with python3-sklearn ($GROVE_BENCH_PYTHON
 * overrides the interpreter). Writes bench/results/fit-vs-sklearn.{md,json}.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(BENCH_DIR, '..');
const DEFAULT_DATASETS = ['magic', 'letter-recognition', 'shuttle', 'spambase'];
const GROVE_CRITERIA = ['gini', 'info-gain', 'gain-ratio', 'dcsm'];
const SKLEARN_CRITERIA = ['gini', 'entropy'];
/** grove criterion -> the sklearn criterion that optimises the same measure (for the ratio table). */
const _PEERS = { gini: 'gini', 'info-gain': 'entropy' };

function die(message) {
  console.error(`fit-vs-sklearn: ${message}`);
  process.exit(1);
}

function usage() {
  return [
    'usage: node bench/fit-vs-sklearn.mjs [--datasets a,b,...] [--repeats N] [--seed-spread N] [--out-dir DIR]',
    `  --datasets     names of CSV files in the data dir (default ${DEFAULT_DATASETS.join(',')})`,
    '  --repeats      fits per (system, criterion, dataset); best and median are reported (default 3)',
    '  --seed-spread  also fit sklearn gini with random_state 0..N-1, untimed, to show tree-size spread (default 5, 0 = off)',
    '  --out-dir      where fit-vs-sklearn.md/.json go (default bench/results)',
    'env: GROVE_DATA_DIR (default ../shared/datasets from the project root), GROVE_BENCH_PYTHON (default /usr/bin/python3)',
  ].join('\n');
}

function parseArgs(argv) {
  const opts = { datasets: DEFAULT_DATASETS, repeats: 3, seedSpread: 5, outDir: join(BENCH_DIR, 'results') };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const [flag, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === '') die(`${flag} needs a value\n${usage()}`);
      return v;
    };
    const int = (min) => {
      const v = value();
      const n = Number(v);
      if (!Number.isInteger(n) || n < min) die(`${flag} must be an integer >= ${min}, got '${v}'`);
      return n;
    };
    switch (flag) {
      case '--datasets':
        opts.datasets = value()
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        break;
      case '--repeats':
        opts.repeats = int(1);
        break;
      case '--seed-spread':
        opts.seedSpread = int(0);
        break;
      case '--out-dir':
        opts.outDir = resolve(value());
        break;
      case '-h':
      case '--help':
        console.log(usage());
        return process.exit(0);
      default:
        die(`unknown argument '${a}'\n${usage()}`);
    }
  }
  if (opts.datasets.length === 0) die('--datasets is empty');
  return opts;
}

/** Newest modification time of the files under dir with the given suffix (0 if none). */
function newestMtime(dir, suffix) {
  let newest = 0;
  if (!existsSync(dir)) return 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(p, suffix));
    else if (entry.name.endsWith(suffix)) newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

function _median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function git(args) {
  const r = spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

/** Highest training accuracy any classifier can reach: rows with identical features but different classes cap it. */
function maxTrainAccuracy(data) {
  const groups = new Map();
  for (let i = 0; i < data.nRows; i++) {
    const key = data.features.map((c) => (c.kind === 'numeric' ? c.values[i] : c.codes[i])).join(',');
    let g = groups.get(key);
    if (!g) groups.set(key, (g = new Map()));
    g.set(data.labels[i], (g.get(data.labels[i]) ?? 0) + 1);
  }
  let best = 0;
  for (const g of groups.values()) best += Math.max(...g.values());
  return { maxAccuracy: best / data.nRows, distinctRows: groups.size };
}

// ---------------------------------------------------------------------------------------------

const opts = parseArgs(process.argv.slice(2));
const loadStart = os.loadavg();
const dataDir = resolve(ROOT, process.env.GROVE_DATA_DIR ?? '../shared/datasets');
const python = process.env.GROVE_BENCH_PYTHON ?? '/usr/bin/python3';

// 1. Preconditions, each with a message that says what to do.
const distEntry = join(ROOT, 'dist', 'node.js');
if (!existsSync(distEntry))
  die(`${relative(process.cwd(), distEntry)} not found: build grove first with 'npm run build' (in ${ROOT})`);
const srcNewest = newestMtime(join(ROOT, 'src'), '.ts');
const distNewest = newestMtime(join(ROOT, 'dist'), '.js');
const distStale = srcNewest > distNewest;
if (distStale)
  console.error(
    "fit-vs-sklearn: WARNING: src/ has files newer than dist/: the numbers are for the last build, run 'npm run build' to measure the current source",
  );
if (!existsSync(python))
  die(
    `${python} not found: this benchmark needs Debian's python3 with scikit-learn (apt-get install -y python3-sklearn), or set GROVE_BENCH_PYTHON`,
  );
if (!existsSync(dataDir)) die(`data dir ${dataDir} not found (set GROVE_DATA_DIR)`);
for (const name of opts.datasets) {
  if (!existsSync(join(dataDir, `${name}.csv`))) die(`no data file ${join(dataDir, `${name}.csv`)}`);
}
// A clean environment for Debian's python: no pyenv/virtualenv paths leaking in.
const pyEnv = { ...process.env };
for (const k of ['PYTHONPATH', 'PYTHONHOME', 'VIRTUAL_ENV', 'PYENV_VERSION']) delete pyEnv[k];
pyEnv.PYTHONNOUSERSITE = '1';
const probe = spawnSync(python, ['-c', 'import sklearn, numpy; print(sklearn.__version__)'], {
  env: pyEnv,
  encoding: 'utf8',
});
if (probe.error || probe.status !== 0) {
  die(
    `scikit-learn is not importable with ${python}: ${(probe.stderr || String(probe.error ?? '')).trim().split('\n').pop()}\n` +
      '  install it with: apt-get install -y python3-sklearn (Debian), and keep the default /usr/bin/python3, not the pyenv python3',
  );
}
const sklearnVersion = probe.stdout.trim();
if (!sklearnVersion.startsWith('1.2.'))
  console.error(`fit-vs-sklearn: note: scikit-learn ${sklearnVersion}, the README's numbers are for 1.2.x`);

const grove = await import(pathToFileURL(distEntry).href);
const { readDataset } = grove;
let groveVersion = null;
try {
  groveVersion = (await import(pathToFileURL(join(ROOT, 'dist', 'version.js')).href)).VERSION;
} catch {
  /* older build */
}

// 2. scikit-learn: one child process for every data set (prints JSON on stdout, progress on stderr).
console.error(`fit-vs-sklearn: scikit-learn ${sklearnVersion} (${python}), ${opts.repeats} repeat(s)`);
const py = spawnSync(
  python,
  [
    join(BENCH_DIR, 'sklearn_fit.py'),
    '--data-dir',
    dataDir,
    '--datasets',
    opts.datasets.join(','),
    '--criteria',
    SKLEARN_CRITERIA.join(','),
    '--repeats',
    String(opts.repeats),
    '--seed-spread',
    String(opts.seedSpread),
  ],
  { env: pyEnv, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 * 1024 * 1024 },
);
if (py.error) die(`could not run ${python}: ${py.error.message}`);
if (py.status !== 0) die(`bench/sklearn_fit.py failed (exit ${py.status}); see its message above`);
let sk;
try {
  sk = JSON.parse(py.stdout);
} catch (e) {
  die(`bench/sklearn_fit.py printed no JSON: ${e.message}`);
}

// 3. grove: same files, all rows, fit() timed alone; one fresh Node process per (data set,
//    criterion) so that earlier fits cannot change V8's compiled code (see bench/grove_fit.mjs).
const results = [];
const dataInfo = {};
for (const name of opts.datasets) {
  const path = join(dataDir, `${name}.csv`);
  const data = await readDataset(path);
  if (data.features.some((c) => c.kind === 'categorical'))
    console.error(
      `fit-vs-sklearn: WARNING: ${name} has categorical features; sklearn sees only numbers, so the comparison is not like for like`,
    );
  dataInfo[name] = {
    rows: data.nRows,
    features: data.features.length,
    classes: data.classes.length,
    ...maxTrainAccuracy(data),
  };
  for (const criterion of GROVE_CRITERIA) {
    const child = spawnSync(
      process.execPath,
      [join(BENCH_DIR, 'grove_fit.mjs'), '--data', path, '--criterion', criterion, '--repeats', String(opts.repeats)],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 16 * 1024 * 1024 },
    );
    if (child.error) die(`could not run bench/grove_fit.mjs: ${child.error.message}`);
    if (child.status !== 0)
      die(`bench/grove_fit.mjs failed for ${name} ${criterion} (exit ${child.status}); see its message above`);
    let res;
    try {
      res = JSON.parse(child.stdout);
    } catch (e) {
      die(`bench/grove_fit.mjs printed no JSON for ${name} ${criterion}: ${e.message}`);
    }
    results.push({ dataset: name, ...res });
    console.error(
      `  grove ${name} ${criterion}: best ${res.bestMs.toFixed(1)} ms, ${res.nodes} nodes, acc ${res.trainAccuracy.toFixed(4)}`,
    );
  }
  for (const r of sk.results.filter((x) => x.dataset === name)) {
    if (r.rows !== data.nRows || r.features !== data.features.length || r.classes !== data.classes.length) {
      die(
        `${name}: sklearn read ${r.rows}x${r.features} (${r.classes} classes), grove ${data.nRows}x${data.features.length} (${data.classes.length}); not the same data`,
      );
    }
    results.push(r);
  }
}

// 4. Report.
const fmtMs = (x) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
const fmtAcc = (x) => x.toFixed(4);
const lines = [];
lines.push('# grove vs scikit-learn: fit time of a full (unlimited-depth) tree', '');
const cpu = os.cpus()[0]?.model ?? 'unknown';
const commit = git(['rev-parse', '--short', 'HEAD']);
const dirty = git(['status', '--porcelain', '--', 'src']);
lines.push(`- date: ${new Date().toISOString()}`);
lines.push(
  `- machine: ${cpu}, ${os.cpus().length} logical CPUs, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.platform()} ${os.release()}; load average at start ${loadStart.map((x) => x.toFixed(2)).join(' ')}, at end ${os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')} (other work on the machine adds noise)`,
);
lines.push(
  `- grove ${groveVersion ?? '?'} (commit ${commit ?? '?'}${dirty ? ', src/ has uncommitted changes' : ''}${distStale ? ', dist/ OLDER than src/' : ''}) on Node ${process.version} (V8 ${process.versions.v8})`,
);
lines.push(`- scikit-learn ${sk.sklearn}, numpy ${sk.numpy}, Python ${sk.python} (${sk.pythonExecutable})`);
lines.push(
  `- fit on all rows, fit() only timed (CSV reading excluded), ${opts.repeats} repeat(s): best and median, ms; every fit single-threaded; grove: a fresh Node process per (data set, criterion), no forced GC between repeats (it discards V8's compiled code), its first repeat is the cold fit (JIT warm-up included, as a one-off \`grove fit\` gets it); sklearn: one Python process, y coded as integers before timing`,
);
lines.push(
  `- command: \`node bench/fit-vs-sklearn.mjs --datasets ${opts.datasets.join(',')} --repeats ${opts.repeats}\``,
);
lines.push('');
lines.push(
  '| dataset | rows×features | system | criterion | fit ms best | fit ms median | nodes | leaves | height | train acc |',
);
lines.push('|---|---|---|---|--:|--:|--:|--:|--:|--:|');
for (const r of results) {
  lines.push(
    `| ${r.dataset} | ${r.rows}×${r.features} | ${r.system} | ${r.criterion} | ${fmtMs(r.bestMs)} | ${fmtMs(r.medianMs)} | ${r.nodes} | ${r.leaves} | ${r.height} | ${fmtAcc(r.trainAccuracy)} |`,
  );
}
lines.push('');
lines.push(
  "Ratio grove / sklearn of fit time (> 1: grove slower). gini ↔ gini; info-gain ↔ entropy (the same measure: sklearn's entropy criterion maximises information gain).",
);
lines.push('');
lines.push(
  '| dataset | grove gini ms | sklearn gini ms | **gini ratio (best)** | gini ratio (median) | grove first (cold) fit ms | cold ratio | info-gain / entropy ratio (best) | nodes grove / sklearn (gini) | max reachable train acc |',
);
lines.push('|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|');
const ratios = {};
const find = (d, sys, c) => results.find((r) => r.dataset === d && r.system === sys && r.criterion === c);
for (const d of opts.datasets) {
  const g = find(d, 'grove', 'gini');
  const s = find(d, 'sklearn', 'gini');
  const gi = find(d, 'grove', 'info-gain');
  const se = find(d, 'sklearn', 'entropy');
  ratios[d] = {
    giniBest: g.bestMs / s.bestMs,
    giniMedian: g.medianMs / s.medianMs,
    giniCold: g.firstMs / s.bestMs,
    infoGainVsEntropyBest: gi && se ? gi.bestMs / se.bestMs : null,
    giniNodes: g.nodes / s.nodes,
  };
  lines.push(
    `| ${d} | ${fmtMs(g.bestMs)} | ${fmtMs(s.bestMs)} | **${ratios[d].giniBest.toFixed(2)}** | ${ratios[d].giniMedian.toFixed(2)} | ${fmtMs(g.firstMs)} | ${ratios[d].giniCold.toFixed(2)} | ${ratios[d].infoGainVsEntropyBest?.toFixed(2) ?? '–'} | ${g.nodes} / ${s.nodes} | ${fmtAcc(dataInfo[d].maxAccuracy)} |`,
  );
}
const spreads = opts.datasets.map((d) => [d, find(d, 'sklearn', 'gini')?.seedSpread]).filter(([, s]) => s);
if (spreads.length) {
  lines.push('');
  lines.push(
    `sklearn gini node count over random_state 0..${opts.seedSpread - 1} (untimed; sklearn visits features in a random order and keeps the first of tied splits, so the tree depends on the seed): ` +
      spreads
        .map(([d, s]) => `${d} ${Math.min(...s.map((x) => x.nodes))}–${Math.max(...s.map((x) => x.nodes))}`)
        .join(', ') +
      '.',
  );
}
lines.push('');
lines.push(
  'grove gain-ratio and dcsm have no scikit-learn counterpart; they are listed for reference (same grower, other measure).',
);
const md = `${lines.join('\n')}\n`;
console.log(md);

mkdirSync(opts.outDir, { recursive: true });
const json = {
  benchmark: 'fit-vs-sklearn',
  date: new Date().toISOString(),
  command: `node bench/fit-vs-sklearn.mjs --datasets ${opts.datasets.join(',')} --repeats ${opts.repeats} --seed-spread ${opts.seedSpread}`,
  machine: {
    cpuModel: cpu,
    logicalCpus: os.cpus().length,
    totalMemBytes: os.totalmem(),
    platform: os.platform(),
    release: os.release(),
    arch: os.arch(),
    loadAvgStart: loadStart,
    loadAvgEnd: os.loadavg(),
  },
  node: process.version,
  v8: process.versions.v8,
  grove: { version: groveVersion, commit, srcDirty: Boolean(dirty), distStale },
  sklearn: sk.sklearn,
  numpy: sk.numpy,
  python: sk.python,
  pythonExecutable: sk.pythonExecutable,
  dataDir,
  repeats: opts.repeats,
  datasets: dataInfo,
  results,
  ratiosGroveOverSklearn: ratios,
};
const write = (file, text) => {
  const p = join(opts.outDir, file);
  writeFileSync(`${p}.tmp`, text);
  renameSync(`${p}.tmp`, p);
  return p;
};
const mdPath = write('fit-vs-sklearn.md', md);
const jsonPath = write('fit-vs-sklearn.json', `${JSON.stringify(json, null, 2)}\n`);
console.error(`fit-vs-sklearn: wrote ${relative(process.cwd(), mdPath)} and ${relative(process.cwd(), jsonPath)}`);
