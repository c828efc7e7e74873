#!/usr/bin/env node
/**
 * The whole process, reading included: `grove fit FILE.csv` against a Python process that reads the
 * same file with pandas `read_csv` and fits scikit-learn's DecisionTreeClassifier (Debian's
 * /usr/bin/python3), both unpruned gini trees of unlimited depth. Each run is a fresh child
 * process; the parent times its wall clock (start-up, imports, reading, fitting, and for grove
 * writing the model) and GNU time gives its peak RSS. The two systems alternate, the first of each
 * pair switching every repeat. Target (issue 16): grove ≤ 0.8 × scikit-learn.
 *
 *   npx tsc -p tsconfig.json
 *   node bench/whole-fit.mjs [--rows 200000] [--features 20] [--classes 2] [--repeats 5] [--threads 1]
 *        [--grove-flags "--float32"] [--dir /tmp/grove-whole-fit] [--keep]
 *
 * Data: the train part of bench/synthetic.mjs's seeded set (the issue-6 benchmark's generator),
 * written as CSV with every value's shortest round-trip text (what pandas' to_csv writes), in
 * --dir, removed afterwards unless --keep; never committed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { hasGnuTime, timedSync } from './lib/proc.mjs';
import { writeSyntheticCsv } from './lib/synthetic-csv.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values: opt } = parseArgs({
  options: {
    rows: { type: 'string', default: '200000' },
    features: { type: 'string', default: '20' },
    classes: { type: 'string', default: '2' },
    repeats: { type: 'string', default: '5' },
    threads: { type: 'string', default: '1' },
    'grove-flags': { type: 'string', default: '' },
    dir: { type: 'string', default: '/tmp/grove-whole-fit' },
    keep: { type: 'boolean', default: false },
  },
});
const rows = Number(opt.rows);
const features = Number(opt.features);
const classes = Number(opt.classes);
const repeats = Number(opt.repeats);
const PYTHON = '/usr/bin/python3';
const cli = join(ROOT, 'dist', 'cli', 'main.js');
if (!existsSync(cli)) {
  console.error('bench/whole-fit.mjs: dist/cli/main.js not found: run `npx tsc -p tsconfig.json` first');
  process.exit(1);
}
if (!hasGnuTime()) {
  console.error('bench/whole-fit.mjs: needs GNU time (/usr/bin/time; Debian package time)');
  process.exit(1);
}

/** The synthetic set's training rows as CSV: x0..x{d-1}, class (integer codes). */
function writeCsv(file) {
  writeSyntheticCsv(file, { rows, features, classes }, join(opt.dir, 'cache'), (m) => console.error(m));
}

const SKLEARN = `
import sys
import pandas as pd
from sklearn.tree import DecisionTreeClassifier
df = pd.read_csv(sys.argv[1])
y = df.pop('class')
clf = DecisionTreeClassifier(criterion='gini', random_state=0).fit(df, y)
print(clf.tree_.node_count, clf.get_depth())
`;

/** One child under GNU time: wall seconds seen by the parent, peak RSS (MB), stdout. */
function run(cmd, argv, env) {
  const r = timedSync(cmd, argv, { env });
  return { wall: r.wall, rssMb: r.rssBytes / 2 ** 20, stdout: r.stdout };
}

mkdirSync(opt.dir, { recursive: true });
const file = join(opt.dir, `whole-${rows}x${features}-k${classes}.csv`);
if (!existsSync(file)) writeCsv(file);
const model = join(opt.dir, 'model.json');
const pyEnv = { ...process.env, PYTHONNOUSERSITE: '1' };
for (const k of ['PYTHONPATH', 'PYTHONHOME', 'VIRTUAL_ENV', 'PYENV_VERSION']) delete pyEnv[k];
const groveFlags = opt['grove-flags'].split(/\s+/).filter(Boolean);
const groveArgs = [
  cli,
  'fit',
  file,
  '--prune',
  'none',
  '--out',
  model,
  '--no-progress',
  '--threads',
  opt.threads,
  ...groveFlags,
];

const systems = {
  grove: () => {
    const r = run(process.execPath, groveArgs, process.env);
    const m = JSON.parse(readFileSync(model, 'utf8'));
    r.shape = `${m.nodes.length} nodes, height ${m.nodes.reduce((h, n) => Math.max(h, n.depth), 0)}`;
    return r;
  },
  sklearn: () => {
    const r = run(PYTHON, ['-c', SKLEARN, file], pyEnv);
    const [nodes, depth] = r.stdout.trim().split(/\s+/);
    r.shape = `${nodes} nodes, height ${depth}`;
    return r;
  },
};
const loadStart = os.loadavg();
const results = { grove: [], sklearn: [] };
for (let k = 0; k < repeats; k++) {
  const order = k % 2 === 0 ? ['grove', 'sklearn'] : ['sklearn', 'grove'];
  for (const name of order) {
    const r = systems[name]();
    results[name].push(r);
    console.error(`${name} #${k + 1}: ${r.wall.toFixed(2)} s, peak RSS ${r.rssMb.toFixed(0)} MB (${r.shape})`);
  }
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const stat = (name) => ({
  best: Math.min(...results[name].map((r) => r.wall)),
  median: median(results[name].map((r) => r.wall)),
  rss: Math.max(...results[name].map((r) => r.rssMb)),
});
const g = stat('grove');
const s = stat('sklearn');
let commit = '';
try {
  commit = spawnSync('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).stdout.trim();
} catch {}
const fmtLoad = (l) => l.map((x) => x.toFixed(2)).join(' ');
console.log(
  `${rows} rows x ${features} numeric features, ${classes} classes, CSV ${(statSync(file).size / 1e6).toFixed(1)} MB; grove ${commit} \`grove fit --prune none --threads ${opt.threads}${groveFlags.length ? ` ${groveFlags.join(' ')}` : ''}\`; ${repeats} runs each, alternating; load average ${fmtLoad(loadStart)} at start, ${fmtLoad(os.loadavg())} at end`,
);
console.log('| system | whole process, best | median | peak RSS |');
console.log('|---|--:|--:|--:|');
console.log(`| grove | ${g.best.toFixed(2)} s | ${g.median.toFixed(2)} s | ${g.rss.toFixed(0)} MB |`);
console.log(`| pandas + scikit-learn | ${s.best.toFixed(2)} s | ${s.median.toFixed(2)} s | ${s.rss.toFixed(0)} MB |`);
const ratio = g.median / s.median;
console.log(
  `grove / scikit-learn: median ${ratio.toFixed(2)}, best ${(g.best / s.best).toFixed(2)} (target <= 0.8: ${ratio <= 0.8 ? 'PASS' : 'FAIL'}); peak RSS ${(g.rss / s.rss).toFixed(2)}`,
);
if (!opt.keep) rmSync(opt.dir, { recursive: true, force: true });
