#!/usr/bin/env node
/**
 * Why grove's and scikit-learn's full gini trees differ in node count: walks both trees from
 * the root and checks that every place where they choose a different split is an exact tie in
 * weighted Gini (so the difference is tie-breaking only). Untimed; not part of `npm test`.
 *
 *   node bench/gini-ties.mjs [--datasets magic,shuttle] [--seed 0]
 *
 * Prints a Markdown table and writes it to bench/results/gini-ties.md.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(BENCH_DIR, '..');
const args = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
};
const datasets = arg('--datasets', 'magic,letter-recognition,shuttle,spambase').split(',').filter(Boolean);
const seed = arg('--seed', '0');
const dataDir = resolve(ROOT, process.env.GROVE_DATA_DIR ?? '../shared/datasets');
const python = process.env.GROVE_BENCH_PYTHON ?? '/usr/bin/python3';
const die = (m) => {
  console.error(`gini-ties: ${m}`);
  process.exit(1);
};
if (!existsSync(join(ROOT, 'dist', 'node.js'))) die("dist/node.js not found: run 'npm run build' first");
if (!existsSync(python))
  die(`${python} not found: apt-get install -y python3-sklearn (Debian), or set GROVE_BENCH_PYTHON`);

const { fit, readDataset } = await import(pathToFileURL(join(ROOT, 'dist', 'node.js')).href);
const trees = {};
for (const name of datasets) {
  const file = join(dataDir, `${name}.csv`);
  if (!existsSync(file)) die(`no data file ${file}`);
  const tree = fit(await readDataset(file), { algorithm: 'cart', criterion: 'gini', prune: 'none' });
  trees[name] = tree.nodes.map((n) =>
    n.split?.kind === 'numeric'
      ? { feature: n.split.feature, threshold: n.split.thresholds[0], children: n.children }
      : {},
  );
}
const tmp = mkdtempSync(join(tmpdir(), 'grove-gini-ties-'));
try {
  const treesFile = join(tmp, 'grove-trees.json');
  writeFileSync(treesFile, JSON.stringify(trees));
  const env = { ...process.env, PYTHONNOUSERSITE: '1' };
  for (const k of ['PYTHONPATH', 'PYTHONHOME', 'VIRTUAL_ENV', 'PYENV_VERSION']) delete env[k];
  const py = spawnSync(
    python,
    [join(BENCH_DIR, 'gini_ties.py'), '--data-dir', dataDir, '--trees', treesFile, '--seed', seed],
    { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 16 * 1024 * 1024 },
  );
  if (py.error || py.status !== 0) die(`bench/gini_ties.py failed (${py.error?.message ?? `exit ${py.status}`})`);
  const res = JSON.parse(py.stdout);
  const lines = [];
  const log = (l) => lines.push(l);
  log(`# grove gini vs sklearn gini (random_state=${seed}): where the full trees differ\n`);
  log(
    `${new Date().toISOString()}, Node ${process.version}, \`node bench/gini-ties.mjs --datasets ${datasets.join(',')} --seed ${seed}\`. Walked from the root; a divergence is a node where the two trees split the same rows differently.\n`,
  );
  log('| dataset | identical splits | divergences | of which exact ties | max gini diff | shallowest divergence |');
  log('|---|--:|--:|--:|--:|---|');
  for (const [name, r] of Object.entries(res)) {
    const sd = r.shallowestDivergence
      ? `depth ${r.shallowestDivergence.depth}, ${r.shallowestDivergence.rows} rows`
      : '–';
    log(`| ${name} | ${r.sameSplits} | ${r.divergences} | ${r.ties} | ${r.maxGiniDiff.toExponential(1)} | ${sd} |`);
  }
  const bad = Object.entries(res).filter(([, r]) => r.nonTies > 0);
  log(
    bad.length === 0
      ? '\nEvery divergence is a tie: the trees differ only in how ties between features/thresholds are broken.'
      : `\nNOT ties at ${bad.map(([n, r]) => `${n} (${r.nonTies})`).join(', ')}: the two libraries choose different best splits there.`,
  );
  const md = `${lines.join('\n')}\n`;
  console.log(md);
  mkdirSync(join(BENCH_DIR, 'results'), { recursive: true });
  writeFileSync(join(BENCH_DIR, 'results', 'gini-ties.md'), md);
  process.exitCode = bad.length === 0 ? 0 : 2;
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
