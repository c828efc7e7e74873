#!/usr/bin/env node
/**
 * A forest's prediction, whole process: `grove predict X.csv --model forest.grove --out p.csv`
 * against a Python process (Debian's /usr/bin/python3) that unpickles scikit-learn's forest, reads
 * the same CSV with pandas `read_csv`, predicts and writes the labels with `to_csv`. Both forests
 * are the issue's defaults (100 trees, gini, sqrt features, bootstrap, unpruned), fitted once on
 * the 200k × 20, 2-class synthetic set (bench/synthetic.mjs) and cached in --dir; both predict the
 * same 200k training rows. Each round is a fresh child process timed by the parent; the two
 * systems alternate, the first of each pair switching every round. Also prints the model files'
 * sizes (grove's forest file against the pickle) and, in-process, the forest's compiled predictor
 * against the per-tree path on the same rows (A/B interleaved).
 *
 *   npx tsc -p tsconfig.json
 *   nice -n 10 node bench/forest-predict.mjs [--rows 200000] [--features 20] [--trees 100]
 *        [--repeats 5] [--dir /tmp/grove-forest-predict] [--keep]
 *
 * scikit-learn fits with n_jobs=2 and keeps it, so its predict runs on two threads (what a user
 * of the pickle gets); grove predicts on one. Targets: whole process ≤ 0.5 × scikit-learn's,
 * file ≤ 0.5 × the pickle.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { hasGnuTime, timedSync } from './lib/proc.mjs';
import { ensureSynthetic } from './synthetic.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values: opt } = parseArgs({
  options: {
    rows: { type: 'string', default: '200000' },
    features: { type: 'string', default: '20' },
    trees: { type: 'string', default: '100' },
    repeats: { type: 'string', default: '5' },
    'ab-rounds': { type: 'string', default: '4' },
    dir: { type: 'string', default: '/tmp/grove-forest-predict' },
    keep: { type: 'boolean', default: false },
  },
});
const rows = Number(opt.rows);
const features = Number(opt.features);
const repeats = Number(opt.repeats);
const PYTHON = '/usr/bin/python3';
const cli = join(ROOT, 'dist', 'cli', 'main.js');
if (!existsSync(cli)) {
  console.error('bench/forest-predict.mjs: dist/cli/main.js not found: run `npx tsc -p tsconfig.json` first');
  process.exit(1);
}
if (!hasGnuTime()) {
  console.error('bench/forest-predict.mjs: needs GNU time (/usr/bin/time; Debian package time)');
  process.exit(1);
}

/** The synthetic set's training rows as two CSVs: with the class (to fit) and without (to predict). */
function writeCsvs(trainFile, xFile) {
  const dir = ensureSynthetic({ n: rows, features, classes: 2 }, join(opt.dir, 'cache'), (m) => console.error(m));
  const read = (name) => readFileSync(join(dir, name));
  const xBytes = read('train.X.f64');
  const X = new Float64Array(xBytes.buffer, xBytes.byteOffset, xBytes.byteLength / 8);
  const yBytes = read('train.y.i32');
  const y = new Int32Array(yBytes.buffer, yBytes.byteOffset, yBytes.byteLength / 4);
  const header = Array.from({ length: features }, (_, j) => `x${j}`);
  const train = openSync(trainFile, 'w');
  const xs = openSync(xFile, 'w');
  writeSync(train, `${[...header, 'class'].join(',')}\n`);
  writeSync(xs, `${header.join(',')}\n`);
  let a = '';
  let b = '';
  for (let i = 0; i < rows; i++) {
    let line = '';
    for (let j = 0; j < features; j++) line += `${j > 0 ? ',' : ''}${String(X[j * rows + i])}`;
    a += `${line},${y[i]}\n`;
    b += `${line}\n`;
    if (a.length > 1 << 20) {
      writeSync(train, a);
      writeSync(xs, b);
      a = '';
      b = '';
    }
  }
  writeSync(train, a);
  writeSync(xs, b);
  closeSync(train);
  closeSync(xs);
  rmSync(join(opt.dir, 'cache'), { recursive: true, force: true });
}

const SKLEARN_FIT = `
import sys, pickle
import pandas as pd
from sklearn.ensemble import RandomForestClassifier
df = pd.read_csv(sys.argv[1])
y = df.pop('class')
clf = RandomForestClassifier(n_estimators=int(sys.argv[3]), random_state=0, n_jobs=2).fit(df, y)
with open(sys.argv[2], 'wb') as f:
    pickle.dump(clf, f, protocol=pickle.HIGHEST_PROTOCOL)
print(sum(t.tree_.node_count for t in clf.estimators_))
`;

const SKLEARN_PREDICT = `
import sys, pickle
import pandas as pd
with open(sys.argv[1], 'rb') as f:
    clf = pickle.load(f)
df = pd.read_csv(sys.argv[2])
pd.DataFrame({'predicted': clf.predict(df)}).to_csv(sys.argv[3], index=False)
`;

mkdirSync(opt.dir, { recursive: true });
const trainFile = join(opt.dir, `train-${rows}x${features}.csv`);
const xFile = join(opt.dir, `x-${rows}x${features}.csv`);
if (!existsSync(xFile)) writeCsvs(trainFile, xFile);
const groveModel = join(opt.dir, `forest-${opt.trees}.grove`);
const pickleFile = join(opt.dir, `forest-${opt.trees}.pickle`);
const pyEnv = { ...process.env, PYTHONNOUSERSITE: '1' };
for (const k of ['PYTHONPATH', 'PYTHONHOME', 'VIRTUAL_ENV', 'PYENV_VERSION']) delete pyEnv[k];
if (!existsSync(groveModel)) {
  console.error('fitting grove’s forest (once) ...');
  const r = timedSync(process.execPath, [
    cli,
    'fit',
    trainFile,
    '--forest',
    'random-forest',
    '--trees',
    opt.trees,
    '--threads',
    '2',
    '--no-progress',
    '--out',
    groveModel,
  ]);
  console.error(`  ${r.wall.toFixed(1)} s ${r.stderr.trim()}`);
}
if (!existsSync(pickleFile)) {
  console.error('fitting scikit-learn’s forest (once) ...');
  const r = timedSync(PYTHON, ['-c', SKLEARN_FIT, trainFile, pickleFile, opt.trees], { env: pyEnv });
  console.error(`  ${r.wall.toFixed(1)} s, ${r.stdout.trim()} nodes`);
}

/** One child under GNU time: wall seconds seen by the parent, peak RSS (MB). */
function run(cmd, argv, env) {
  const r = timedSync(cmd, argv, { env });
  return { wall: r.wall, cpu: r.cpu, rssMb: r.rssBytes / 2 ** 20 };
}
const out = { grove: join(opt.dir, 'grove-pred.csv'), sklearn: join(opt.dir, 'sklearn-pred.csv') };
const systems = {
  grove: () => run(process.execPath, [cli, 'predict', xFile, '--model', groveModel, '--out', out.grove], process.env),
  sklearn: () => run(PYTHON, ['-c', SKLEARN_PREDICT, pickleFile, xFile, out.sklearn], pyEnv),
};
const loadStart = os.loadavg();
const results = { grove: [], sklearn: [] };
for (let k = 0; k < repeats; k++) {
  const order = k % 2 === 0 ? ['grove', 'sklearn'] : ['sklearn', 'grove'];
  for (const name of order) {
    const r = systems[name]();
    results[name].push(r);
    console.error(
      `${name} #${k + 1}: ${r.wall.toFixed(2)} s, CPU ${r.cpu.toFixed(2)} s, peak RSS ${r.rssMb.toFixed(0)} MB`,
    );
  }
}
const loadEnd = os.loadavg();

// The two forests agree on most rows (different random draws): a sanity check that both predicted.
const lines = (f) => readFileSync(f, 'utf8').trim().split('\n').slice(1);
const [pg, ps] = [lines(out.grove), lines(out.sklearn)];
let agree = 0;
for (let i = 0; i < pg.length; i++) if (Number(pg[i]) === Number(ps[i])) agree++;

const ab = inProcessAB();

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const stat = (name) => ({
  best: Math.min(...results[name].map((r) => r.wall)),
  median: median(results[name].map((r) => r.wall)),
  cpu: Math.min(...results[name].map((r) => r.cpu)),
  rss: Math.max(...results[name].map((r) => r.rssMb)),
});
const g = stat('grove');
const s = stat('sklearn');
let commit = '';
try {
  commit = spawnSync('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).stdout.trim();
} catch {}
const fmtLoad = (l) => l.map((x) => x.toFixed(2)).join(' ');
const mb = (f) => statSync(f).size / 1e6;
console.log(
  `${new Date().toISOString().slice(0, 10)}; ${rows} rows x ${features} features, ${opt.trees} trees; grove ${commit}; ${repeats} rounds each, alternating; load average ${fmtLoad(loadStart)} at start, ${fmtLoad(loadEnd)} at end; ${pg.length} predictions, the two forests agree on ${((100 * agree) / pg.length).toFixed(2)} %`,
);
console.log('| system | whole process, best | median | CPU, best | peak RSS |');
console.log('|---|--:|--:|--:|--:|');
const row = (name, r) =>
  `| ${name} | ${r.best.toFixed(2)} s | ${r.median.toFixed(2)} s | ${r.cpu.toFixed(2)} s | ${r.rss.toFixed(0)} MB |`;
console.log(row('grove predict', g));
console.log(row('pickle + pandas + scikit-learn', s));
console.log(
  `grove / scikit-learn: wall median ${(g.median / s.median).toFixed(2)}, best ${(g.best / s.best).toFixed(2)}; CPU ${(g.cpu / s.cpu).toFixed(2)} (target <= 0.5)`,
);
console.log(
  `model file: grove ${mb(groveModel).toFixed(1)} MB, pickle ${mb(pickleFile).toFixed(1)} MB: ${(mb(groveModel) / mb(pickleFile)).toFixed(2)} (target <= 0.5)`,
);
console.log(ab);
if (!opt.keep) rmSync(opt.dir, { recursive: true, force: true });

/** In a child: the compiled forest against the per-tree path, same rows, interleaved rounds. */
function inProcessAB() {
  const script = `
    import { loadAnyModel } from ${JSON.stringify(join(ROOT, 'dist/io/model-file.js'))};
    import { readDataset } from ${JSON.stringify(join(ROOT, 'dist/node.js'))};
    import { combineTrees } from ${JSON.stringify(join(ROOT, 'dist/ensemble/combine.js'))};
    import { alignInput } from ${JSON.stringify(join(ROOT, 'dist/model/align.js'))};
    const forest = loadAnyModel(process.argv[1]);
    const data = await readDataset(process.argv[2], { noTarget: true });
    const { columns, nRows } = alignInput(forest.features, data);
    const perTree = () => combineTrees(forest.trees, columns, nRows, forest.settings.vote);
    const compiled = () => forest.predictProbaFlat(data);
    const a = perTree(), b = compiled();
    let same = a.length === b.length;
    for (let i = 0; same && i < a.length; i++) same = Object.is(a[i], b[i]);
    const t = { perTree: [], compiled: [] };
    for (let r = 0; r < ${Number(opt['ab-rounds'])}; r++)
      for (const [name, f] of r % 2 ? [['compiled', compiled], ['perTree', perTree]] : [['perTree', perTree], ['compiled', compiled]]) {
        const t0 = performance.now(); f(); t[name].push(performance.now() - t0);
      }
    const best = (xs) => Math.min(...xs) / 1000;
    console.log(\`in-process predictProbaFlat on \${nRows} rows (columns aligned once for the per-tree path): per-tree \${best(t.perTree).toFixed(2)} s, compiled forest \${best(t.compiled).toFixed(2)} s (best of \${t.perTree.length}): \${(best(t.perTree) / best(t.compiled)).toFixed(2)}× faster; probabilities bit-identical: \${same}\`);
  `;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script, groveModel, xFile], {
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  });
  return r.status === 0 ? r.stdout.trim() : `in-process A/B failed: ${r.stderr.trim().split('\n').slice(-3).join(' ')}`;
}
