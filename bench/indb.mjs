#!/usr/bin/env node
// In-database training (issue 17): `grove fit --engine duckdb` against `--engine memory --bins 255`
// on the same generated rows, and PostgreSQL / ClickHouse when their URLs are given.
//
//   node bench/indb.mjs [--rows 1000000] [--features 20] [--max-depth 12] [--skip-memory]
//                       [--postgres postgres://user@127.0.0.1:PORT/db] [--clickhouse clickhouse://127.0.0.1:HTTP_PORT/default]
//
// Generates a Parquet file with DuckDB in a temporary directory, removed at the end (and the same
// rows as CSV to load PostgreSQL with psql, ClickHouse over HTTP as RowBinary). Both DuckDB and memory read the
// Parquet file. Prints seconds, grove's peak RSS (/usr/bin/time) and whether the models are
// identical; for each engine the time per level from its progress lines.
import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import { timedSync } from './lib/proc.mjs';

const { values: args } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' },
    features: { type: 'string', default: '20' },
    'max-depth': { type: 'string', default: '10' },
    'skip-memory': { type: 'boolean', default: false },
    postgres: { type: 'string' },
    clickhouse: { type: 'string' },
    // A Parquet file to keep: generated there when absent, reused when present (a 100M-row file
    // takes tens of minutes to make).
    parquet: { type: 'string' },
  },
});
const rows = Number(args.rows);
const d = Number(args.features);
const cli = resolve(import.meta.dirname, '../dist/cli/main.js');
const dir = mkdtempSync(join(tmpdir(), 'grove-bench-indb-'));

/**
 * Create `table` on the ClickHouse server of `url` and send it the CSV file's rows over HTTP (no
 * client binary) as RowBinary: each double's 8 bytes as JavaScript parses the CSV text (exactly,
 * as DuckDB and PostgreSQL do). ClickHouse 18.16's own CSV parser reads some decimals 1 ulp off
 * (`3.804` as 3.8040000000000003), which moves a threshold's last digits.
 */
async function loadClickHouse(url, table, csv) {
  const u = new URL(url);
  const http = `http://${u.hostname}:${u.port || 8123}/`;
  const run = async (query, body) => {
    const r = await fetch(`${http}?query=${encodeURIComponent(query)}`, { method: 'POST', body });
    return r.ok ? null : await r.text();
  };
  const columns = [...Array(d).keys()].map((j) => `x${j} Float64`).join(', ');
  const failed =
    (await run(`DROP TABLE IF EXISTS ${table}`)) ??
    (await run(`CREATE TABLE ${table} (${columns}, class String) ENGINE = Log`));
  if (failed) return { status: 1, stderr: failed };
  const lines = createInterface({ input: createReadStream(csv), crlfDelay: Infinity });
  const batch = 100_000;
  let chunks = [];
  let n = -1; // the header line
  const send = async () => {
    const error = await run(`INSERT INTO ${table} FORMAT RowBinary`, Buffer.concat(chunks));
    chunks = [];
    return error;
  };
  for await (const line of lines) {
    if (n++ < 0 || line === '') continue;
    // A plain split: the generated file has no quoted cells (not a CSV reader for other files).
    const cells = line.split(',');
    const label = Buffer.from(cells[d]);
    if (label.length >= 128)
      return { status: 1, stderr: `a class label of ${label.length} bytes (RowBinary: < 128 here)` };
    const row = Buffer.alloc(8 * d + 1 + label.length);
    for (let j = 0; j < d; j++) row.writeDoubleLE(Number(cells[j]), 8 * j);
    row[8 * d] = label.length; // a LEB128 length of one byte: labels are shorter than 128 bytes (above)
    label.copy(row, 8 * d + 1);
    chunks.push(row);
    if (chunks.length === batch) {
      const error = await send();
      if (error) return { status: 1, stderr: error };
    }
  }
  const error = chunks.length ? await send() : null;
  return error ? { status: 1, stderr: error } : { status: 0 };
}

/** One table row of `results` (the ratio against the DuckDB run). */
function tableRow(name, r, duck) {
  const per = r.levels.map((l, i) => (l.seconds - (i ? r.levels[i - 1].seconds : 0)).toFixed(1)).join(' ');
  const before = r.levels.length ? (r.seconds - r.levels.at(-1).seconds).toFixed(1) : '—';
  const ratio = (r.seconds / duck.seconds).toFixed(2);
  return `| ${name} | ${rows} | ${r.seconds.toFixed(1)} | ${r.rss.toFixed(0)} | ${ratio} | ${before} | ${per || '—'} |`;
}

/** Run grove with /usr/bin/time: seconds, peak RSS in MB, stderr lines. */
function grove(argv) {
  const r = timedSync(process.execPath, [cli, ...argv]);
  const seconds = r.wall;
  const rss = r.rssBytes / 2 ** 20;
  const levels = [...r.stderr.matchAll(/level (\d+): (\d+) open nodes, (\d+) rows, ([\d.]+) s/g)].map((m) => ({
    level: Number(m[1]),
    open: Number(m[2]),
    seconds: Number(m[4]),
  }));
  return { seconds, rss, levels };
}

try {
  const parquet = args.parquet ? resolve(args.parquet) : join(dir, 'data.parquet');
  const csv = join(dir, 'data.csv');
  const inst = await DuckDBInstance.create(':memory:', { memory_limit: '2GB' });
  const conn = await inst.connect();
  // Deterministic features from a hash of (row, column); the class depends on three of them, with noise.
  const cols = Array.from({ length: d }, (_, j) => `round((hash(i * ${d} + ${j}) % 1000000) / 1000.0, 3) AS x${j}`);
  const t0 = Date.now();
  const reuse = args.parquet !== undefined && existsSync(parquet);
  // One streaming COPY (no table of the rows in DuckDB's memory: 100M rows would not fit).
  const g = `SELECT ${cols.join(', ')}, hash(i * 7919) % 10 AS noise FROM range(${rows}) t(i)`;
  if (!reuse)
    await conn.run(
      `COPY (SELECT * EXCLUDE (noise), CASE WHEN noise = 0 THEN ['a', 'b', 'c'][CAST(1 + hash(x0) % 3 AS BIGINT)] ` +
        `WHEN x0 + x1 < 900 THEN 'a' WHEN x2 < 400 THEN 'b' ELSE 'c' END AS class FROM (${g}) AS g) TO '${parquet}' (FORMAT parquet)`,
    );
  if (args.postgres || args.clickhouse) await conn.run(`COPY (SELECT * FROM '${parquet}') TO '${csv}' (HEADER)`);
  conn.closeSync();
  inst.closeSync();
  if (reuse) console.log(`reusing ${parquet}: its rows are not checked against --rows/--features`);
  else console.log(`generated ${rows} rows × ${d} features in ${((Date.now() - t0) / 1000).toFixed(1)} s (${dir})`);

  const depth = ['--max-depth', args['max-depth'], '--prune', 'none'];
  const results = [];
  const duck = grove(['fit', parquet, '--engine', 'duckdb', ...depth, '--out', join(dir, 'duckdb.json')]);
  results.push(['duckdb (parquet)', duck]);
  // Each engine's row as soon as it is done, in case a later one does not finish.
  console.log(tableRow('duckdb (parquet)', duck, duck));
  if (!args['skip-memory']) {
    const mem = grove(['fit', parquet, '--bins', '255', ...depth, '--out', join(dir, 'memory.json')]);
    results.push(['memory --bins 255 (parquet)', mem]);
    console.log(tableRow('memory --bins 255 (parquet)', mem, duck));
    const same = readFileSync(join(dir, 'duckdb.json'), 'utf8') === readFileSync(join(dir, 'memory.json'), 'utf8');
    console.log(`models identical (duckdb vs memory): ${same}`);
  }
  for (const [name, url] of [
    ['postgres', args.postgres],
    ['clickhouse', args.clickhouse],
  ]) {
    if (!url) continue;
    // The engine's own copy of the rows: loaded through DuckDB's CSV writer and the server's bulk path.
    const table = 'grove_bench';
    const load =
      name === 'postgres'
        ? spawnSync(
            'psql',
            [
              url,
              '-c',
              `DROP TABLE IF EXISTS ${table}`,
              '-c',
              `CREATE TABLE ${table} (${[...Array(d).keys()].map((j) => `x${j} float8`).join(', ')}, class text)`,
              '-c',
              `\\copy ${table} FROM '${csv}' CSV HEADER`,
            ],
            { encoding: 'utf8' },
          )
        : await loadClickHouse(url, table, csv);
    if (load.status !== 0) throw new Error(`loading ${name}: ${load.stderr}`);
    results.push([name, grove(['fit', url, '--table', table, ...depth, '--out', join(dir, `${name}.json`)])]);
    console.log(tableRow(name, results.at(-1)[1], duck));
    const same = readFileSync(join(dir, 'duckdb.json'), 'utf8') === readFileSync(join(dir, `${name}.json`), 'utf8');
    console.log(`models identical (duckdb vs ${name}): ${same}`);
  }
  // Before growth: start, schema, bins (and the class weights' counts): the process's seconds less growth's.
  console.log(
    '\n| engine | rows | seconds | peak RSS (MB) | ratio to duckdb | before level 0 (s) | seconds per level |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---|');
  for (const [name, r] of results) console.log(tableRow(name, r, duck));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
