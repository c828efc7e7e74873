import { parallelOptimal, type RootJob, type RootResult } from './parallel.js';
import type { OptimalSearch, SearchProgress } from './search.js';
import { StopSearch } from './stop.js';

/**
 * The root's best tree below `ub`: on worker threads when they are installed (the Node entry),
 * asked for (`threads` ≠ 1), and the root has depth 3 or more; else on this thread. A search
 * stopped by its time or memory limit returns the best tree found and why it stopped.
 */
export function searchRoot(search: OptimalSearch, job: Omit<RootJob, 'ub' | 'leaf'>, ub: number): RootResult {
  const parallel = parallelOptimal();
  if (parallel && job.threads !== 1 && job.settings.maxDepth >= 3) {
    const leaf = search.rootLeaf();
    // A pure root is a leaf at once; no threads for that.
    const result = leaf.cost > job.settings.penalty ? parallel({ ...job, ub, leaf }) : null;
    if (result) return result;
  }
  try {
    return { found: search.solveRoot(ub), progress: search.progress() };
  } catch (e) {
    if (!(e instanceof StopSearch)) throw e;
    const resident = e.resident === undefined ? {} : { resident: e.resident };
    return { found: search.incumbent, stopped: e.reason, ...resident, progress: search.progress() };
  }
}

/** Counts of two searches one after the other (the second's bound and seconds are the end's). */
export function addProgress(a: SearchProgress, b: SearchProgress): SearchProgress {
  return {
    subproblems: a.subproblems + b.subproblems,
    depth2: a.depth2 + b.depth2,
    cacheHits: a.cacheHits + b.cacheHits,
    cacheEntries: Math.max(a.cacheEntries, b.cacheEntries),
    bound: b.bound,
    seconds: a.seconds + b.seconds,
  };
}
