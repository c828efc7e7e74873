/**
 * Shared pieces of the throwaway database servers the tests start: free loopback ports, waiting
 * for a server to answer, and running a command as a non-root user (PostgreSQL refuses root).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';

/** A running throwaway server: where to reach it and how to stop it (and remove its files). */
export interface ServerHandle {
  /** Connection URL (`postgres://…` or `http://…`). */
  url: string;
  /** Stop the server and remove its temporary directory; safe to call twice. */
  stop: () => Promise<void>;
}

/** A free TCP port on 127.0.0.1 (the OS picks it; the caller binds it soon after). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Poll `ready` every 100 ms until it returns true; throw when `failed` names a reason or `timeoutMs` passes. */
export async function waitUntil(
  ready: () => Promise<boolean>,
  timeoutMs: number,
  what: string,
  failed: () => string | undefined = () => undefined,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const failure = failed();
    if (failure) throw new Error(`${what}: ${failure}`);
    if (await ready().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not become ready within ${timeoutMs} ms`);
}

/** True when running as root (uid 0). */
export const isRoot = (): boolean => typeof process.getuid === 'function' && process.getuid() === 0;

/** The uid/gid of a system user, or undefined when it does not exist. */
export function userIds(name: string): { uid: number; gid: number } | undefined {
  const uid = spawnSync('id', ['-u', name], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', name], { encoding: 'utf8' });
  if (uid.status !== 0 || gid.status !== 0) return undefined;
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** The first path in `candidates` that exists. */
export function firstExisting(candidates: readonly string[]): string | undefined {
  return candidates.find((p) => existsSync(p));
}

const exitHooks = new Set<() => void>();
let hooked = false;

/**
 * Run `hook` (synchronous: kill the server, remove its directory) if the process exits before the
 * server is stopped — a crashed or interrupted test run leaves no server behind. Returns the unregister.
 */
export function onExit(hook: () => void): () => void {
  if (!hooked) {
    hooked = true;
    process.once('exit', () => {
      for (const h of exitHooks) h();
    });
  }
  exitHooks.add(hook);
  return () => exitHooks.delete(hook);
}
