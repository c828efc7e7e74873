/**
 * Worker thread of the threaded root search (parallel-search.ts): builds one search over the
 * rows it is sent, then searches the root features it is asked for, one at a time, below the
 * bound the other threads' features set (`featureBound`), publishing its own best as it goes.
 */
import type { MessagePort } from 'node:worker_threads';
import { workerData } from 'node:worker_threads';
import { ownThreadId } from '../../learn/threads/thread-liveness.js';
import { featureBound } from '../parallel.js';
import { OptimalSearch } from '../search.js';
import { StopSearch } from '../stop.js';
import type { SearchReply, SearchRequest } from './messages.js';

const { port, signal, tid } = workerData as { port: MessagePort; signal: Int32Array; tid: Int32Array };
// Lets the main thread notice this thread's death while it waits synchronously.
Atomics.store(tid, 0, ownThreadId());
let job: { search: OptimalSearch; best: Float64Array; initial: number; slack: number };

function reply(message: SearchReply): void {
  port.postMessage(message);
  Atomics.add(signal, 0, 1);
  Atomics.notify(signal, 0);
}

function feature(f: number): SearchReply {
  const { search, best, initial, slack } = job;
  // Aligned 8-byte stores and loads: another thread sees an old value or the new one, either a valid bound.
  const publish = (cost: number) => {
    if (cost < best[f]) best[f] = cost;
  };
  let found = null;
  let stopped: StopSearch | undefined;
  try {
    found = search.solveRootFeature(f, initial, () => featureBound(best, f, initial, slack), publish);
  } catch (e) {
    if (!(e instanceof StopSearch)) throw e;
    stopped = e;
    found = search.incumbent;
  }
  if (found) publish(found.cost);
  const p = search.progress();
  const counts = { subproblems: p.subproblems, depth2: p.depth2, cacheHits: p.cacheHits, cacheEntries: p.cacheEntries };
  const stop = stopped ? { stopped: stopped.reason, ...(stopped.resident ? { resident: stopped.resident } : {}) } : {};
  return { op: 'feature', f, found, ...stop, counts };
}

port.on('message', (request: SearchRequest) => {
  try {
    if (request.op === 'init') {
      const { data, settings, initial, slack } = request;
      job = { search: new OptimalSearch(data, settings), best: new Float64Array(request.best), initial, slack };
      reply({ op: 'ready' });
      return;
    }
    reply(feature(request.f));
  } catch (err) {
    reply({ op: 'error', error: (err as Error)?.message ?? String(err) });
  }
});
