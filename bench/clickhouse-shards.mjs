#!/usr/bin/env node
// `grove fit` over a ClickHouse Distributed table of two local shards (docs/in-database.md, "On a
// real ClickHouse cluster"): where the work runs.
//
//   node bench/clickhouse-shards.mjs [--rows 1000000] [--features 20] [--max-depth 10] [--cli dist/cli/main.js]
//
// Starts two throwaway clickhouse-server processes (127.0.0.1, free ports, a temporary directory
// removed at the end) declared as the cluster `grove`, deals the generated rows alternately into a
// `Log` table `part` on each (made by ClickHouse's SQL: a hash of the row and column, the class a
// function of three features with 10 % noise, as bench/indb.mjs makes them), and fits over
// `Distributed(grove, default, part)` through the first server (the initiator). Prints the wall
// seconds, grove's peak RSS, each server's CPU seconds (/proc/PID/stat), per level seconds, and
// what the second shard answered grove's queries with (system.query_log: rows read and sent).
// `--cli` runs another build (e.g. an older commit's dist/) on the same servers and rows.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { timedSync } from './lib/proc.mjs';

const { values: args } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' },
    features: { type: 'string', default: '20' },
    'max-depth': { type: 'string', default: '10' },
    cli: { type: 'string', default: resolve(import.meta.dirname, '../dist/cli/main.js') },
  },
});
const rows = Number(args.rows);
const d = Number(args.features);
const root = mkdtempSync(join(tmpdir(), 'grove-bench-shards-'));
const children = [];

const freePort = () =>
  new Promise((done) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => done(port));
    });
  });
const cpuSeconds = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks (100 a second)
};
async function sql(port, query) {
  // A kept-alive socket the server has closed (its keep_alive_timeout is 3 s) fails once: retry.
  const post = () => fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: query });
  const r = await post().catch(post);
  const text = await r.text();
  if (!r.ok) throw new Error(`ClickHouse on ${port}: ${text}`);
  return text;
}

try {
  const ports = [];
  for (let i = 0; i < 2; i++) ports.push({ http: await freePort(), tcp: await freePort(), inter: await freePort() });
  const shards = ports
    .map((p) => `<shard><replica><host>127.0.0.1</host><port>${p.tcp}</port></replica></shard>`)
    .join('');
  for (const [i, p] of ports.entries()) {
    const dir = join(root, `shard${i}`);
    for (const sub of ['data', 'tmp', 'user_files', 'format_schemas']) mkdirSync(join(dir, sub), { recursive: true });
    writeFileSync(
      join(dir, 'users.xml'),
      '<?xml version="1.0"?><yandex><profiles><default><log_queries>1</log_queries></default></profiles>' +
        '<users><default><password></password><networks><ip>127.0.0.1</ip></networks><profile>default</profile>' +
        '<quota>default</quota></default></users><quotas><default></default></quotas></yandex>',
    );
    writeFileSync(
      join(dir, 'config.xml'),
      `<?xml version="1.0"?><yandex><logger><level>warning</level><log>${dir}/server.log</log>` +
        `<errorlog>${dir}/error.log</errorlog></logger><listen_host>127.0.0.1</listen_host>` +
        `<http_port>${p.http}</http_port><tcp_port>${p.tcp}</tcp_port><interserver_http_port>${p.inter}</interserver_http_port>` +
        `<path>${dir}/data/</path><tmp_path>${dir}/tmp/</tmp_path><user_files_path>${dir}/user_files/</user_files_path>` +
        `<format_schema_path>${dir}/format_schemas/</format_schema_path><users_config>${dir}/users.xml</users_config>` +
        '<default_profile>default</default_profile><default_database>default</default_database>' +
        `<mark_cache_size>268435456</mark_cache_size><remote_servers><grove>${shards}</grove></remote_servers>` +
        '<query_log><database>system</database><table>query_log</table></query_log></yandex>',
    );
    children.push(
      spawn('/usr/sbin/clickhouse-server', [`--config-file=${join(dir, 'config.xml')}`], { cwd: dir, stdio: 'ignore' }),
    );
  }
  for (const p of ports)
    for (let t = 0; ; t++) {
      if (
        await sql(p.http, 'SELECT 1').then(
          () => true,
          () => false,
        )
      )
        break;
      if (t > 600) throw new Error('a server did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
  const columns = Array.from({ length: d }, (_, j) => `x${j} Float64`).join(', ');
  const values = Array.from(
    { length: d },
    (_, j) => `round((cityHash64(number * ${d} + ${j}) % 1000000) / 1000.0, 3) AS x${j}`,
  ).join(', ');
  const label =
    "multiIf(cityHash64(number * 7919) % 10 = 0, concat('c', toString(cityHash64(x0) % 3)), " +
    "x0 + x1 < 900, 'a', x2 < 400, 'b', 'c')";
  for (const [s, p] of ports.entries()) {
    await sql(p.http, `CREATE TABLE part (${columns}, class String) ENGINE = Log`);
    await sql(
      p.http,
      `INSERT INTO part SELECT ${values}, ${label} FROM (SELECT number * 2 + ${s} AS number FROM numbers(${Math.ceil(rows / 2)})) WHERE number < ${rows}`,
    );
  }
  await sql(ports[0].http, 'CREATE TABLE spread AS part ENGINE = Distributed(grove, default, part)');
  const before = children.map((c) => cpuSeconds(c.pid));
  const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  console.log(`${rows} rows × ${d} features over 2 shards; load average before: ${load()}`);
  const url = `clickhouse://127.0.0.1:${ports[0].http}/default`;
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
  const cpu = children.map((c, i) => cpuSeconds(c.pid) - before[i]);
  const levels = [...run.stderr.matchAll(/level (\d+): .*, ([\d.]+) s/g)].map((m) => Number(m[2]));
  const per = levels.map((s, i) => (s - (i ? levels[i - 1] : 0)).toFixed(1)).join(' ');
  console.log(`wall ${run.wall.toFixed(1)} s, grove peak RSS ${(run.rssBytes / 2 ** 20).toFixed(0)} MB`);
  console.log(`server CPU: initiator (shard 1) ${cpu[0].toFixed(1)} s, shard 2 ${cpu[1].toFixed(1)} s`);
  console.log(`seconds per level: ${per}`);
  await sql(ports[1].http, 'SYSTEM FLUSH LOGS');
  // query_log keeps a query's first 100,000 characters: a level query is told by its start (the walk).
  const answered = await sql(
    ports[1].http,
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
  for (const c of children) c.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 2000));
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(root, { recursive: true, force: true });
}
