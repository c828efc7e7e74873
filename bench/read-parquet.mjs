// Reading the same data from Parquet and from CSV with `grove info` (read time, whole process,
// peak RSS), side by side in one run. Target (issue 16): Parquet ≤ 0.3× grove's own CSV read.
//   node bench/read-parquet.mjs [--rows 1000000] [--features 20] [--repeats 3] [--dir /tmp/grove-read-bench] [--keep] [--phases] [--baseline DIR]
// --baseline DIR also times another build's `grove info` on the Parquet file (DIR holds its
// dist/cli/main.js, e.g. a checkout of an older commit built with tsc), in the same rounds.
// --phases also times, in this process: DuckDB alone scanning the file (an aggregate, no rows leave
// DuckDB), DuckDB streaming the rows to JS untouched through the C API bindings its reader uses,
// grove's Parquet read through DuckDB (src/sources/parquet.ts) and through grove's own decoder alone
// (src/data/parquet/, no fallback to DuckDB), both building the Dataset.
// The data are generated with DuckDB in --dir (never committed): deterministic values from
// hash(row, column), 2 classes; the CSV and the Parquet file hold the same table.
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import { timedSync } from './lib/proc.mjs';

const { values: opt } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' },
    features: { type: 'string', default: '20' },
    repeats: { type: 'string', default: '3' },
    dir: { type: 'string', default: '/tmp/grove-read-bench' },
    keep: { type: 'boolean', default: false },
    phases: { type: 'boolean', default: false },
    baseline: { type: 'string' },
  },
});
const rows = Number(opt.rows);
const nf = Number(opt.features);
const repeats = Number(opt.repeats);
const cli = path.resolve('dist/cli/main.js');
if (!existsSync(cli)) throw new Error('build first: npx tsc -p tsconfig.json');
const baselineCli = opt.baseline && path.resolve(opt.baseline, 'dist/cli/main.js');
if (baselineCli && !existsSync(baselineCli)) throw new Error(`no ${baselineCli}: build the baseline first`);
mkdirSync(opt.dir, { recursive: true });
const base = path.join(opt.dir, `read-${rows}x${nf}`);
const files = { csv: `${base}.csv`, parquet: `${base}.parquet`, baseline: `${base}.parquet` };
const clis = { csv: cli, parquet: cli, baseline: baselineCli };
const kinds = baselineCli ? ['parquet', 'baseline', 'csv'] : ['parquet', 'csv'];

if (!existsSync(files.csv) || !existsSync(files.parquet)) {
  const instance = await DuckDBInstance.create(':memory:');
  const db = await instance.connect();
  const cols = Array.from(
    { length: nf },
    (_, j) => `round(((hash(i * ${nf} + ${j}) % 2000000)::DOUBLE / 1000000) - 1, 6) AS f${j}`,
  );
  await db.run(`CREATE TABLE t AS SELECT ${cols.join(', ')} FROM range(${rows}) r(i)`);
  await db.run(`ALTER TABLE t ADD COLUMN class VARCHAR`);
  await db.run(`UPDATE t SET class = CASE WHEN f0 + f1 > 0 THEN 'pos' ELSE 'neg' END`);
  await db.run(`COPY t TO '${files.csv}' (FORMAT csv, HEADER true)`);
  await db.run(`COPY t TO '${files.parquet}' (FORMAT parquet)`);
  db.closeSync();
  instance.closeSync();
}

/** One `grove info --json` run: its own read time, the whole process's wall time, peak RSS (GNU time). */
function infoRun(file, main) {
  const r = timedSync(process.execPath, [main, 'info', file, '--json', '--no-progress']);
  const info = JSON.parse(r.stdout);
  return { read: info.readSeconds, wall: r.wall, rssMb: r.rssBytes / 2 ** 20, rows: info.rows };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const results = {};
for (const kind of kinds) results[kind] = [];
for (let k = 0; k < repeats; k++)
  for (const kind of kinds) {
    const r = infoRun(files[kind], clis[kind]);
    results[kind].push(r);
    process.stderr.write(
      `${kind} repeat ${k + 1}: read ${r.read.toFixed(2)} s, process ${r.wall.toFixed(2)} s, peak RSS ${r.rssMb.toFixed(0)} MB\n`,
    );
  }

const mb = (f) => (statSync(f).size / 2 ** 20).toFixed(1);
console.log(
  `data: ${rows} rows x ${nf} numeric features + class; CSV ${mb(files.csv)} MB, Parquet ${mb(files.parquet)} MB`,
);
console.log(`| source | read (median of ${repeats}) | whole process | peak RSS |`);
console.log('|---|---|---|---|');
for (const kind of ['csv', ...kinds.slice(0, -1)]) {
  const rs = results[kind];
  console.log(
    `| ${kind} | ${median(rs.map((r) => r.read)).toFixed(2)} s | ${median(rs.map((r) => r.wall)).toFixed(2)} s | ${median(rs.map((r) => r.rssMb)).toFixed(0)} MB |`,
  );
}
const ratioOf = (kind, key) => median(results[kind].map((r) => r[key])) / median(results.csv.map((r) => r[key]));
const ratio = ratioOf('parquet', 'read');
console.log(
  `Parquet / CSV read time: ${ratio.toFixed(3)} (target <= 0.3: ${ratio <= 0.3 ? 'PASS' : 'FAIL'}); whole process ${ratioOf('parquet', 'wall').toFixed(3)}`,
);
if (baselineCli)
  console.log(
    `baseline Parquet / CSV read time: ${ratioOf('baseline', 'read').toFixed(3)}; whole process ${ratioOf('baseline', 'wall').toFixed(3)}`,
  );
if (opt.phases) await phases();
if (!opt.keep) rmSync(opt.dir, { recursive: true, force: true });

/** In-process times of DuckDB's scan, DuckDB's stream to JS, and grove's whole Parquet read. */
async function phases() {
  const { readParquet } = await import(path.resolve('dist/sources/parquet.js'));
  const { fileSource, nodeCodecs } = await import(path.resolve('dist/sources/parquet-file.js'));
  const { readParquetSource } = await import(path.resolve('dist/data/parquet/read.js'));
  // The decoder alone: readParquetFile would fall back to DuckDB on a file the decoder leaves to it.
  const decode = async (file) => {
    const handle = await open(file, 'r');
    try {
      return await readParquetSource(fileSource(handle, statSync(file).size, file), {
        source: file,
        codecs: nodeCodecs(),
      });
    } finally {
      await handle.close();
    }
  };
  const { default: bindings } = await import('@duckdb/node-bindings');
  const instance = await DuckDBInstance.create(':memory:');
  const db = await instance.connect();
  const raw = await bindings.connect(instance.db);
  const from = `read_parquet('${files.parquet}')`;
  const sums = Array.from({ length: nf }, (_, j) => `sum(f${j})`).join(' + ');
  const times = { scan: [], stream: [], grove: [], decoder: [] };
  const timed = async (key, work) => {
    const t0 = performance.now();
    await work();
    times[key].push((performance.now() - t0) / 1000);
  };
  for (let k = 0; k < repeats; k++) {
    await timed('scan', () => db.runAndReadAll(`SELECT ${sums}, count(class) FROM ${from}`));
    await timed('stream', async () => {
      // Through the C API bindings, as grove reads: one fetch_chunk per 2,048 rows, nothing copied.
      const result = await bindings.execute_prepared_streaming(await bindings.prepare(raw, `SELECT * FROM ${from}`));
      for (;;) {
        const chunk = await bindings.fetch_chunk(result);
        if (!chunk || bindings.data_chunk_get_size(chunk) === 0) break;
      }
    });
    await timed('grove', () => readParquet(files.parquet));
    await timed('decoder', () => decode(files.parquet));
  }
  bindings.disconnect_sync(raw);
  db.closeSync();
  instance.closeSync();
  console.log(
    `phases (median of ${repeats}): DuckDB scan ${median(times.scan).toFixed(2)} s, DuckDB stream to JS ${median(times.stream).toFixed(2)} s, grove through DuckDB ${median(times.grove).toFixed(2)} s, grove's decoder ${median(times.decoder).toFixed(2)} s`,
  );
}
