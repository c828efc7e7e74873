/**
 * Explains rows on worker threads, a block of rows at a time handed out as workers finish. A
 * row's contributions depend only on the row and the trees, and each block is put back at its
 * own place, so the values are the same, bit for bit, on any number of threads. The main thread
 * waits synchronously (Atomics.wait, receiveMessageOnPort), as the parallel forest grower does,
 * so `shapValues` stays a plain function.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { GroveError } from '../../core/errors.js';
import { threadAlive } from '../../learn/threads/thread-liveness.js';
import { DecisionTree } from '../../model/decision-tree.js';
import type { ExplainableModel } from '../model.js';
import { type ParallelShap, type ShapJob, setParallelShap } from '../shap.js';
import type { ShapReply, ShapRequest, ShapTrees } from './messages.js';

const WORKER = new URL('./shap-worker.js', import.meta.url);
/** The worker script exists (it does in the built package; not when these sources run untranspiled). */
const workerAvailable = WORKER.protocol === 'file:' && existsSync(fileURLToPath(WORKER));

/** Waiting longer than this for a reply makes the main thread check that the workers still run. */
const CHECK_MS = 1000;
/**
 * With `auto`, fewer rows or less work (rows × tree nodes) than this is explained on the calling
 * thread: each worker starts and rebuilds the trees, which costs about as much as explaining a
 * few hundred rows.
 */
const AUTO_MIN_ROWS = 1000;
const AUTO_MIN_WORK = 20_000_000;

interface Helper {
  worker: Worker;
  port: MessagePort;
  tid: Int32Array;
  /** Waiting for a reply. */
  busy: boolean;
}

const explainParallel: ParallelShap = (job, threads, report) => {
  const blocks = Math.ceil(job.nRows / job.block);
  const trees = modelTrees(job.model);
  const nodes = trees.reduce((n, t) => n + t.compiled.feature.length, 0);
  if (threads === 'auto' && (job.nRows < AUTO_MIN_ROWS || job.nRows * nodes < AUTO_MIN_WORK)) return null;
  const count = Math.min(blocks, threads === 'auto' ? availableParallelism() : threads);
  if (!workerAvailable || count < 2) return null;
  const signal = new Int32Array(new SharedArrayBuffer(4));
  const helpers: Helper[] = [];
  try {
    for (let w = 0; w < count; w++) {
      const { port1, port2 } = new MessageChannel();
      const tid = new Int32Array(new SharedArrayBuffer(4));
      const worker = new Worker(WORKER, { workerData: { port: port2, signal, tid }, transferList: [port2] });
      worker.unref();
      worker.on('error', () => {});
      helpers.push({ worker, port: port1, tid, busy: false });
    }
    const init: ShapRequest = { op: 'init', trees: treeParts(job.model, trees), ...rowsOf(job) };
    for (const h of helpers) send(h, init);
    for (const h of helpers) waitFor(h, signal);
    return explainAll(helpers, signal, job, report);
  } finally {
    for (const h of helpers) void h.worker.terminate();
  }
};

/** Hand out blocks of rows as workers finish; each block's values go to its own rows. */
function explainAll(helpers: Helper[], signal: Int32Array, job: ShapJob, report: (rows: number) => void) {
  const { nRows, block } = job;
  const stride = job.nFeatures * job.nClasses;
  const values = new Float64Array(nRows * stride);
  let next = 0;
  let done = 0;
  const give = (h: Helper) => {
    if (next >= nRows) return;
    send(h, { op: 'rows', from: next, to: Math.min(nRows, next + block) });
    next += block;
  };
  for (const h of helpers) give(h);
  while (done < nRows) {
    const seen = Atomics.load(signal, 0);
    let got = false;
    for (const h of helpers) {
      const reply = take(h);
      if (!reply) continue;
      got = true;
      if (reply.op !== 'rows') throw new GroveError('a TreeSHAP worker answered out of turn');
      values.set(reply.values, reply.from * stride);
      done += reply.to - reply.from;
      report(done);
      give(h);
    }
    if (!got) sleep(helpers, signal, seen);
  }
  return values;
}

function modelTrees(model: ExplainableModel): DecisionTree[] {
  return model instanceof DecisionTree ? [model] : model.trees;
}

/** The trees as model-file parts (what a worker rebuilds them from), with their weights. */
function treeParts(model: ExplainableModel, trees: DecisionTree[]): ShapTrees {
  const models = trees.map((t) => {
    const { format: _f, version: _v, ...parts } = t.toJSON();
    return parts;
  });
  return { models, weights: trees.map(() => (model instanceof DecisionTree ? 1 : 1 / trees.length)) };
}

function rowsOf(job: ShapJob) {
  const { columns, nRows, nFeatures, nClasses } = job;
  return { columns, nRows, nFeatures, nClasses };
}

function send(h: Helper, request: ShapRequest): void {
  h.busy = true;
  h.port.postMessage(request);
}

function take(h: Helper): ShapReply | undefined {
  if (!h.busy) return undefined;
  const got = receiveMessageOnPort(h.port);
  if (!got) return undefined;
  h.busy = false;
  const reply = got.message as ShapReply;
  if (reply.op === 'error') throw new GroveError(`a TreeSHAP worker failed: ${reply.error}`);
  return reply;
}

function waitFor(h: Helper, signal: Int32Array): void {
  for (;;) {
    const seen = Atomics.load(signal, 0);
    if (take(h)) return;
    sleep([h], signal, seen);
  }
}

/** Wait for the next reply; if none comes for a while, make sure no busy worker has died. */
function sleep(helpers: Helper[], signal: Int32Array, seen: number): void {
  if (Atomics.wait(signal, 0, seen, CHECK_MS) !== 'timed-out') return;
  for (const h of helpers)
    if (h.busy && !threadAlive(Atomics.load(h.tid, 0)))
      throw new GroveError(
        'a TreeSHAP worker thread stopped without answering (out of memory?); ' +
          'explain on one thread instead (threads: 1, or --threads 1)',
      );
}

setParallelShap(explainParallel);
