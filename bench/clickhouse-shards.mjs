#!/usr/bin/env node
// `grove fit` over a ClickHouse Distributed table of two local shards (docs/in-database.md, "On a
// real ClickHouse cluster"): where the work runs.
//
//   npm run build && npx vite-node bench/clickhouse-shards.mjs -- [--rows 1000000] [--features 20] [--max-depth 10] [--cli dist/cli/main.js]
//
// (vite-node, because the servers are started by the tests' TypeScript helper.) Starts two
// throwaway clickhouse-server processes with test/helpers/servers/clickhouse.ts (127.0.0.1, free
// ports, a temporary directory removed at the end or on Ctrl-C; `GROVE_CLICKHOUSE_BIN` picks the
// binary) declared as the cluster `grove`, deals the generated rows alternately into a
// `Log` table `part` on each (made by ClickHouse's SQL: a hash of the row and column, the class a
// function of three features with 10 % noise, as bench/indb.mjs makes them), and fits over
// `Distributed(grove, default, part)` through the first server (the initiator). Prints the wall
// seconds, grove's peak RSS, each server's CPU seconds (/proc/PID/stat), per level seconds, and
// what the second shard answered grove's queries with (system.query_log: rows read and sent).
// `--cli` runs another build (e.g. an older commit's dist/) on the same servers and rows.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { clickhouseUnavailable, startClickHouse } from '../test/helpers/servers/clickhouse.ts';
import { timedSync } from './lib/proc.mjs';

const { values: args } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' },
    features: { type: 'string', default: '20' },
    'max-depth': { type: 'string', default: '10' },
    cli: { type: 'string', default: resolve(import.meta.dirname, '../dist/cli/main.js') },
  },
  allowPositionals: true,
});
const rows = Number(args.rows);
const d = Number(args.features);
const why = clickhouseUnavailable();
if (why) {
  console.error(`bench/clickhouse-shards: ${why}`);
  process.exit(2);
}
// Ctrl-C: stop the servers (once: the run's `finally` may be stopping them already), then exit;
// the exit hooks remove the directories.
let servers;
let stopping;
const stopServers = () => (stopping ??= servers ? servers.stop() : Promise.resolve());
process.once('SIGINT', () => void stopServers().finally(() => process.exit(130)));

const cpuSeconds = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks (100 a second)
};
async function sql(url, query) {
  // A kept-alive socket the server has closed (its keep_alive_timeout is 3 s) fails once: retry.
  const post = () => fetch(`${url}/`, { method: 'POST', body: query });
  const r = await post().catch(post);
  const text = await r.text();
  if (!r.ok) throw new Error(`ClickHouse on ${url}: ${text}`);
  return text;
}

// The model's folder goes at exit, Ctrl-C included (the servers' with them: the helper's exit hook).
const root = mkdtempSync(join(tmpdir(), 'grove-bench-shards-'));
process.once('exit', () => rmSync(root, { recursive: true, force: true }));
servers = await startClickHouse({ shards: 2, logQueries: true });
const { urls, pids } = servers;
try {
  const columns = Array.from({ length: d }, (_, j) => `x${j} Float64`).join(', ');
  const values = Array.from(
    { length: d },
    (_, j) => `round((cityHash64(number * ${d} + ${j}) % 1000000) / 1000.0, 3) AS x${j}`,
  ).join(', ');
  const label =
    "multiIf(cityHash64(number * 7919) % 10 = 0, concat('c', toString(cityHash64(x0) % 3)), " +
    "x0 + x1 < 900, 'a', x2 < 400, 'b', 'c')";
  for (const [s, url] of urls.entries()) {
    await sql(url, `CREATE TABLE part (${columns}, class String) ENGINE = Log`);
    await sql(
      url,
      `INSERT INTO part SELECT ${values}, ${label} FROM (SELECT number * 2 + ${s} AS number FROM numbers(${Math.ceil(rows / 2)})) WHERE number < ${rows}`,
    );
  }
  await sql(urls[0], 'CREATE TABLE spread AS part ENGINE = Distributed(grove, default, part)');
  const before = pids.map(cpuSeconds);
  const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  console.log(`${rows} rows × ${d} features over 2 shards; load average before: ${load()}`);
  const url = `clickhouse://${urls[0].replace(/^http:\/\//, '')}/default`;
  const out = join(root, 'model.json');
  const run = timedSync(process.execPath, [
    resolve(args.cli),
    'fit',
    url,
    '--table',
    'spread',
    '--max-depth',
    args['max-depth'],
    '--prune',
    'none',
    '--out',
    out,
  ]);
  const cpu = pids.map((pid, i) => cpuSeconds(pid) - before[i]);
  const levels = [...run.stderr.matchAll(/level (\d+): .*, ([\d.]+) s/g)].map((m) => Number(m[2]));
  const per = levels.map((s, i) => (s - (i ? levels[i - 1] : 0)).toFixed(1)).join(' ');
  console.log(`wall ${run.wall.toFixed(1)} s, grove peak RSS ${(run.rssBytes / 2 ** 20).toFixed(0)} MB`);
  console.log(`server CPU: initiator (shard 1) ${cpu[0].toFixed(1)} s, shard 2 ${cpu[1].toFixed(1)} s`);
  console.log(`seconds per level: ${per}`);
  await sql(urls[1], 'SYSTEM FLUSH LOGS');
  // query_log keeps a query's first 100,000 characters: a level query is told by its start (the walk).
  const answered = await sql(
    urls[1],
    "SELECT multiIf(query LIKE 'SELECT arrayMap(grove_cs -> %' OR query LIKE 'SELECT 0 AS grove_node,%', " +
      "'level counts', query LIKE '%GROUP BY%', 'other GROUP BY', " +
      "'no GROUP BY') AS kind, count(), sum(read_rows), sum(result_rows) FROM system.query_log WHERE type = 2 " +
      "AND is_initial_query = 0 AND initial_query_id LIKE 'grove-%' GROUP BY kind ORDER BY kind FORMAT TSV",
  );
  for (const line of answered.trim().split('\n')) {
    const [kind, n, read, sent] = line.split('\t');
    console.log(`shard 2, ${kind}: ${n} queries read ${read} rows, sent ${sent}`);
  }
  const model = createHash('sha256').update(readFileSync(out)).digest('hex').slice(0, 16);
  console.log(`load average after: ${load()}; model sha256 ${model}…`);
} finally {
  await stopServers();
}
