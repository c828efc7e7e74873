/**
 * SyncTeam's pool: a team ended with `release` leaves its idle workers for the next team of the
 * same script (after the farewell request, which they do not answer); `terminate` ends them.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SyncTeam } from '../../src/learn/threads/sync-team.js';

type Request = { op: 'ask'; n: number } | { op: 'bye' };
type Reply = { op: 'id'; thread: number; n: number; byes: number };

const dir = mkdtempSync(join(tmpdir(), 'grove-sync-team-'));
const script = join(dir, 'echo-worker.mjs');
writeFileSync(
  script,
  `import { threadId, workerData } from 'node:worker_threads';
const { port, signal } = workerData;
let byes = 0;
port.on('message', (m) => {
  if (m.op === 'bye') { byes++; return; }
  port.postMessage({ op: 'id', thread: threadId, n: m.n, byes });
  Atomics.add(signal, 0, 1);
  Atomics.notify(signal, 0);
});
`,
);
const url = pathToFileURL(script);
const words = { worker: 'a test worker', instead: 'use one thread' };

function ask(team: SyncTeam<Request, Reply>, n: number): Reply[] {
  for (const m of team.members) team.send(m, { op: 'ask', n });
  return team.members.map((m) => team.waitFor(m));
}

describe('SyncTeam pool', () => {
  it('a released team’s workers serve the next team; terminated ones do not', () => {
    const first = new SyncTeam<Request, Reply>(url, 2, words);
    const a = ask(first, 1);
    expect(a.map((r) => r.n)).toEqual([1, 1]);
    first.release({ op: 'bye' });
    expect(first.members).toEqual([]);
    first.terminate(); // nothing left to end

    const second = new SyncTeam<Request, Reply>(url, 3, words);
    const b = ask(second, 2);
    const reused = b.filter((r) => a.some((x) => x.thread === r.thread));
    expect(reused.length).toBe(2);
    expect(reused.every((r) => r.byes === 1)).toBe(true); // the farewell came first, unanswered
    expect(b.filter((r) => r.byes === 0).length).toBe(1); // one new worker
    second.terminate();

    const third = new SyncTeam<Request, Reply>(url, 2, words);
    const c = ask(third, 3);
    expect(c.some((r) => b.some((x) => x.thread === r.thread))).toBe(false);
    third.terminate();
  });
});
