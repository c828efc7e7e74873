#!/usr/bin/env node
/**
 * Random-forest fit speed and peak memory against scikit-learn and ranger, same run, interleaved:
 *
 * - large (the synthetic set of bench/synthetic.mjs as CSV): the WHOLE process, reading included —
 *   `grove fit FILE --forest random-forest --trees 100 --threads 2` (exact, and with `--bins 255`),
 *   pandas `read_csv` + `RandomForestClassifier(n_estimators=100, n_jobs=2)` (bench/forest_fit.py,
 *   Debian's /usr/bin/python3), `data.table::fread` + `ranger(num.trees = 100, num.threads = 2)`
 *   (bench/forest_fit.R). The parent times each child's wall clock; GNU time gives its peak RSS.
 * - small (corpus sets, `--small letter-recognition,spambase`): the fit alone, timed inside each
 *   process (not the read): grove `fitForest(data, { trees: 100, threads: 2 })` against the same
 *   two peers; each process fits `--fits` times and the first (cold) and best fits are reported.
 *
 * Rounds alternate the systems' order (rotated each round) so machine load hits all alike.
 *
 *   npx tsc -p tsconfig.json
 *   node bench/forest-fit.mjs [--rows 200000] [--features 20] [--rounds 3] [--trees 100] [--threads 2]
 *        [--systems grove,grove-hist,sklearn,ranger] [--small letter-recognition,spambase]
 *        [--small-rounds 3] [--fits 3] [--no-large] [--no-small] [--dir /tmp/grove-forest-fit] [--keep]
 *
 * Prints Markdown tables; the CSV is written in --dir and removed afterwards unless --keep.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { hasGnuTime, timedSync } from './lib/proc.mjs';
import { writeSyntheticCsv } from './lib/synthetic-csv.mjs';

const BENCH = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(BENCH, '..');

/** grove's side of the small sets: read, then `fits` forests, each fit timed alone. */
async function groveChild([file, trees, threads, fits]) {
  const grove = await import(pathToFileURL(join(ROOT, 'dist', 'node.js')).href);
  const t0 = performance.now();
  const data = await grove.readDataset(file);
  const readSeconds = (performance.now() - t0) / 1000;
  const fitSeconds = [];
  const fitCpuSeconds = [];
  let nodes = 0;
  for (let r = 0; r < Number(fits); r++) {
    const t = performance.now();
    const c0 = process.cpuUsage();
    const forest = grove.fitForest(data, { trees: Number(trees), threads: Number(threads), seed: r + 1 });
    fitSeconds.push((performance.now() - t) / 1000);
    const c = process.cpuUsage(c0);
    fitCpuSeconds.push((c.user + c.system) / 1e6);
    if (r === 0) nodes = forest.trees.reduce((a, tree) => a + tree.nodes.length, 0);
  }
  console.log(JSON.stringify({ readSeconds, fitSeconds, fitCpuSeconds, nodes }));
}

function main() {
  const { values: opt } = parseArgs({
    options: {
      rows: { type: 'string', default: '200000' },
      features: { type: 'string', default: '20' },
      rounds: { type: 'string', default: '3' },
      trees: { type: 'string', default: '100' },
      threads: { type: 'string', default: '2' },
      systems: { type: 'string', default: 'grove,grove-hist,sklearn,ranger' },
      small: { type: 'string', default: 'letter-recognition,spambase' },
      'small-rounds': { type: 'string', default: '3' },
      fits: { type: 'string', default: '3' },
      'no-large': { type: 'boolean', default: false },
      'no-small': { type: 'boolean', default: false },
      data: { type: 'string', default: process.env.GROVE_DATA_DIR ?? resolve(ROOT, '../shared/datasets') },
      dir: { type: 'string', default: '/tmp/grove-forest-fit' },
      keep: { type: 'boolean', default: false },
    },
  });
  const cli = join(ROOT, 'dist', 'cli', 'main.js');
  if (!existsSync(cli)) fail('dist/cli/main.js not found: run `npx tsc -p tsconfig.json` first');
  if (!hasGnuTime()) fail('needs GNU time (/usr/bin/time; Debian package time)');
  const { trees, threads } = opt;
  const pyEnv = { ...process.env, PYTHONNOUSERSITE: '1' };
  for (const k of ['PYTHONPATH', 'PYTHONHOME', 'VIRTUAL_ENV', 'PYENV_VERSION']) delete pyEnv[k];
  const peers = {
    sklearn: (file, repeats) => [
      '/usr/bin/python3',
      [join(BENCH, 'forest_fit.py'), file, '--trees', trees, '--jobs', threads, '--repeats', repeats],
      pyEnv,
    ],
    ranger: (file, repeats) => ['Rscript', [join(BENCH, 'forest_fit.R'), file, trees, threads, repeats], process.env],
  };
  console.log(`grove ${commitOf()}; ${os.cpus().length} CPUs; ${new Date().toISOString()}`);
  if (!opt['no-large']) large(opt, cli, peers);
  if (!opt['no-small']) small(opt, peers);
  if (!opt.keep) rmSync(opt.dir, { recursive: true, force: true });
}

/** The whole process on the synthetic CSV, `rounds` interleaved rounds. */
function large(opt, cli, peers) {
  const rows = Number(opt.rows);
  const features = Number(opt.features);
  mkdirSync(opt.dir, { recursive: true });
  const file = join(opt.dir, `forest-${rows}x${features}.csv`);
  if (!existsSync(file))
    writeSyntheticCsv(file, { rows, features, classes: 2 }, join(opt.dir, 'cache'), (m) => console.error(m));
  const model = join(opt.dir, 'forest.json');
  const groveArgs = (extra) => [
    cli,
    'fit',
    file,
    '--forest',
    'random-forest',
    '--trees',
    opt.trees,
    '--threads',
    opt.threads,
    '--out',
    model,
    '--no-progress',
    ...extra,
  ];
  const systems = {
    grove: () => groveNodes(timedSync(process.execPath, groveArgs([]))),
    'grove-hist': () => groveNodes(timedSync(process.execPath, groveArgs(['--bins', '255']))),
    sklearn: () => peerRun(peers.sklearn(file, '1')),
    ranger: () => peerRun(peers.ranger(file, '1')),
  };
  const names = opt.systems.split(',');
  const load0 = os.loadavg();
  const results = interleave(names, Number(opt.rounds), (name, k) => {
    const r = systems[name]();
    console.error(
      `${name} #${k + 1}: ${r.wall.toFixed(2)} s, CPU ${r.cpu.toFixed(2)} s, peak RSS ${mb(r.rssBytes)} MB, ${r.nodes} nodes`,
    );
    return r;
  });
  console.log(
    `\n${rows} rows × ${features} numeric features, 2 classes, CSV ${(statSync(file).size / 1e6).toFixed(1)} MB; ` +
      `${opt.trees} trees, ${opt.threads} threads; whole process (start-up, read, fit, grove also writes the model); ` +
      `${opt.rounds} rounds, interleaved; load average ${fmtLoad(load0)} at start, ${fmtLoad(os.loadavg())} at end\n`,
  );
  const base = names.includes('sklearn') ? stats(results.sklearn.map((r) => r.wall)) : null;
  const baseRss = base ? Math.max(...results.sklearn.map((r) => r.rssBytes)) : 0;
  const baseCpu = base ? stats(results.sklearn.map((r) => r.cpu)) : null;
  console.log(
    '| system | wall, median | best | / scikit-learn | CPU (user + sys), median | / scikit-learn | peak RSS | / scikit-learn | nodes |',
  );
  console.log('|---|--:|--:|--:|--:|--:|--:|--:|--:|');
  for (const name of names) {
    const s = stats(results[name].map((r) => r.wall));
    const c = stats(results[name].map((r) => r.cpu));
    const rss = Math.max(...results[name].map((r) => r.rssBytes));
    const ratio = base ? (s.median / base.median).toFixed(2) : '';
    const cpuRatio = base ? (c.median / baseCpu.median).toFixed(2) : '';
    const rssRatio = base ? (rss / baseRss).toFixed(2) : '';
    console.log(
      `| ${LABEL[name]} | ${s.median.toFixed(2)} s | ${s.best.toFixed(2)} s | ${ratio} | ${c.median.toFixed(2)} s | ${cpuRatio} | ` +
        `${mb(rss)} MB | ${rssRatio} | ${results[name][0].nodes} |`,
    );
  }
}

/** The fit alone on corpus sets, timed inside each process. */
function small(opt, peers) {
  const names = ['grove', 'sklearn', 'ranger'].filter((n) => opt.systems.split(',').includes(n));
  const run = {
    grove: (file) =>
      peerRun([process.execPath, [fileURLToPath(import.meta.url), '--child', file, opt.trees, opt.threads, opt.fits]]),
    sklearn: (file) => peerRun(peers.sklearn(file, opt.fits)),
    ranger: (file) => peerRun(peers.ranger(file, opt.fits)),
  };
  for (const set of opt.small.split(',').filter(Boolean)) {
    const file = join(opt.data, `${set}.csv`);
    if (!existsSync(file)) {
      console.log(`\n${set}: skipped (${file} not found)`);
      continue;
    }
    const load0 = os.loadavg();
    const results = interleave(names, Number(opt['small-rounds']), (name, k) => {
      const r = run[name](file);
      const fmt = (xs) => xs.map((x) => x.toFixed(2)).join(' ');
      console.error(`${set} ${name} #${k + 1}: fits ${fmt(r.fitSeconds)} s, CPU ${fmt(r.fitCpuSeconds)} s`);
      return r;
    });
    console.log(
      `\n${set} (${file}): ${opt.trees} trees, ${opt.threads} threads, the fit alone (read excluded); ` +
        `${opt['small-rounds']} processes × ${opt.fits} fits each, interleaved; load average ${fmtLoad(load0)} at start, ` +
        `${fmtLoad(os.loadavg())} at end\n`,
    );
    const first = (name) => stats(results[name].map((r) => r.fitSeconds[0]));
    const all = (name) => stats(results[name].flatMap((r) => r.fitSeconds));
    const cpu = (name) => stats(results[name].flatMap((r) => r.fitCpuSeconds));
    const base = names.includes('sklearn')
      ? { first: first('sklearn'), all: all('sklearn'), cpu: cpu('sklearn') }
      : null;
    const ratio = (x, y) => (base ? (x / y).toFixed(2) : '');
    console.log(
      '| system | first fit, median | every fit, median | / scikit-learn | CPU per fit, median | / scikit-learn | peak RSS | nodes |',
    );
    console.log('|---|--:|--:|--:|--:|--:|--:|--:|');
    for (const name of names) {
      const [f, a, c] = [first(name), all(name), cpu(name)];
      const rss = Math.max(...results[name].map((r) => r.rssBytes));
      console.log(
        `| ${LABEL[name]} | ${f.median.toFixed(2)} s | ${a.median.toFixed(2)} s | ${ratio(a.median, base?.all.median)} | ` +
          `${c.median.toFixed(2)} s | ${ratio(c.median, base?.cpu.median)} | ${mb(rss)} MB | ${results[name][0].nodes} |`,
      );
    }
  }
}

const LABEL = {
  grove: 'grove (exact)',
  'grove-hist': 'grove `--bins 255`',
  sklearn: 'scikit-learn',
  ranger: 'ranger',
};

/** Run `rounds` rounds of every system, the order rotated by one each round. */
function interleave(names, rounds, one) {
  const results = Object.fromEntries(names.map((n) => [n, []]));
  for (let k = 0; k < rounds; k++)
    for (let j = 0; j < names.length; j++) {
      const name = names[(j + k) % names.length];
      results[name].push(one(name, k));
    }
  return results;
}

/** A peer child under GNU time; its stdout's last line is JSON. */
function peerRun([cmd, argv, env]) {
  const r = timedSync(cmd, argv, { env });
  const out = JSON.parse(r.stdout.trim().split('\n').pop());
  return { ...r, ...out };
}

/** grove's CLI summary line names the forest's node count. */
function groveNodes(r) {
  const m = `${r.stdout}\n${r.stderr}`.match(/: (\d+) nodes/);
  return { ...r, nodes: m ? Number(m[1]) : '?' };
}

function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return { best: s[0], median: s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2 };
}

const mb = (bytes) => (bytes / 2 ** 20).toFixed(0);
const fmtLoad = (l) => l.map((x) => x.toFixed(2)).join(' ');

function commitOf() {
  const r = spawnSync('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : '?';
}

function fail(message) {
  console.error(`bench/forest-fit.mjs: ${message}`);
  process.exit(1);
}

if (process.argv[2] === '--child') await groveChild(process.argv.slice(3));
else main();
