/**
 * Worker thread of the parallel grower (src/run/parallel-grow.ts): holds a view of the main
 * thread's shared layout and grows the subtrees it is sent, posting their nodes back.
 */
import { parentPort } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import { EntryPool } from '../tree/entries.js';
import { NodeGrower, type Buffers } from '../tree/grow.js';
import { resolveOptions, type FitOptions } from '../tree/options.js';
import type { Column } from '../data/dataset.js';
import type { GrowInit, GrowTask, GrowReply } from './parallel-grow.js';

let grower: NodeGrower | undefined;
let buf: Buffers | undefined;
let port: MessagePort | undefined;
let signal: Int32Array | undefined;

function reply(message: GrowReply): void {
  port!.postMessage(message);
  Atomics.add(signal!, 0, 1);
  Atomics.notify(signal!, 0);
}

function init(msg: GrowInit): void {
  port = msg.port;
  signal = msg.signal;
  const features: Column[] = msg.features.map((f) =>
    f.kind === 'numeric' ? { kind: 'numeric', name: f.name, values: new Float64Array(0) } : { kind: 'categorical', name: f.name, codes: f.codes!, categories: f.categories! },
  );
  const opts = resolveOptions(msg.options as FitOptions);
  const pool = EntryPool.over(msg.pool.row, msg.pool.label, msg.pool.weight);
  buf = { ids: msg.ids, sorted: msg.sorted };
  grower = new NodeGrower(features, pool, msg.classes, opts, msg.scratch);
  port.on('message', (task: GrowTask) => {
    try {
      const nodes = grower!.growSubtree({ id: 0, buf: buf!, start: task.start, end: task.end, depth: task.depth, totals: task.totals, excluded: task.excluded });
      reply({ task: task.task, nodes });
    } catch (err) {
      reply({ task: task.task, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
    }
  });
}

parentPort!.once('message', init);
