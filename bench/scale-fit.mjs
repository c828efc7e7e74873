#!/usr/bin/env node
/**
 * No size cap: a CSV of millions of rows fits with
 * `grove fit FILE --bins 255 --float32 --max-depth 12 --prune none`, and the fit's peak RSS stays
 * within 1.5 × the bytes of the typed columns + 150 MiB, on one thread and on worker threads. The
 * typed columns' bytes are what `grove info FILE --float32 --json` reports as held in memory; peak
 * RSS and wall time come from GNU time around the child process. Exits 1 when a fit goes over the
 * bound or the trees differ across thread counts.
 *
 *   npx tsc -p tsconfig.json
 *   node bench/scale-fit.mjs [--rows 4000000] [--features 20] [--threads 1,auto] [--check 1,auto] [--dir /tmp/grove-scale]
 *                            [--keep] [--generate-only]
 *
 * `--threads`: a comma-separated list of `grove fit --threads` values, one fit each (the CLI's
 * default is auto: as many threads as the machine has and the bound allows). `--check`: those of
 * them whose peak must stay within the bound (every count: an explicit count of two or more grows
 * on that many threads and bins on as many only within the bound). `--generate-only`: write the
 * file (with --keep, for later runs) and stop.
 *
 * Data: seeded N(0, 2) values with 4 decimals (as bench/read-csv.mjs writes them; 4M rows × 20
 * is about 600 MB), a class column of 3 classes that depends on four of the features with 10 %
 * label noise. Written in --dir (a file already there from a --keep run is reused), removed
 * afterwards unless --keep; never committed.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { hasGnuTime, timedSync } from './lib/proc.mjs';
import { mulberry32 } from './synthetic.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values: opt } = parseArgs({
  options: {
    rows: { type: 'string', default: '4000000' },
    features: { type: 'string', default: '20' },
    threads: { type: 'string', default: '1,auto' },
    check: { type: 'string', default: '1,auto' },
    dir: { type: 'string', default: '/tmp/grove-scale' },
    keep: { type: 'boolean', default: false },
    'generate-only': { type: 'boolean', default: false },
  },
});
const rows = Number(opt.rows);
const features = Number(opt.features);
const cli = join(ROOT, 'dist', 'cli', 'main.js');
if (!existsSync(cli)) {
  console.error('bench/scale-fit.mjs: dist/cli/main.js not found: run `npx tsc -p tsconfig.json` first');
  process.exit(1);
}
if (!hasGnuTime()) {
  console.error('bench/scale-fit.mjs: needs GNU time (/usr/bin/time; Debian package time)');
  process.exit(1);
}

function generate(file) {
  const random = mulberry32(16);
  const normal = () => {
    const u = Math.max(random(), 1e-300);
    return 2 * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
  };
  const fd = openSync(`${file}.tmp`, 'w');
  const header = Array.from({ length: features }, (_, j) => `x${j}`);
  writeSync(fd, `${[...header, 'class'].join(',')}\n`);
  const x = new Float64Array(features);
  let out = '';
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < features; j++) {
      x[j] = Math.round(normal() * 1e4) / 1e4;
      out += `${x[j]},`;
    }
    const score = x[0] + 0.5 * x[1] - x[2] * x[3 % features];
    let c = score < -1 ? 0 : score < 1 ? 1 : 2;
    if (random() < 0.1) c = Math.floor(random() * 3);
    out += `c${c}\n`;
    if (out.length > 1 << 22) {
      writeSync(fd, out);
      out = '';
    }
  }
  writeSync(fd, out);
  closeSync(fd);
  spawnSync('mv', [`${file}.tmp`, file]);
}

/** A node child under GNU time: wall seconds, CPU seconds, peak RSS in bytes, stdout. */
function timed(argv) {
  const r = timedSync(process.execPath, argv);
  return { wall: r.wall, cpu: r.cpu, rss: r.rssBytes, stdout: r.stdout };
}

mkdirSync(opt.dir, { recursive: true });
const file = join(opt.dir, `scale-${rows}x${features}.csv`);
const loadStart = os.loadavg();
if (!existsSync(file)) {
  const t0 = performance.now();
  generate(file);
  console.error(`generated ${file} in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
}
if (opt['generate-only']) process.exit(0);
const size = statSync(file).size;
const info = timed([cli, 'info', file, '--float32', '--json', '--no-progress']);
const typedBytes = JSON.parse(info.stdout).bytes;
console.error(
  `info: ${info.wall.toFixed(1)} s, peak RSS ${(info.rss / 2 ** 20).toFixed(0)} MiB, typed columns ${(typedBytes / 2 ** 20).toFixed(0)} MiB`,
);
const model = join(opt.dir, 'model.json');
const bound = 1.5 * typedBytes + 150 * 2 ** 20;
const mib = (b) => `${(b / 2 ** 20).toFixed(0)} MiB`;
const fits = opt.threads.split(',').map((threads) => {
  const args = ['--bins', '255', '--float32', '--max-depth', '12', '--prune', 'none', '--threads', threads];
  const run = timed([cli, 'fit', file, ...args, '--out', model, '--no-progress']);
  const tree = JSON.stringify(JSON.parse(readFileSync(model, 'utf8')).nodes);
  const nodes = JSON.parse(tree).length;
  console.error(`fit --threads ${threads}: ${run.wall.toFixed(1)} s, peak RSS ${mib(run.rss)}, ${nodes} nodes`);
  return { args, run, nodes, tree };
});
let commit = '';
try {
  commit = spawnSync('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).stdout.trim();
} catch {}
const fmtLoad = (l) => l.map((v) => v.toFixed(2)).join(' ');
console.log(
  `${rows} rows x ${features} numeric features + 3 classes, CSV ${(size / 1e6).toFixed(0)} MB; grove ${commit}; ${os.availableParallelism()} cores (auto: up to that many threads); load average ${fmtLoad(loadStart)} at start, ${fmtLoad(os.loadavg())} at end`,
);
console.log('| step | wall | CPU | peak RSS | typed columns | bound 1.5 × columns + 150 MiB | RSS / bound |');
console.log('|---|--:|--:|--:|--:|--:|--:|');
const line = (step, r) =>
  console.log(
    `| ${step} | ${r.wall.toFixed(1)} s | ${r.cpu.toFixed(1)} s | ${mib(r.rss)} | ${mib(typedBytes)} | ${mib(bound)} | ${(r.rss / bound).toFixed(2)} |`,
  );
line('`grove info --float32`', info);
for (const { args, run } of fits) line(`\`grove fit ${args.join(' ')}\``, run);
const checked = new Set(opt.check.split(','));
for (const { args, run, nodes } of fits)
  console.log(
    `--threads ${args.at(-1)}: ${nodes} nodes; fit peak RSS ${run.rss <= bound ? 'within' : 'OVER'} the bound${checked.has(args.at(-1)) ? '' : ' (not checked)'}`,
  );
const same = fits.every((f) => f.tree === fits[0].tree);
if (fits.length > 1) console.log(`trees ${same ? 'identical' : 'DIFFERENT'} across --threads`);
const one = fits.find((f) => f.args.at(-1) === '1');
for (const f of fits)
  if (one && f !== one)
    console.log(
      `--threads ${f.args.at(-1)} / --threads 1: wall ${(f.run.wall / one.run.wall).toFixed(2)}, CPU ${(f.run.cpu / one.run.cpu).toFixed(2)}, peak RSS ${(f.run.rss / one.run.rss).toFixed(2)}`,
    );
if (!opt.keep) rmSync(opt.dir, { recursive: true, force: true });
if (!same || fits.some((f) => checked.has(f.args.at(-1)) && f.run.rss > bound)) process.exit(1);
