/**
 * Worker thread of the parallel grower (src/learn/threads/parallel-grow.ts): holds a view of the main
 * thread's shared layout and does what it is sent: sort or quantise features, evaluate or
 * partition some features of a big node, or grow a whole subtree.
 */

import type { MessagePort } from 'node:worker_threads';
import { workerData } from 'node:worker_threads';
import type { Column, NumericValues } from '../../data/dataset.js';
import { type ResolvedOptions, resolveOptions } from '../../options/options.js';
import { SortWork } from '../../split/sort-work.js';
import type { GrowEntry } from '../expand.js';
import { type Buffers, type NodeGrower, type StackEntry, sortInto } from '../grow.js';
import { HistGrower } from '../grow-hist.js';
import { binInto, type HistLayout } from '../hist-layout.js';
import { type ExactLayout, growTask, nodeOf, taskGrower } from '../tasks.js';
import type { GrowInit, Job, Reply } from './messages.js';
import { ownThreadId } from './thread-liveness.js';

const { port, signal, tid } = workerData as { port: MessagePort; signal: Int32Array; tid: Int32Array };
// Lets the main thread notice this thread's death while it waits synchronously.
Atomics.store(tid, 0, ownThreadId());
let features: Column[];
let opts: ResolvedOptions;
let classes: number;
/** Fault injection for tests: during this fit, end this thread when sent a job of this kind. */
let exitOn: Job['op'] | undefined;
// Exact mode.
let grower: NodeGrower | undefined;
let buf: Buffers | undefined;
let layout: ExactLayout | undefined;
// Histogram mode.
let hist:
  | { layout: HistLayout; labels: Int32Array; weights: Float64Array; grower?: HistGrower; work: SortWork }
  | undefined;

function reply(message: Reply): void {
  port.postMessage(message);
  Atomics.add(signal, 0, 1);
  Atomics.notify(signal, 0);
}

/** Sort feature `f` from this fit's shared copy of its values. */
function presort(f: number, work: SortWork): void {
  sortInto((features[f] as { values: NumericValues }).values, grower!.pool.label, buf!.sorted[f]!, work);
}

function entryOf(job: Omit<GrowEntry, 'id'>): StackEntry {
  return { ...nodeOf(job), buf: buf! };
}

function run(job: Job): Reply {
  switch (job.op) {
    case 'presort': {
      const work = new SortWork();
      for (const f of job.features) presort(f, work);
      work.release();
      return { op: 'done' };
    }
    case 'evaluate': {
      const entry = entryOf(job);
      return {
        op: 'cands',
        cands: job.features.map((f) => {
          grower!.evaluateFeature(f, entry, grower!.cands[f]);
          return grower!.cands[f];
        }),
      };
    }
    case 'partition': {
      const entry = entryOf(job);
      const branches = { count: job.branches, sizes: job.sizes };
      for (const f of job.features) grower!.partitionFeature(f, entry, branches);
      return { op: 'done' };
    }
    case 'grow':
      return { op: 'nodes', task: job.task, nodes: growTask(grower!, layout!, job).data() };
    case 'bin':
      return {
        op: 'bins',
        binned: job.features.map(({ f, values }) => ({
          f,
          feature: binInto(
            hist!.layout,
            f,
            features.length,
            { kind: 'numeric', name: features[f].name, values },
            opts.bins!,
            hist!.work,
          ),
        })),
      };
    case 'binned': {
      const h = hist!;
      h.work.release();
      h.layout = { codes: h.layout.codes, binned: job.binned, rows: job.rows, branchOf: job.branchOf };
      // This thread grows only tasks: its partition scratch is as long as the largest.
      h.grower = new HistGrower(features, h.layout, h.labels, h.weights, classes, opts, job.taskRows);
      return { op: 'done' };
    }
    case 'init':
    case 'release':
      throw new Error(`${job.op}: not a job`);
    case 'growHist': {
      const { task, hist: h } = job;
      return { op: 'nodes', task, nodes: hist!.grower!.growSubtree({ ...nodeOf(job), hist: h }).data() };
    }
  }
}

/** Set up for one fit (the pool reuses this worker for the next). */
function init(msg: GrowInit): void {
  features = msg.features.map((f) =>
    f.kind === 'numeric'
      ? { kind: 'numeric', name: f.name, values: f.values ?? new Float64Array(0) }
      : { kind: 'categorical', name: f.name, codes: f.codes!, categories: f.categories! },
  );
  opts = resolveOptions(msg.options);
  classes = msg.classes;
  exitOn = msg.exitOn;
  if (msg.mode === 'exact') {
    layout = msg;
    buf = { ids: msg.ids, sorted: msg.sorted };
    grower = taskGrower(features, classes, opts, msg);
  } else {
    hist = {
      // The row arrays come with the bin edges ('binned').
      layout: { codes: msg.codes, rows: new Int32Array(0), branchOf: new Int32Array(0), binned: [] },
      labels: msg.labels,
      weights: msg.weights,
      work: new SortWork(),
    };
  }
}

/** Drop the finished fit's data, so that its shared arrays can be freed. */
function release(): void {
  features = [];
  grower = undefined;
  buf = undefined;
  layout = undefined;
  hist = undefined;
  exitOn = undefined;
}

port.on('message', (job: Job) => {
  if (job.op === 'release') return release();
  if (job.op === exitOn) process.exit(70);
  let out: Reply;
  try {
    if (job.op === 'init') {
      init(job.init);
      out = { op: 'done' };
    } else out = run(job);
  } catch (err) {
    out = { op: 'error', error: describe(err) };
  }
  reply(out);
});

function describe(err: unknown): string {
  return err instanceof Error ? (err.stack ?? err.message) : String(err);
}
