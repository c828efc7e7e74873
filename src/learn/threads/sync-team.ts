/**
 * Worker threads that the calling thread waits for synchronously (Atomics.wait on a shared
 * signal, receiveMessageOnPort), so that a parallel job stays a plain function: the forest grower
 * and TreeSHAP hand out work this way. Each worker gets `{ port, signal, tid }` as its workerData,
 * stores its thread id in `tid`, and after each reply adds 1 to `signal` and notifies it.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';
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

export class SyncTeam<Request, Reply extends { op: string }> {
  readonly members: TeamMember[] = [];
  private readonly signal = new Int32Array(new SharedArrayBuffer(4));

  /** Start `count` workers of `script`; the caller ends them with {@link terminate} (in a `finally`). */
  constructor(
    script: URL,
    count: number,
    private readonly words: TeamWords,
  ) {
    try {
      for (let w = 0; w < count; w++) {
        const { port1, port2 } = new MessageChannel();
        const tid = new Int32Array(new SharedArrayBuffer(4));
        const workerData = { port: port2, signal: this.signal, tid };
        const worker = new Worker(script, { workerData, transferList: [port2] });
        worker.unref();
        worker.on('error', () => {});
        this.members.push({ worker, port: port1, tid, busy: false });
      }
    } catch (e) {
      // The workers started so far end here: the caller gets no team to terminate.
      this.terminate();
      throw e;
    }
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
      const seen = Atomics.load(this.signal, 0);
      const reply = this.take(m);
      if (reply) return reply;
      this.sleep([m], seen);
    }
  }

  /** Pass every reply to `onReply` (which may send the member more work) until `finished()`. */
  drain(onReply: (m: TeamMember, reply: Reply) => void, finished: () => boolean): void {
    while (!finished()) {
      const seen = Atomics.load(this.signal, 0);
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

  terminate(): void {
    for (const m of this.members) void m.worker.terminate();
  }

  /** Wait for the next reply; if none comes for a while, make sure no busy worker has died. */
  private sleep(members: TeamMember[], seen: number): void {
    if (Atomics.wait(this.signal, 0, seen, CHECK_MS) !== 'timed-out') return;
    for (const m of members)
      if (m.busy && !threadAlive(Atomics.load(m.tid, 0)))
        throw new GroveError(
          `${this.words.worker} thread stopped without answering (out of memory?); ${this.words.instead}`,
        );
  }
}
