#!/usr/bin/env node
/**
 * Reading a large CSV: grove's streaming reader against pandas `read_csv` (Debian's
 * /usr/bin/python3) and grove's previous reader (the whole file as one string, csv-parse into
 * string rows, encodeTable), in one run. Each read runs in its own child process; reported: wall
 * time and CPU time (user + system) of the read, inside the child, from before the file is opened
 * to the finished table, and the child's peak RSS (getrusage maxrss, which includes the runtime
 * itself). Wall time is what the targets are about; CPU time is steadier on a loaded machine.
 *
 *   npm run build
 *   node bench/read-csv.mjs [--rows 1000000] [--features 20] [--repeats 3] [--dir /tmp/grove-read-csv]
 *        [--readers grove,pandas,old] [--float32] [--keep]
 *
 * The file (seeded N(0, 2) values written with 4 decimals, a class column with 3 classes) is
 * generated in --dir and removed afterwards unless --keep; it is never committed.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mulberry32 } from './synthetic.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
};
const rows = Number(arg('--rows', '1000000'));
const features = Number(arg('--features', '20'));
const repeats = Number(arg('--repeats', '3'));
const dir = arg('--dir', '/tmp/grove-read-csv');
const readers = arg('--readers', 'grove,pandas,old').split(',');
const float32 = args.includes('--float32');
const PYTHON = '/usr/bin/python3';

function generate(file) {
  const random = mulberry32(42);
  const fd = openSync(file, 'w');
  const header = [];
  for (let j = 0; j < features; j++) header.push(`x${j}`);
  header.push('class');
  writeSync(fd, `${header.join(',')}\n`);
  let out = '';
  for (let i = 0; i < rows; i++) {
    let line = '';
    for (let j = 0; j < features; j++) {
      // Box-Muller, one value per pair of draws (simple; speed of generation does not matter).
      const u = Math.max(random(), 1e-300);
      const v = random();
      line += `${(2 * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v)).toFixed(4)},`;
    }
    line += `c${Math.floor(random() * 3)}\n`;
    out += line;
    if (out.length > 1 << 20) {
      writeSync(fd, out);
      out = '';
    }
  }
  writeSync(fd, out);
  closeSync(fd);
}

const GROVE_CHILD = `
const [entry, file, float32] = process.argv.slice(1);
const grove = await import(entry);
const c0 = process.cpuUsage();
const t0 = performance.now();
const d = await grove.readDataset(file, { float32: float32 === '1' });
const ms = performance.now() - t0;
const c = process.cpuUsage(c0);
console.log(JSON.stringify({ ms, cpuMs: (c.user + c.system) / 1000, maxRssKB: process.resourceUsage().maxRSS, rows: d.nRows, features: d.features.length }));
`;

const OLD_CHILD = `
const [entry, encodeEntry, file, float32] = process.argv.slice(1);
const { createRequire } = await import('node:module');
const { readFileSync } = await import('node:fs');
const require = createRequire(entry);
const { parse } = await import(require.resolve('csv-parse/sync'));
const { encodeTable } = await import(encodeEntry);
const c0 = process.cpuUsage();
const t0 = performance.now();
const text = readFileSync(file, 'utf8');
const records = parse(text, { bom: true, delimiter: ',', record_delimiter: ['\\r\\n', '\\n', '\\r'], relax_column_count: true, skip_empty_lines: true, trim: false });
const header = records[0].map((s) => s.trim());
const d = encodeTable(header, records.slice(1), { float32: float32 === '1' });
const ms = performance.now() - t0;
const c = process.cpuUsage(c0);
console.log(JSON.stringify({ ms, cpuMs: (c.user + c.system) / 1000, maxRssKB: process.resourceUsage().maxRSS, rows: d.nRows, features: d.features.length }));
`;

const PANDAS_CHILD = `
import sys, time, resource, json
import pandas as pd
c0 = time.process_time()
t0 = time.perf_counter()
df = pd.read_csv(sys.argv[1], dtype={'class': 'category'})
ms = (time.perf_counter() - t0) * 1000
cpu_ms = (time.process_time() - c0) * 1000
print(json.dumps({"ms": ms, "cpuMs": cpu_ms, "maxRssKB": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, "rows": len(df), "features": df.shape[1] - 1, "version": pd.__version__}))
`;

function runChild(cmd, argv) {
  const r = spawnSync(cmd, argv, { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (r.status !== 0) throw new Error(`${cmd} failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

const entry = join(ROOT, 'dist', 'node.js');
if (!existsSync(entry)) {
  console.error('bench/read-csv.mjs: dist/node.js not found: run `npm run build` first');
  process.exit(1);
}
mkdirSync(dir, { recursive: true });
const file = join(dir, `read-${rows}x${features}.csv`);
if (!existsSync(file)) {
  console.error(`generating ${file} ...`);
  generate(file);
}
const mb = statSync(file).size / 1e6;
const f32 = float32 ? '1' : '0';
const systems = {
  grove: () => runChild(process.execPath, ['--input-type=module', '-e', GROVE_CHILD, `file://${entry}`, file, f32]),
  old: () =>
    runChild(process.execPath, [
      '--input-type=module',
      '-e',
      OLD_CHILD,
      entry,
      `file://${join(ROOT, 'dist', 'data', 'encode.js')}`,
      file,
      f32,
    ]),
  pandas: () => runChild(PYTHON, ['-c', PANDAS_CHILD, file]),
};

const results = {};
for (let r = 0; r < repeats; r++) {
  for (const name of readers) {
    if (name === 'old' && r > 0) continue; // slow; once is enough for reference
    const res = systems[name]();
    (results[name] ??= []).push(res);
    console.error(
      `${name} #${r + 1}: ${(res.ms / 1000).toFixed(2)} s, peak RSS ${(res.maxRssKB / 1024).toFixed(0)} MB`,
    );
  }
}
const best = (name) => results[name].reduce((a, b) => (b.ms < a.ms ? b : a));
const bestCpu = (name) => Math.min(...results[name].map((x) => x.cpuMs));
const peak = (name) => Math.max(...results[name].map((x) => x.maxRssKB));
let commit = '';
try {
  commit = execFileSync('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
} catch {}
console.log(
  `\n${rows} rows x ${features} numeric + class, ${mb.toFixed(0)} MB${float32 ? ', grove --float32' : ''}; grove ${commit}; best of ${repeats} (old reader: 1 run)`,
);
console.log(
  `load average ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
console.log('| reader | read time (wall) | / pandas | CPU time | / pandas | peak RSS | / pandas |');
console.log('|---|--:|--:|--:|--:|--:|--:|');
const p = results.pandas ? best('pandas') : undefined;
for (const name of readers) {
  const b = best(name);
  const label =
    name === 'pandas'
      ? `pandas ${b.version} read_csv`
      : name === 'old'
        ? 'grove, previous reader'
        : 'grove readDataset';
  const tr = p ? (b.ms / p.ms).toFixed(2) : '–';
  const cr = p ? (bestCpu(name) / bestCpu('pandas')).toFixed(2) : '–';
  const mr = p ? (peak(name) / peak('pandas')).toFixed(2) : '–';
  console.log(
    `| ${label} | ${(b.ms / 1000).toFixed(2)} s | ${tr} | ${(bestCpu(name) / 1000).toFixed(2)} s | ${cr} | ${(peak(name) / 1024).toFixed(0)} MB | ${mr} |`,
  );
}
if (!args.includes('--keep')) rmSync(file);
