/**
 * Grows a forest's trees on worker threads, each tree whole on one thread. Tree i depends only on
 * the data, the options and i (src/ensemble/draws.ts), and trees are put back in index order, so
 * the forest is the same, bit for bit, on any number of threads. The main thread waits
 * synchronously (Atomics.wait, receiveMessageOnPort), as the parallel tree grower does, so
 * `fitForest` stays a plain function.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { GroveError } from '../../core/errors.js';
import type { Dataset } from '../../data/dataset.js';
import { threadAlive } from '../../learn/threads/thread-liveness.js';
import { DecisionTree, TRUSTED_MODEL } from '../../model/decision-tree.js';
import type { FitOptions } from '../../options/options.js';
import { type ParallelForest, setParallelForest } from '../fit-forest.js';
import type { ForestReply, ForestRequest } from './messages.js';

const WORKER = new URL('./forest-worker.js', import.meta.url);
/** The worker script exists (it does in the built package; not when these sources run untranspiled). */
const workerAvailable = WORKER.protocol === 'file:' && existsSync(fileURLToPath(WORKER));

/** Waiting longer than this for a reply makes the main thread check that the workers still run. */
const CHECK_MS = 1000;

interface Helper {
  worker: Worker;
  port: MessagePort;
  tid: Int32Array;
  /** The tree it is growing (-1: none). */
  busy: number;
}

/** Options a worker can receive: a Criterion object (functions) cannot be posted. */
function postable(options: FitOptions): boolean {
  return typeof options.criterion !== 'object' && typeof options.thresholdCriterion !== 'object';
}

const growParallel: ParallelForest = (data, options, indices, threads, onTree) => {
  const count = Math.min(indices.length, threads === 'auto' ? availableParallelism() : threads);
  if (!workerAvailable || count < 2 || !postable(options)) return null;
  const signal = new Int32Array(new SharedArrayBuffer(4));
  const helpers: Helper[] = [];
  try {
    for (let w = 0; w < count; w++) {
      const { port1, port2 } = new MessageChannel();
      const tid = new Int32Array(new SharedArrayBuffer(4));
      const worker = new Worker(WORKER, { workerData: { port: port2, signal, tid }, transferList: [port2] });
      worker.unref();
      worker.on('error', () => {});
      helpers.push({ worker, port: port1, tid, busy: -1 });
    }
    const { threads: _threads, ...sent } = options;
    for (const h of helpers) post(h, { op: 'init', data: plainData(data), options: sent as FitOptions });
    for (const h of helpers) waitFor(h, signal);
    return growAll(helpers, signal, indices, onTree);
  } finally {
    for (const h of helpers) void h.worker.terminate();
  }
};

/** Hand out the trees one at a time as workers finish; the trees in index order. */
function growAll(helpers: Helper[], signal: Int32Array, indices: number[], onTree: (grown: number) => void) {
  const out: DecisionTree[] = new Array(indices.length);
  const slot = new Map(indices.map((i, j) => [i, j]));
  let next = 0;
  let done = 0;
  const give = (h: Helper) => {
    if (next >= indices.length) return;
    h.busy = indices[next++];
    h.port.postMessage({ op: 'tree', index: h.busy } satisfies ForestRequest);
  };
  for (const h of helpers) give(h);
  while (done < indices.length) {
    const seen = Atomics.load(signal, 0);
    let got = false;
    for (const h of helpers) {
      const reply = take(h);
      if (!reply) continue;
      got = true;
      if (reply.op !== 'tree')
        throw new GroveError(`a forest worker failed: ${String((reply as { error?: string }).error)}`);
      out[slot.get(reply.index)!] = new DecisionTree(reply.model, TRUSTED_MODEL);
      done++;
      onTree(done);
      h.busy = -1;
      give(h);
    }
    if (!got) sleep(helpers, signal, seen);
  }
  return out;
}

function post(h: Helper, request: ForestRequest): void {
  h.busy = 0;
  h.port.postMessage(request);
}

function take(h: Helper): ForestReply | undefined {
  if (h.busy < 0) return undefined;
  const got = receiveMessageOnPort(h.port);
  if (!got) return undefined;
  const reply = got.message as ForestReply;
  if (reply.op === 'error') throw new GroveError(`a forest worker failed: ${reply.error}`);
  return reply;
}

function waitFor(h: Helper, signal: Int32Array): void {
  for (;;) {
    const seen = Atomics.load(signal, 0);
    const reply = take(h);
    if (reply) {
      h.busy = -1;
      return;
    }
    sleep([h], signal, seen);
  }
}

/** Wait for the next reply; if none comes for a while, make sure no busy worker has died. */
function sleep(helpers: Helper[], signal: Int32Array, seen: number): void {
  if (Atomics.wait(signal, 0, seen, CHECK_MS) !== 'timed-out') return;
  for (const h of helpers)
    if (h.busy >= 0 && !threadAlive(Atomics.load(h.tid, 0)))
      throw new GroveError(
        'a forest worker thread stopped without answering (out of memory?); ' +
          'grow on one thread instead (threads: 1, or --threads 1)',
      );
}

/** The Dataset's own data (a reader's extra fields, such as a lazy cache, are not posted). */
function plainData(data: Dataset): Dataset {
  const { features, labels, classes, targetName, nRows, weights, source } = data;
  return {
    features,
    labels,
    classes,
    targetName,
    nRows,
    ...(weights ? { weights } : {}),
    ...(source !== undefined ? { source } : {}),
  };
}

setParallelForest(growParallel);
