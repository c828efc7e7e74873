/**
 * Worker thread of the parallel grower (src/run/parallel-grow.ts): holds a view of the main
 * thread's shared layout and does what it is sent: sort features, evaluate or partition some
 * features of a big node, or grow a whole subtree.
 */
import { parentPort } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import { EntryPool } from '../tree/entries.js';
import { NodeGrower, type Buffers, type StackEntry } from '../tree/grow.js';
import { argsortNumeric } from '../tree/argsort.js';
import { resolveOptions, type FitOptions } from '../tree/options.js';
import type { Column } from '../data/dataset.js';
import type { GrowInit, Job, Reply } from './parallel-grow.js';

let grower: NodeGrower;
let buf: Buffers;
let port: MessagePort;
let signal: Int32Array;

function reply(message: Reply): void {
  port.postMessage(message);
  Atomics.add(signal, 0, 1);
  Atomics.notify(signal, 0);
}

/** Sort feature `f` whose raw values the main thread put in its `vals` array. */
function presort(f: number): void {
  const { order, vals } = buf.sorted[f]!;
  const raw = vals.slice();
  order.set(argsortNumeric(raw));
  for (let i = 0; i < raw.length; i++) vals[i] = raw[order[i]];
}

function entryOf(job: { start: number; end: number; depth: number; totals: Float64Array; excluded: readonly number[] }): StackEntry {
  return { id: 0, buf, start: job.start, end: job.end, depth: job.depth, totals: job.totals, excluded: job.excluded };
}

function run(job: Job): Reply {
  switch (job.op) {
    case 'presort':
      for (const f of job.features) presort(f);
      return { op: 'done' };
    case 'evaluate': {
      const entry = entryOf(job);
      return { op: 'cands', cands: job.features.map((f) => (grower.evaluateFeature(f, entry, grower.cands[f]), grower.cands[f])) };
    }
    case 'partition': {
      const entry = entryOf(job);
      for (const f of job.features) grower.partitionFeature(f, entry, job.sizes, job.branches);
      return { op: 'done' };
    }
    case 'grow':
      return { op: 'nodes', task: job.task, nodes: grower.growSubtree(entryOf(job)) };
  }
}

function init(msg: GrowInit): void {
  port = msg.port;
  signal = msg.signal;
  try {
    const features: Column[] = msg.features.map((f) =>
      f.kind === 'numeric' ? { kind: 'numeric', name: f.name, values: new Float64Array(0) } : { kind: 'categorical', name: f.name, codes: f.codes!, categories: f.categories! },
    );
    const pool = EntryPool.over(msg.pool.row, msg.pool.label, msg.pool.weight);
    buf = { ids: msg.ids, sorted: msg.sorted };
    // Threads partition different features of one node at the same positions: scratch is per thread.
    const n = msg.ids.length;
    grower = new NodeGrower(features, pool, msg.classes, resolveOptions(msg.options as FitOptions), { branchOf: msg.branchOf, scratchI: new Int32Array(n), scratchF: new Float64Array(n) });
  } catch (err) {
    port.on('message', () => reply({ op: 'error', error: describe(err) }));
    return;
  }
  port.on('message', (job: Job) => {
    let out: Reply;
    try {
      out = run(job);
    } catch (err) {
      out = { op: 'error', error: describe(err) };
    }
    reply(out);
  });
}

function describe(err: unknown): string {
  return err instanceof Error ? (err.stack ?? err.message) : String(err);
}

parentPort!.once('message', init);
