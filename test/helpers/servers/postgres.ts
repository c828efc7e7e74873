/**
 * A throwaway PostgreSQL server for tests: `initdb` in a temporary directory, `pg_ctl start` on a
 * free 127.0.0.1 port (Unix socket in the same directory), trust authentication for user `grove`.
 * When the tests run as root the cluster belongs to the `postgres` system user (PostgreSQL refuses
 * to run as root). `stop()` stops the server and removes the directory.
 *
 * Reuse: `const pg = await startPostgres(); … await pg.stop();` — `pg.url` is a `postgres://` URL
 * for `pg` (node-postgres).
 */
import { spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { firstExisting, freePort, isRoot, onExit, type ServerHandle, userIds, waitUntil } from './common.js';

const BIN_DIRS = ['/usr/lib/postgresql/17/bin', '/usr/lib/postgresql/16/bin', '/usr/lib/postgresql/15/bin'];

/** The directory holding `initdb`/`pg_ctl`, or undefined when PostgreSQL is not installed. */
export function postgresBinDir(): string | undefined {
  const fromEnv = process.env.GROVE_PG_BIN;
  if (fromEnv) return firstExisting([join(fromEnv, 'pg_ctl')]) ? fromEnv : undefined;
  const found = firstExisting(BIN_DIRS.map((d) => join(d, 'pg_ctl')));
  return found?.slice(0, -'/pg_ctl'.length);
}

/** Why PostgreSQL tests must skip (binaries absent), or undefined when they can run. */
export function postgresUnavailable(): string | undefined {
  if (!postgresBinDir()) return `PostgreSQL binaries not found (looked in ${BIN_DIRS.join(', ')}; set GROVE_PG_BIN)`;
  if (isRoot() && !userIds('postgres')) return 'running as root and there is no `postgres` user to own the cluster';
  return undefined;
}

/** Run a PostgreSQL binary, as the `postgres` user when we are root; throw with its stderr on failure. */
function run(bin: string, args: string[], owner: { uid: number; gid: number } | undefined): void {
  const r = spawnSync(bin, args, {
    encoding: 'utf8',
    timeout: 60_000,
    ...(owner ? { uid: owner.uid, gid: owner.gid } : {}),
    env: { ...process.env, LC_ALL: 'C', LANG: 'C' },
  });
  if (r.status !== 0) throw new Error(`${bin} ${args.join(' ')} failed: ${r.stderr || r.stdout || r.error}`);
}

/** Start a throwaway PostgreSQL cluster; resolve once it accepts connections. */
export async function startPostgres(): Promise<ServerHandle> {
  const binDir = postgresBinDir();
  if (!binDir) throw new Error(postgresUnavailable());
  const owner = isRoot() ? userIds('postgres') : undefined;
  const dir = mkdtempSync(join(tmpdir(), 'grove-pg-'));
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const data = join(dir, 'data');
  const port = await freePort();
  let started = false;
  const stopNow = (): void => {
    if (started) {
      started = false;
      spawnSync(join(binDir, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop'], {
        timeout: 30_000,
        ...(owner ? { uid: owner.uid, gid: owner.gid } : {}),
      });
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const unregister = onExit(stopNow);
  const stop = async (): Promise<void> => {
    unregister();
    stopNow();
  };
  try {
    run(join(binDir, 'initdb'), ['-D', data, '-U', 'grove', '--auth=trust', '-E', 'UTF8', '--no-sync'], owner);
    started = true;
    const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_stack_depth=2MB`;
    run(join(binDir, 'pg_ctl'), ['-D', data, '-l', join(dir, 'log'), '-o', opts, '-w', 'start'], owner);
    const url = `postgres://grove@127.0.0.1:${port}/postgres`;
    await waitUntil(
      async () => {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        await client.end();
        return true;
      },
      30_000,
      `PostgreSQL on port ${port}`,
    );
    return { url, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
