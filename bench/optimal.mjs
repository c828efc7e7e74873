#!/usr/bin/env node
/**
 * Optimal trees on the corpus (../shared/datasets), from the built library (npm run build):
 *
 *   node bench/optimal.mjs speed [--depth 3] [--bins 16] [--max-rows 20000] [--time-limit 120] [--sets a,b]
 *                                [--threads N] [--memory-limit MB]
 *   node bench/optimal.mjs gap [--depths 2,3] [--bins 16] [--max-rows 5000] [--folds 5] [--time-limit 60] [--sets a,b]
 *                              [--jobs 2] [--out DIR] [--resume]
 *   node bench/optimal.mjs gap --from DIR1,DIR2
 *
 * `speed`: per data set, the search's seconds and CPU seconds (worker threads' included), sub-problems, depth-2 solves, cache hits and
 * entries (and their estimated MB), the peak resident memory of the process that searched (each
 * set in a child process of its own), its training error and the greedy (gini) tree's, and
 * whether it was proven optimal. Without --bins every midpoint is a test. The stderr line's `tree` is
 * a hash of the tree's nodes (two builds' trees compared).
 *
 * `gap`: `grove compare` (runComparison) of the optimal tree at each depth beside every measure's
 * unpruned tree of that depth over the same bins (and C-MBSV with the same depth limit), stratified
 * folds, results in --out (default bench/results/optimal-gap); then per depth the training-error
 * gap of each measure's tree to the optimal one and its test accuracy, a summary per measure, and
 * Spearman's ρ of gap with test accuracy. Folds where the optimal search stopped at --time-limit
 * are marked. `--from` prints the tables of finished runs (several folders: one table set).
 *
 * Prints Markdown tables on stdout (`speed`: one JSON line per row on stderr).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DATA = process.env.GROVE_DATA_DIR ?? path.resolve(ROOT, '../shared/datasets');
const { fitOptimal } = await import(pathToFileURL(path.join(ROOT, 'dist/index.js')).href);
const { readDataset } = await import(pathToFileURL(path.join(ROOT, 'dist/node.js')).href);

const [mode = 'speed', ...rest] = process.argv.slice(2);
const threads = arg('threads') === undefined ? undefined : Number(arg('threads'));
const memoryLimit = arg('memory-limit') === undefined ? undefined : Number(arg('memory-limit'));
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
  const c0 = process.cpuUsage();
  const limits = { timeLimit, ...(threads ? { threads } : {}), ...(memoryLimit ? { memoryLimit } : {}) };
  const tree = fitOptimal(data, withBins({ maxDepth: depth, ...limits }));
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  // The process's CPU, its worker threads' included.
  const c = process.cpuUsage(c0);
  const cpu = (c.user + c.system) / 1e6;
  const peakMB = process.resourceUsage().maxRSS / 1024;
  // The tree's nodes, hashed: two builds' trees compared without printing them.
  const hash = createHash('sha256').update(JSON.stringify(tree.toJSON().nodes)).digest('hex').slice(0, 16);
  process.stdout.write(JSON.stringify({ seconds, cpu, peakMB, tree: hash, o: tree.optimality }));
}

async function speed() {
  const depth = Number(arg('depth', 3));
  const how = bins === undefined ? 'every midpoint' : `${bins} bins`;
  const memory = `memory limit ${memoryLimit ?? 1024} MB`;
  console.log(
    `Optimal trees, depth ${depth}, ${how}, ${threads ?? 1} thread(s), time limit ${timeLimit} s, ${memory}\n`,
  );
  console.log(
    '| data set | rows | tests | seconds | CPU s | sub-problems | depth-2 solves | cache hits | cache entries | ' +
      'cache MB | peak RSS MB | optimal error % | greedy (gini) error % | proven | load |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|');
  for (const { name, data } of await corpusSets()) {
    const { seconds, cpu, peakMB, tree, o } = speedChild(name, depth);
    const load = loadavg()[0].toFixed(1);
    console.error(JSON.stringify({ name, rows: data.nRows, seconds, cpu, peakMB, load, tree, ...o }));
    console.log(
      `| ${name} | ${data.nRows} | ${o.tests} | ${seconds.toFixed(2)} | ${cpu.toFixed(2)} | ${o.subproblems} | ` +
        `${o.depth2} | ` +
        `${o.cacheHits} | ${o.cacheEntries} | ${(o.cacheBytes / 2 ** 20).toFixed(1)} | ${peakMB.toFixed(0)} | ` +
        `${pct(o.trainingError)} | ${pct(o.greedyError)} | ${o.proven ? 'yes' : `no (${o.stopped})`} | ${load} |`,
    );
  }
}

const MEASURES = [...CRITERIA, 'hellinger'];

/**
 * The configurations of the gap experiment at each depth: the optimal tree, every measure's
 * unpruned tree over the same bins with missing values sent the learned way (the optimal tree's
 * tests), and C-MBSV with the same depth limit.
 */
function gapConfigs(depths) {
  const configs = [];
  for (const d of depths) {
    configs.push({ label: `optimal-${d}`, optimal: true, maxDepth: d, ...withBins({}), timeLimit });
    for (const criterion of MEASURES)
      configs.push({
        label: `${criterion}-${d}`,
        criterion,
        maxDepth: d,
        ...withBins({}),
        missing: 'learned',
        prune: 'none',
      });
    configs.push({ label: `cmbsv-${d}`, algorithm: 'cmbsv', maxDepth: d });
  }
  return configs;
}

/** Runs `grove compare` (the library's runComparison) into `out`, or reads the results already there. */
async function gapResults(out, depths) {
  const file = path.join(out, 'results.json');
  if (arg('from') === undefined) {
    const { runComparison } = await import(pathToFileURL(path.join(ROOT, 'dist/compare/compare.js')).href);
    const { parseConfigs } = await import(pathToFileURL(path.join(ROOT, 'dist/eval/configs.js')).href);
    const files = (await corpusSets()).map(({ name }) => path.join(DATA, `${name}.csv`));
    await runComparison({
      files,
      configs: parseConfigs(JSON.stringify(gapConfigs(depths))),
      folds: Number(arg('folds', 5)),
      repeats: 1,
      seed: Number(arg('seed', 1)),
      jobs: Number(arg('jobs', 2)),
      out,
      resume: rest.includes('--resume'),
      models: false,
    });
  }
  return JSON.parse(readFileSync(file, 'utf8'));
}

const mean = (xs) => xs.reduce((s, x) => s + x, 0) / xs.length;
const signed = (x) => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(2)}`;

/**
 * `gap`: grove compare with an optimal configuration per depth beside every measure's tree, then
 * the Markdown tables of docs/reproduction.md: per depth, each measure's gap / test accuracy per
 * data set; a summary per measure; and whether the gap predicts test accuracy (Spearman's ρ).
 * `--from dir1,dir2` reads finished runs' results.json instead of running.
 */
async function gap() {
  const { optimalGaps, spearman } = await import(pathToFileURL(path.join(ROOT, 'dist/eval/optimal-gap.js')).href);
  const depths = arg('depths', '2,3').split(',').map(Number);
  const outs = (arg('from') ?? arg('out', 'bench/results/optimal-gap')).split(',');
  const cells = [];
  const optimal = new Map();
  for (const out of outs) {
    const results = await gapResults(out, depths);
    const gaps = optimalGaps(results);
    for (const c of gaps.cells) if (c.folds === results.settings.folds * results.settings.repeats) cells.push(c);
    for (const s of results.summary) optimal.set(`${s.dataset}\u0000${s.config}`, s);
  }
  const measureOf = (config) => config.replace(/-\d+$/, '');
  const allDepths = [...new Set(cells.map((c) => c.depth))].sort();
  for (const depth of allDepths)
    gapTable(
      cells.filter((c) => c.depth === depth),
      depth,
      optimal,
    );
  gapSummary(cells, allDepths, measureOf);
  gapCorrelation(cells, allDepths, measureOf, spearman);
}

function gapTable(cells, depth, summaries) {
  const sets = [...new Set(cells.map((c) => c.dataset))];
  const measures = [...MEASURES, 'cmbsv'];
  console.log(
    `\nDepth ${depth}: gap (points) / test accuracy % per measure; optimal: training error % / test accuracy %\n`,
  );
  console.log(`| data set | optimal | ${measures.join(' | ')} |`);
  console.log(`|---|---|${measures.map(() => '---').join('|')}|`);
  for (const set of sets) {
    const mine = cells.filter((c) => c.dataset === set);
    const o = summaries.get(`${set}\u0000optimal-${depth}`);
    const unproven = mine[0].unproven ? `* (${mine[0].unproven}/${mine[0].folds} not proven)` : '';
    const row = measures.map((m) => {
      const c = mine.find((x) => x.config === `${m}-${depth}`);
      return c ? `${signed(c.gap.mean)} / ${pct(c.testAccuracy.mean)}` : '—';
    });
    console.log(`| ${set} | ${pct(o.trainError.mean)} / ${pct(o.testAccuracy.mean)}${unproven} | ${row.join(' | ')} |`);
  }
}

/** Per measure and depth: mean gap, sets where it matched the optimum, mean rank of its gap, mean test accuracy. */
function gapSummary(cells, depths, measureOf) {
  console.log(
    '\nPer measure: mean gap (points), sets at gap ≤ 0 (the optimum matched or beaten), average rank of the gap among the eleven measures ',
  );
  console.log('(1 = closest), mean test accuracy %, over the data sets of each depth\n');
  console.log(`| measure | ${depths.map((d) => `depth ${d}: gap / at optimum / rank / test acc`).join(' | ')} |`);
  console.log(`|---|${depths.map(() => '---').join('|')}|`);
  const rankOf = new Map();
  for (const depth of depths) {
    const sets = [...new Set(cells.filter((c) => c.depth === depth).map((c) => c.dataset))];
    for (const set of sets) {
      const row = cells.filter((c) => c.depth === depth && c.dataset === set && measureOf(c.config) !== 'cmbsv');
      const sorted = row.map((c) => c.gap.mean).sort((a, b) => a - b);
      for (const c of row) {
        const first = sorted.findIndex((g) => Math.abs(g - c.gap.mean) < 1e-12);
        const last = sorted.findLastIndex((g) => Math.abs(g - c.gap.mean) < 1e-12);
        rankOf.set(`${depth}\u0000${set}\u0000${c.config}`, (first + last) / 2 + 1);
      }
    }
  }
  const optimalParts = depths.map((depth) => {
    const bySet = new Map(cells.filter((c) => c.depth === depth).map((c) => [c.dataset, c.optimalTestAccuracy.mean]));
    return `0 / ${bySet.size} of ${bySet.size} / — / ${pct(mean([...bySet.values()]))}`;
  });
  console.log(`| optimal | ${optimalParts.join(' | ')} |`);
  for (const m of [...MEASURES, 'cmbsv']) {
    const parts = depths.map((depth) => {
      const mine = cells.filter((c) => c.depth === depth && measureOf(c.config) === m);
      if (mine.length === 0) return '—';
      const zero = mine.filter((c) => c.gap.mean <= 1e-12).length;
      const ranks = mine
        .map((c) => rankOf.get(`${depth}\u0000${c.dataset}\u0000${c.config}`))
        .filter((r) => r !== undefined);
      const rank = ranks.length ? mean(ranks).toFixed(2) : 'n/a';
      return `${signed(mean(mine.map((c) => c.gap.mean)))} / ${zero} of ${mine.length} / ${rank} / ${pct(mean(mine.map((c) => c.testAccuracy.mean)))}`;
    });
    console.log(`| ${m} | ${parts.join(' | ')} |`);
  }
}

/**
 * Does closeness predict accuracy? Within each data set and depth, Spearman's ρ over the eleven
 * measures of gap with test accuracy; and over every (data set, measure) of a depth, ρ of gap with
 * test accuracy minus the optimal tree's (which takes the data set's difficulty out).
 */
function gapCorrelation(cells, depths, measureOf, spearman) {
  console.log('\nGap against test accuracy (Spearman ρ; C-MBSV left out)\n');
  console.log(
    '| depth | sets | mean within-set ρ | sets ρ < 0 / > 0 / undefined | pooled ρ(gap, accuracy − optimal accuracy) | points | ' +
      'sets where the optimal tree is the most accurate |',
  );
  console.log('|---:|---:|---:|---|---:|---:|---:|');
  for (const depth of depths) {
    const mine = cells.filter((c) => c.depth === depth && measureOf(c.config) !== 'cmbsv');
    const sets = [...new Set(mine.map((c) => c.dataset))];
    const rhos = sets.map((s) => {
      const row = mine.filter((c) => c.dataset === s);
      return spearman(
        row.map((c) => c.gap.mean),
        row.map((c) => c.testAccuracy.mean),
      );
    });
    const defined = rhos.filter((r) => Number.isFinite(r));
    const optimalBest = sets.filter((s) => {
      const row = mine.filter((c) => c.dataset === s);
      return row.every((c) => row[0].optimalTestAccuracy.mean >= c.testAccuracy.mean - 1e-12);
    }).length;
    const pooled = spearman(
      mine.map((c) => c.gap.mean),
      mine.map((c) => c.testAccuracy.mean - c.optimalTestAccuracy.mean),
    );
    console.log(
      `| ${depth} | ${sets.length} | ${defined.length ? mean(defined).toFixed(2) : 'n/a'} | ` +
        `${defined.filter((r) => r < 0).length} / ${defined.filter((r) => r > 0).length} / ${rhos.length - defined.length} | ` +
        `${pooled.toFixed(2)} | ${mine.length} | ${optimalBest} of ${sets.length} |`,
    );
  }
}

if (mode === 'speed') await speed();
else if (mode === 'speed-child') await speedOne(rest[0], Number(rest[1]));
else if (mode === 'gap') await gap();
else {
  console.error(`unknown mode '${mode}' (speed, gap)`);
  process.exit(2);
}
