/**
 * Worker threads that the calling thread waits for synchronously (Atomics.wait on a shared
 * signal, receiveMessageOnPort), so that a parallel job stays a plain function: the forest grower
 * and TreeSHAP hand out work this way. Each worker gets `{ port, signal, tid }` as its workerData,
 * stores its thread id in `tid`, and after each reply adds 1 to `signal` and notifies it.
 *
 * A team that ends with `release` leaves its workers in a pool for the next team of the same
 * script: a loop of small jobs (forests in cross-validation, one fit after another) then pays for
 * starting a worker and warming up its compiled code once. Pooled workers are unref'd, so they
 * never keep the process alive.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  MessageChannel,
  type MessagePort,
  type ResourceLimits,
  receiveMessageOnPort,
  Worker,
} from 'node:worker_threads';
import { GroveError } from '../../core/errors.js';
import { threadAlive } from './thread-liveness.js';

/** Waiting longer than this for a reply makes the calling thread check that the workers still run. */
const CHECK_MS = 1000;

/** The worker script exists (it does in the built package; not when the sources run untranspiled). */
export function workerScriptAvailable(url: URL): boolean {
  return url.protocol === 'file:' && existsSync(fileURLToPath(url));
}

/** One worker of a {@link SyncTeam}. */
export interface TeamMember {
  readonly worker: Worker;
  readonly port: MessagePort;
  readonly tid: Int32Array;
  /** Waiting for a reply. */
  busy: boolean;
}

/** How a team names itself in its errors: `a forest worker`, and what to do instead of threads. */
export interface TeamWords {
  worker: string;
  instead: string;
}

/** Idle workers by script, left by teams that ended with `release`. */
const pool = new Map<string, TeamMember[]>();
/** Bumped by every worker after each reply (one for all teams: pooled workers change teams). */
const signal = new Int32Array(new SharedArrayBuffer(4));

/** Up to `count` idle workers of `script` that are still running, taken from the pool. */
function pooled(script: URL, count: number): TeamMember[] {
  const idle = pool.get(script.href) ?? [];
  const alive = idle.filter((m) => threadAlive(Atomics.load(m.tid, 0)));
  const out = alive.splice(0, count);
  pool.set(script.href, alive);
  return out;
}

function start(script: URL, resourceLimits?: ResourceLimits): TeamMember {
  const { port1, port2 } = new MessageChannel();
  const tid = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(script, {
    workerData: { port: port2, signal, tid },
    transferList: [port2],
    ...(resourceLimits ? { resourceLimits } : {}),
  });
  worker.unref();
  const member: TeamMember = { worker, port: port1, tid, busy: false };
  // A worker that dies is never reused, and its late 'error' event must not end the process (the
  // job that used it has already thrown; see `sleep`).
  worker.on('error', () => {});
  worker.on('exit', () => {
    const idle = pool.get(script.href);
    const i = idle?.indexOf(member) ?? -1;
    if (i >= 0) idle!.splice(i, 1);
  });
  return member;
}

export class SyncTeam<Request, Reply extends { op: string }> {
  readonly members: TeamMember[] = [];

  /**
   * `count` workers of `script`, idle ones from the pool first; the caller ends the team with
   * {@link release} or {@link terminate} (in a `finally`: terminate after release ends nothing).
   * With `resourceLimits` (V8 heap caps) every worker is new (pooled ones may have other limits);
   * end such a team with {@link terminate}, so that no capped worker joins the pool.
   */
  constructor(
    private readonly script: URL,
    count: number,
    private readonly words: TeamWords,
    resourceLimits?: ResourceLimits,
  ) {
    if (!resourceLimits) this.members.push(...pooled(script, count));
    try {
      while (this.members.length < count) this.members.push(start(script, resourceLimits));
    } catch (e) {
      // The workers started so far end here: the caller gets no team to terminate.
      this.terminate();
      throw e;
    }
  }

  /**
   * Leave the idle members in the pool for the next team of this script, each sent `farewell`
   * first (a request it must not answer: the worker drops the job's data); a member still busy
   * ends. The team has no members after.
   */
  release(farewell: Request): void {
    const idle = pool.get(this.script.href) ?? [];
    for (const m of this.members.splice(0)) {
      if (m.busy) void m.worker.terminate();
      else {
        m.port.postMessage(farewell);
        idle.push(m);
      }
    }
    pool.set(this.script.href, idle);
  }

  send(m: TeamMember, request: Request): void {
    m.busy = true;
    m.port.postMessage(request);
  }

  /** The member's reply if it has come; a worker's `{ op: 'error', error }` is thrown as a GroveError. */
  take(m: TeamMember): Reply | undefined {
    if (!m.busy) return undefined;
    const got = receiveMessageOnPort(m.port);
    if (!got) return undefined;
    m.busy = false;
    const reply = got.message as Reply & { error?: unknown };
    if (reply.op === 'error') throw new GroveError(`${this.words.worker} failed: ${String(reply.error)}`);
    return reply;
  }

  /** Wait for the member's reply. */
  waitFor(m: TeamMember): Reply {
    for (;;) {
      const seen = Atomics.load(signal, 0);
      const reply = this.take(m);
      if (reply) return reply;
      this.sleep([m], seen);
    }
  }

  /** Pass every reply to `onReply` (which may send the member more work) until `finished()`. */
  drain(onReply: (m: TeamMember, reply: Reply) => void, finished: () => boolean): void {
    while (!finished()) {
      const seen = Atomics.load(signal, 0);
      let got = false;
      for (const m of this.members) {
        const reply = this.take(m);
        if (!reply) continue;
        got = true;
        onReply(m, reply);
      }
      if (!got) this.sleep(this.members, seen);
    }
  }

  /** End every member's worker. */
  terminate(): void {
    for (const m of this.members.splice(0)) void m.worker.terminate();
  }

  /** Wait for the next reply; if none comes for a while, make sure no busy worker has died. */
  private sleep(members: TeamMember[], seen: number): void {
    if (Atomics.wait(signal, 0, seen, CHECK_MS) !== 'timed-out') return;
    for (const m of members)
      if (m.busy && !threadAlive(Atomics.load(m.tid, 0)))
        throw new GroveError(
          `${this.words.worker} thread stopped without answering (out of memory?); ${this.words.instead}`,
        );
  }
}
