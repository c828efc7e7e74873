/**
 * Worker thread of a forest's parallel prediction (parallel-sums.ts): sums the blocks of rows it
 * claims with its own block slot over the compiled forest's shared records, giving back any block
 * with a stop only the calling thread can finish (forest-sums.ts).
 */
import type { MessagePort } from 'node:worker_threads';
import { workerData } from 'node:worker_threads';
import { ownThreadId } from '../../learn/threads/thread-liveness.js';
import { RouteWalker } from '../../model/route-walk.js';
import { sumClaimed } from '../forest-sums.js';
import type { SumsReply, SumsRequest } from './sums-messages.js';

const { port, signal, tid } = workerData as { port: MessagePort; signal: Int32Array; tid: Int32Array };
// Lets the main thread notice this thread's death while it waits synchronously.
Atomics.store(tid, 0, ownThreadId());

function reply(message: SumsReply): void {
  port.postMessage(message);
  Atomics.add(signal, 0, 1);
  Atomics.notify(signal, 0);
}

port.on('message', (request: SumsRequest) => {
  if (request.op === 'release') return;
  try {
    Atomics.add(request.job.counters, 2, 1);
    Atomics.notify(request.job.counters, 2);
    sumClaimed(new RouteWalker(request.job.parts, request.slot), request.job);
    reply({ op: 'done' });
  } catch (err) {
    reply({ op: 'error', error: (err as Error)?.message ?? String(err) });
  }
});
