/**
 * Worker thread of the parallel forest grower (parallel-forest.ts): prepares the forest once
 * from the data and options it is sent (the same checks and plan as the main thread), then grows
 * the trees it is asked for, one at a time, sending each back as its store's arrays
 * (tree-message.ts). Released, it drops the forest and waits in the pool for the next one.
 */
import type { MessagePort } from 'node:worker_threads';
import { workerData } from 'node:worker_threads';
import type { Dataset, NumericColumn } from '../../data/dataset.js';
import type { CodeMatrix } from '../../learn/hist-layout.js';
import { adoptRanks } from '../../learn/node-ranks.js';
import { dropScratch, keepScratch } from '../../learn/node-scratch.js';
import { ownThreadId } from '../../learn/threads/thread-liveness.js';
import type { FitOptions } from '../../options/options.js';
import { type ForestJob, growForestTree, prepareForest } from '../fit-forest.js';
import { binShare, sharedForestBins } from '../forest-bins.js';
import type { ForestReply, ForestRequest } from './messages.js';
import { treeMessage } from './tree-message.js';

const { port, signal, tid } = workerData as { port: MessagePort; signal: Int32Array; tid: Int32Array };
// Lets the main thread notice this thread's death while it waits synchronously.
Atomics.store(tid, 0, ownThreadId());
let job: ForestJob | undefined;
/** The shared code matrix of the forest's bins, while its edges are on their way. */
let codes: CodeMatrix | undefined;

function reply(message: ForestReply, transfer: ArrayBuffer[] = []): void {
  port.postMessage(message, transfer);
  Atomics.add(signal, 0, 1);
  Atomics.notify(signal, 0);
}

port.on('message', (request: ForestRequest) => {
  if (request.op === 'release') {
    job = undefined;
    codes = undefined;
    dropScratch();
    return;
  }
  try {
    if (request.op === 'init') {
      job = prepareForest(request.data as Dataset, request.options as FitOptions);
      const columns = job.plan.data.features.map((col) => (col as NumericColumn).values);
      if (request.ranks) {
        adoptRanks(columns, request.ranks);
        keepScratch();
      }
      codes = request.bin?.codes;
      reply({
        op: 'ready',
        ...(request.bin ? { edges: binShare(job.plan, request.bin.codes, request.bin.features) } : {}),
      });
      return;
    }
    if (request.op === 'bins') {
      job!.bins = sharedForestBins(job!.plan, codes!, request.edges, false);
      codes = undefined;
      reply({ op: 'ready' });
      return;
    }
    const { message, transfer } = treeMessage(growForestTree(job!, request.index));
    reply({ op: 'tree', index: request.index, tree: message }, transfer);
  } catch (err) {
    reply({ op: 'error', error: (err as Error)?.message ?? String(err) });
  }
});
