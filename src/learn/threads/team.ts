/**
 * The worker threads of a parallel fit: a pool that outlives each fit, and the team of one fit
 * through which the main thread shares out work and waits for it synchronously (Atomics.wait and
 * receiveMessageOnPort, never its event loop).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { GroveError } from '../../core/errors.js';
import type { Dataset } from '../../data/dataset.js';
import { TreeStore } from '../../model/store.js';
import type { Candidate } from '../../split/candidate.js';
import { SortWork } from '../../split/sort-work.js';
import { type Buffers, type NodeGrower, type NodeTeam, type StackEntry, sortInto } from '../grow.js';
import type { BranchSizes } from '../partition.js';
import { nodeJob } from '../tasks.js';
import { RETIRE_BYTES } from './memory-plan.js';
import type { GrowInit, Job, Reply } from './messages.js';
import { threadAlive } from './thread-liveness.js';

const WORKER = new URL('./grow-worker.js', import.meta.url);
/** The worker script exists (it does in the built package; not when these sources run untranspiled). */
export const workerAvailable = WORKER.protocol === 'file:' && existsSync(fileURLToPath(WORKER));

/** A pooled worker thread and the port this thread talks to it through. */
interface Helper {
  worker: Worker;
  port: MessagePort;
  busy: boolean;
  /** The worker's kernel thread id, written by the worker when it starts (0: unknown). */
  tid: Int32Array;
}

/**
 * Workers outlive a fit and serve the next one: no start-up or JIT warm-up per fit, and a loop
 * of fits (cross-validated pruning) reuses the same threads instead of piling up new ones. They
 * are unref'd, so an idle pool never keeps the process alive.
 */
const idle: Helper[] = [];
/** Bumped by a worker after each reply, so this thread can sleep until one arrives. */
const signal = new Int32Array(new SharedArrayBuffer(4));

function acquire(count: number): Helper[] {
  // A pooled worker may have died since (its 'exit' event waits for the event loop).
  for (let i = idle.length - 1; i >= 0; i--) if (!threadAlive(Atomics.load(idle[i].tid, 0))) idle.splice(i, 1);
  const out = idle.splice(0, count);
  while (out.length < count) {
    const { port1, port2 } = new MessageChannel();
    const tid = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(WORKER, { workerData: { port: port2, signal, tid }, transferList: [port2] });
    worker.unref();
    const helper: Helper = { worker, port: port1, busy: false, tid };
    // A worker that dies is never reused, and its late 'error' event must not end the process
    // (the fit that used it has already thrown; see Team.sleep).
    worker.on('error', () => {});
    worker.on('exit', () => {
      const i = idle.indexOf(helper);
      if (i >= 0) idle.splice(i, 1);
    });
    out.push(helper);
  }
  return out;
}

/** Waiting longer than this for a reply makes the main thread check that the workers still run. */
const CHECK_MS = 1000;

/** The worker threads of one fit and the main thread's way of waiting for them. */
export class Team implements NodeTeam {
  private readonly workers: Helper[];
  /** Nodes at least this large are split by every thread together. */
  minShared = Infinity;
  grower?: NodeGrower;

  constructor(
    count: number,
    init: GrowInit,
    private readonly threads = count + 1,
  ) {
    this.workers = acquire(count);
    for (const w of this.workers) this.send(w, { op: 'init', init });
    this.waitAll();
  }

  /** Feature shares: thread t (0 = this one) takes every threads-th feature from t. */
  share(features: number[], t: number): number[] {
    return features.filter((_, i) => i % this.threads === t);
  }

  /** Send worker i `job(i + 1)` (its share), run `mine`, then wait for every reply. */
  round(job: (t: number) => Job, mine: () => void): Reply[] {
    this.workers.forEach((w, i) => this.send(w, job(i + 1)));
    mine();
    return this.waitAll();
  }

  private send(w: Helper, job: Job): void {
    w.busy = true;
    w.port.postMessage(job);
  }

  private take(w: Helper): Reply | undefined {
    if (!w.busy) return undefined;
    const got = receiveMessageOnPort(w.port);
    if (!got) return undefined;
    w.busy = false;
    const reply = got.message as Reply;
    if (reply.op === 'error') throw new Error(`grove: a worker thread failed: ${reply.error}`);
    return reply;
  }

  private waitAll(): Reply[] {
    const replies: Reply[] = new Array(this.workers.length);
    for (;;) {
      const seen = Atomics.load(signal, 0);
      this.workers.forEach((w, i) => {
        const r = this.take(w);
        if (r) replies[i] = r;
      });
      if (!this.workers.some((w) => w.busy)) return replies;
      this.sleep(seen);
    }
  }

  /** Wait for the next reply; if none comes for a while, make sure no busy worker has died. */
  private sleep(seen: number): void {
    if (Atomics.wait(signal, 0, seen, CHECK_MS) !== 'timed-out') return;
    for (const w of this.workers) {
      if (w.busy && !threadAlive(Atomics.load(w.tid, 0))) {
        throw new GroveError(
          'a worker thread stopped without answering (out of memory?); ' +
            'fit on one thread instead (threads: 1, or --threads 1)',
        );
      }
    }
  }

  evaluate(entry: StackEntry, cands: Candidate[]): boolean {
    if (entry.end - entry.start < this.minShared) return false;
    const grower = this.grower!;
    const all = cands.map((_, f) => f);
    const node = nodeJob(entry);
    const replies = this.round(
      (t) => ({ op: 'evaluate', features: this.share(all, t), ...node }),
      () => {
        for (const f of this.share(all, 0)) grower.evaluateFeature(f, entry, cands[f]);
      },
    );
    for (const r of replies) if (r.op === 'cands') for (const c of r.cands) cands[c.feature].copyFrom(c);
    return true;
  }

  private partitioning = false;

  partition(entry: StackEntry, branches: BranchSizes): boolean {
    if (entry.end - entry.start < this.minShared) return false;
    const grower = this.grower!;
    const numeric = entry.buf.sorted.flatMap((s, f) => (s ? [f] : []));
    const node = nodeJob(entry);
    const { sizes, count } = branches;
    this.workers.forEach((w, i) =>
      this.send(w, { op: 'partition', features: this.share(numeric, i + 1), sizes, branches: count, ...node }),
    );
    for (const f of this.share(numeric, 0)) grower.partitionFeature(f, entry, branches);
    this.partitioning = true;
    return true;
  }

  finishPartition(): void {
    if (this.partitioning) this.waitAll();
    this.partitioning = false;
  }

  /**
   * Largest task first to whoever is free; this thread grows tasks too (`local`) and hands out more
   * between them. `job(task, i)` is the message that asks a worker for task i; `onGrown` hears of
   * each task a worker has grown (this thread's own are metered as they grow).
   */
  growTasks<T>(
    tasks: T[],
    local: (task: T) => TreeStore,
    job: (task: T, i: number) => Job,
    onGrown?: (i: number, nodes: TreeStore) => void,
  ): TreeStore[] {
    const results: TreeStore[] = new Array(tasks.length);
    const owner = new Map<Helper, number>();
    let next = 0;
    const feed = (w: Helper): void => {
      if (next >= tasks.length) return;
      owner.set(w, next);
      this.send(w, job(tasks[next], next));
      next++;
    };
    const collect = (): void => {
      for (const w of this.workers) {
        const r = this.take(w);
        if (r?.op !== 'nodes') continue;
        results[r.task] = TreeStore.fromData(r.nodes);
        onGrown?.(r.task, results[r.task]);
        feed(w);
      }
    };
    for (const w of this.workers) feed(w);
    while (next < tasks.length) {
      const i = next++;
      results[i] = local(tasks[i]);
      collect();
    }
    for (;;) {
      const seen = Atomics.load(signal, 0);
      collect();
      if (!this.workers.some((w) => w.busy)) return results;
      this.sleep(seen);
    }
  }

  /** Sort the numeric features into `buf`, a share per thread. */
  presort(data: Dataset, buf: Buffers): void {
    const numeric = data.features.flatMap((col, f) => (col.kind === 'numeric' ? [f] : []));
    // Workers sort from their shared copies of the values (GrowInit's features).
    this.round(
      (t) => ({ op: 'presort', features: this.share(numeric, t) }),
      () => {
        const work = new SortWork();
        for (const f of this.share(numeric, 0)) {
          const col = data.features[f];
          if (col.kind !== 'numeric') continue;
          sortInto(col.values, data.labels, buf.sorted[f]!, work);
        }
        work.release();
      },
    );
  }

  /**
   * Back to the pool, told to drop this fit's data; a worker still busy (after an error) is ended,
   * and so is every worker of a fit that shared `sharedBytes` ≥ `RETIRE_BYTES`.
   */
  close(sharedBytes = 0): void {
    const retire = sharedBytes >= RETIRE_BYTES;
    for (const w of this.workers) {
      if (w.busy || retire) void w.worker.terminate();
      else {
        w.port.postMessage({ op: 'release' } satisfies Job);
        idle.push(w);
      }
    }
  }
}
