/**
 * The optimal search's root on worker threads: each root feature's best tree is an independent
 * sub-problem, handed out in feature order as workers finish, each searched below the bound the
 * other features' best trees so far set (shared memory), and put together in feature order
 * (`assembleRoot`), so the tree is the one the search finds on one thread. Each worker keeps its
 * own search tables and cache (its share of `memoryLimit`, `threadShare`) across the features it
 * is given, and stops, as the main thread would, when the process's resident memory passes the
 * limit (the reading is process-wide). Its V8 heap is capped at the limit too: V8 then lets less
 * garbage pile up between collections (its heap-growing factor falls from 4 toward 1.3 with a
 * smaller cap), and the resident check always fires before the cap could be reached. The
 * main thread waits synchronously (Atomics.wait), as the forest grower does, so `fitOptimal`
 * stays a plain function.
 */
import { availableParallelism } from 'node:os';
import { getHeapStatistics } from 'node:v8';
import { GroveError } from '../../core/errors.js';
import { SyncTeam, workerScriptAvailable } from '../../learn/threads/sync-team.js';
import { setHeapLimit, threadShare, workersThatFit } from '../memory.js';
import { assembleRoot, type ParallelOptimal, type RootJob, setParallelOptimal } from '../parallel.js';
import type { SearchProgress } from '../search.js';
import type { Solution } from '../solution.js';
import { residentMemory, type StopReason } from '../stop.js';
import type { SearchCounts, SearchReply, SearchRequest } from './messages.js';

const WORKER = new URL('./search-worker.js', import.meta.url);
const workerAvailable = workerScriptAvailable(WORKER);

/** With `auto`, a search over fewer rows × features than this stays on one thread (workers cost a start and a copy). */
const AUTO_MIN_WORK = 2 ** 20;
type Team = SyncTeam<SearchRequest, SearchReply>;

const searchParallel: ParallelOptimal = (job) => {
  const F = job.data.features.length;
  if (job.threads === 'auto' && job.data.n * F < AUTO_MIN_WORK) return null;
  const count = workersThatFit(job.memory, Math.min(F, job.threads === 'auto' ? availableParallelism() : job.threads));
  if (!workerAvailable || count < 2) return null;
  const share = threadShare(job.memory, count)!;
  const best = new Float64Array(new SharedArrayBuffer(8 * F)).fill(Infinity);
  const initial = Math.min(job.ub, job.leaf.cost);
  // Any positive slack keeps the tree the same (it only lets a later feature's tie through).
  const slack = 1e-9 * Math.max(1, Math.abs(job.leaf.cost));
  let team: Team | undefined;
  try {
    team = new SyncTeam(
      WORKER,
      count,
      { worker: 'an optimal-search worker', instead: 'search on one thread instead (threads: 1, or --threads 1)' },
      { maxOldGenerationSizeMb: Math.ceil(job.memory.limitBytes / 2 ** 20) },
    );
    const settings = { ...job.settings, maxSlots: share.maxSlots, pairs: share.pairs };
    const init: SearchRequest = {
      op: 'init',
      data: job.data,
      settings,
      best: best.buffer as SharedArrayBuffer,
      initial,
      slack,
    };
    for (const m of team.members) team.send(m, init);
    for (const m of team.members) team.waitFor(m);
    return searchAll(team, job, F);
  } finally {
    team?.terminate();
  }
};

/** Hand out root features in order as workers finish; stop handing out once one stops at a limit. */
function searchAll(team: Team, job: RootJob, F: number) {
  const started = Date.now();
  const perFeature: (Solution | null)[] = new Array(F).fill(null);
  const counts: SearchCounts[] = team.members.map(() => ({ subproblems: 0, depth2: 0, cacheHits: 0, cacheEntries: 0 }));
  let next = 0;
  let busy = 0;
  let stopped: StopReason | undefined;
  let resident: number | undefined;
  let lastReport = -Infinity;
  const give = (m: Team['members'][number]) => {
    if (stopped || next >= F) return;
    team.send(m, { op: 'feature', f: next++ });
    busy++;
  };
  const progress = (): SearchProgress => {
    const sum = (key: keyof SearchCounts) => counts.reduce((s, c) => s + c[key], 0);
    const found = assembleRoot(job.leaf, job.ub, perFeature);
    return {
      subproblems: sum('subproblems'),
      depth2: sum('depth2'),
      cacheHits: sum('cacheHits'),
      cacheEntries: sum('cacheEntries'),
      resident: residentMemory(),
      bound: found?.cost ?? Infinity,
      seconds: (Date.now() - started) / 1000,
    };
  };
  for (const m of team.members) give(m);
  team.drain(
    (m, reply) => {
      if (reply.op !== 'feature') throw new GroveError('an optimal-search worker answered out of turn');
      busy--;
      perFeature[reply.f] = reply.found;
      counts[team.members.indexOf(m)] = reply.counts;
      if (reply.stopped && !stopped) {
        stopped = reply.stopped;
        resident = reply.resident;
      }
      give(m);
      // The first reply is heard at once, then about twice a second.
      if (job.onProgress && Date.now() - lastReport >= 500) {
        lastReport = Date.now();
        job.onProgress(progress());
      }
    },
    () => busy === 0,
  );
  const stop = stopped ? { stopped, ...(resident !== undefined ? { resident } : {}) } : {};
  return { found: assembleRoot(job.leaf, job.ub, perFeature), ...stop, progress: progress() };
}

setParallelOptimal(searchParallel);
setHeapLimit(getHeapStatistics().heap_size_limit);
