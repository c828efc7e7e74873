/**
 * Worker threads for a forest's prediction (`CompiledForest.predictProba`): each worker walks the
 * compiled forest's shared records with its own block of rows, claiming blocks from the same
 * counter as the calling thread (forest-sums.ts), so nobody waits for a worker that is still
 * starting: the calling thread sums every block no worker took. It waits synchronously
 * (Atomics.wait), so prediction stays a plain function. A block is summed whole by one thread,
 * trees in order: the same bits as on one thread.
 */
import { availableParallelism } from 'node:os';
import { GroveError } from '../../core/errors.js';
import { SyncTeam, workerScriptAvailable } from '../../learn/threads/sync-team.js';
import { threadAlive } from '../../learn/threads/thread-liveness.js';
import { setParallelSums } from '../compiled-forest.js';
import type { SharedSums } from '../forest-sums.js';
import type { SumsReply, SumsRequest } from './sums-messages.js';

const WORKER = new URL('./sums-worker.js', import.meta.url);
const workerAvailable = workerScriptAvailable(WORKER);
/** Waiting longer than this for the workers' blocks makes this thread check that they still run. */
const CHECK_MS = 1000;
const WORDS = {
  worker: 'a prediction worker',
  instead: 'predict on one thread instead (threads: 1, or --threads 1)',
};

/**
 * `ParallelSums.run`: `helpers` workers on `job` beside `here` (this thread's share); false without
 * a worker script.
 */
export function runSums(job: SharedSums, helpers: number, here: () => void): boolean {
  if (!workerAvailable) return false;
  const team = new SyncTeam<SumsRequest, SumsReply>(WORKER, helpers, WORDS);
  try {
    team.members.forEach((m, i) => team.send(m, { op: 'sums', job, slot: i + 1 }));
    here();
    // Every block is claimed: wait for the ones workers are still summing.
    const blocks = Math.ceil(job.nRows / job.parts.block);
    for (let done = Atomics.load(job.counters, 1); done < blocks; done = Atomics.load(job.counters, 1)) {
      if (Atomics.wait(job.counters, 1, done, CHECK_MS) !== 'timed-out') continue;
      for (const m of team.members)
        if (!threadAlive(Atomics.load(m.tid, 0)))
          throw new GroveError(`${WORDS.worker} thread stopped without answering (out of memory?); ${WORDS.instead}`);
    }
    // Workers that joined answer at once (they find no block left); one still starting is ended.
    if (Atomics.load(job.counters, 2) === team.members.length) for (const m of team.members) team.waitFor(m);
    team.release({ op: 'release' });
    return true;
  } finally {
    team.terminate();
  }
}

/** The registered `ParallelSums` (a test may wrap `run`). */
export const PARALLEL_SUMS = {
  threads: (requested: number | 'auto') => (requested === 'auto' ? availableParallelism() : requested),
  run: runSums,
};

setParallelSums(PARALLEL_SUMS);
