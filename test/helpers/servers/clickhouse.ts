/**
 * Throwaway ClickHouse servers for tests: `clickhouse-server` (Debian's, or the single `clickhouse`
 * binary's `server` mode) with a generated config in a temporary directory — free 127.0.0.1 HTTP,
 * TCP and interserver ports, data/tmp/user_files/log paths inside the directory, user `default`
 * without a password. `shards: n` starts n servers and declares them in every server's config as the
 * cluster `grove` (one shard per server) for Distributed tables; `url` is the first server's HTTP
 * interface, `urls` all of them. `stop()` stops every server and removes the directory.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstExisting, freePort, onExit, type ServerHandle, waitUntil } from './common.js';

const SERVER_BINARIES = ['/usr/sbin/clickhouse-server', '/usr/bin/clickhouse-server', '/usr/bin/clickhouse'];

/** The ClickHouse server command (program and leading args), or undefined when not installed. */
export function clickhouseCommand(): string[] | undefined {
  const bin = process.env.GROVE_CLICKHOUSE_BIN ?? firstExisting(SERVER_BINARIES);
  if (!bin) return undefined;
  return bin.endsWith('/clickhouse') ? [bin, 'server'] : [bin];
}

/** Why ClickHouse tests must skip (binary absent), or undefined when they can run. */
export function clickhouseUnavailable(): string | undefined {
  return clickhouseCommand()
    ? undefined
    : `clickhouse-server not found (looked for ${SERVER_BINARIES.join(', ')}; set GROVE_CLICKHOUSE_BIN)`;
}

/** A running set of ClickHouse servers. */
export interface ClickHouseHandle extends ServerHandle {
  /** HTTP URL of every server (one per shard); `url` is `urls[0]`. */
  urls: string[];
  /** Process id of every server, as `urls` (benchmarks read their CPU time from /proc). */
  pids: number[];
}

interface Ports {
  http: number;
  tcp: number;
  interserver: number;
}

function configXml(dir: string, ports: Ports, cluster: Ports[]): string {
  const shards = cluster
    .map((p) => `<shard><replica><host>127.0.0.1</host><port>${p.tcp}</port></replica></shard>`)
    .join('');
  return `<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>${dir}/server.log</log><errorlog>${dir}/error.log</errorlog><console>0</console></logger>
  <listen_host>127.0.0.1</listen_host>
  <http_port>${ports.http}</http_port>
  <tcp_port>${ports.tcp}</tcp_port>
  <interserver_http_port>${ports.interserver}</interserver_http_port>
  <interserver_http_host>127.0.0.1</interserver_http_host>
  <path>${dir}/data/</path>
  <tmp_path>${dir}/tmp/</tmp_path>
  <user_files_path>${dir}/user_files/</user_files_path>
  <format_schema_path>${dir}/format_schemas/</format_schema_path>
  <users_config>${dir}/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <mark_cache_size>268435456</mark_cache_size>
  <max_concurrent_queries>50</max_concurrent_queries>
  <remote_servers><grove>${shards}</grove></remote_servers>
  <query_log><database>system</database><table>query_log</table></query_log>
</yandex>
`;
}

const usersXml = (logQueries: boolean) => `<?xml version="1.0"?>
<yandex>
  <profiles><default><max_memory_usage>4000000000</max_memory_usage><log_queries>${logQueries ? 1 : 0}</log_queries></default></profiles>
  <users><default><password></password><networks><ip>127.0.0.1</ip><ip>::1</ip></networks>
    <profile>default</profile><quota>default</quota></default></users>
  <quotas><default><interval><duration>3600</duration><queries>0</queries><errors>0</errors>
    <result_rows>0</result_rows><read_rows>0</read_rows><execution_time>0</execution_time></interval></default></quotas>
</yandex>
`;

async function ping(url: string): Promise<boolean> {
  const res = await fetch(`${url}/?query=${encodeURIComponent('SELECT 1')}`);
  return res.ok && (await res.text()).trim() === '1';
}

/**
 * Start `shards` (default 1) throwaway ClickHouse servers; resolve once all answer over HTTP.
 * `logQueries`: every query is logged in `system.query_log` (after `SYSTEM FLUSH LOGS`).
 */
export async function startClickHouse(
  options: { shards?: number; logQueries?: boolean } = {},
): Promise<ClickHouseHandle> {
  const command = clickhouseCommand();
  if (!command) throw new Error(clickhouseUnavailable());
  const count = Math.max(1, options.shards ?? 1);
  const root = mkdtempSync(join(tmpdir(), 'grove-ch-'));
  const children: ChildProcess[] = [];
  const unregister = onExit(() => {
    for (const child of children) child.kill('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  });
  const stop = async (): Promise<void> => {
    unregister();
    await Promise.all(
      children.splice(0).map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
            child.once('exit', () => {
              clearTimeout(kill);
              resolve();
            });
            child.kill('SIGTERM');
          }),
      ),
    );
    rmSync(root, { recursive: true, force: true });
  };
  try {
    const ports: Ports[] = [];
    for (let i = 0; i < count; i++)
      ports.push({ http: await freePort(), tcp: await freePort(), interserver: await freePort() });
    const urls = ports.map((p) => `http://127.0.0.1:${p.http}`);
    for (let i = 0; i < count; i++) {
      const dir = join(root, `shard${i}`);
      for (const sub of ['data', 'tmp', 'user_files', 'format_schemas']) mkdirSync(join(dir, sub), { recursive: true });
      writeFileSync(join(dir, 'users.xml'), usersXml(options.logQueries ?? false));
      writeFileSync(join(dir, 'config.xml'), configXml(dir, ports[i], ports));
      const child = spawn(command[0], [...command.slice(1), `--config-file=${join(dir, 'config.xml')}`], {
        cwd: dir,
        stdio: 'ignore',
      });
      children.push(child);
    }
    await Promise.all(
      urls.map((url, i) =>
        waitUntil(
          () => ping(url),
          60_000,
          `ClickHouse on ${url}`,
          () =>
            children[i].exitCode !== null ? `clickhouse-server exited (see ${root}/shard${i}/error.log)` : undefined,
        ),
      ),
    );
    return { url: urls[0], urls, pids: children.map((child) => child.pid ?? 0), stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
