import type { Binarised } from './binarise.js';
import type { MemoryPlan } from './memory.js';
import type { SearchProgress, SearchSettings } from './search.js';
import type { Solution } from './solution.js';
import type { StopReason } from './stop.js';

/**
 * The root's tests shared among worker threads, one root feature at a time: each feature's best
 * tree is searched independently, below a bound taken from the other features' best so far, and
 * the results are put together in feature order — the same tree as one thread finds (see
 * `featureBound` and `assembleRoot`).
 */
export interface RootJob {
  readonly data: Binarised;
  readonly settings: Omit<SearchSettings, 'onProgress'>;
  /** Objective value a root tree must be below (the greedy tree's, or Infinity). */
  readonly ub: number;
  /** The root as a leaf: tried before every test, as on one thread. */
  readonly leaf: Solution;
  /** Worker threads to use (`auto`: the machine's cores, for a big enough search). */
  readonly threads: number | 'auto';
  /** How `memoryLimit` is shared between the threads. */
  readonly memory: MemoryPlan;
  readonly onProgress?: (p: SearchProgress) => void;
}

export interface RootResult {
  readonly found: Solution | null;
  readonly stopped?: StopReason;
  /** At a memory stop: the process's resident bytes then (when known). */
  readonly resident?: number;
  readonly progress: SearchProgress;
}

/** Searches a root on worker threads; null when it cannot (no workers here): search on one thread. */
export type ParallelOptimal = (job: RootJob) => RootResult | null;

let parallel: ParallelOptimal | null = null;

/** Install (or remove) the threaded root search: done by importing src/optimal/threads/parallel-search.ts. */
export function setParallelOptimal(p: ParallelOptimal | null): void {
  parallel = p;
}

export function parallelOptimal(): ParallelOptimal | null {
  return parallel;
}

/**
 * The bound below which root feature f's search looks, given `best[g]`, each feature's best tree
 * so far (Infinity before one): one thread keeps the first best tree in feature order, so f must
 * beat strictly the features before it and only match those after it (`slack` above theirs).
 */
export function featureBound(best: ArrayLike<number>, f: number, initial: number, slack: number): number {
  let bound = initial;
  for (let g = 0; g < best.length; g++) {
    if (g < f) bound = Math.min(bound, best[g]);
    else if (g > f) bound = Math.min(bound, best[g] + slack);
  }
  return bound;
}

/**
 * One thread's answer from each root feature's: the leaf if below `ub`, then each feature in order
 * when strictly better. A feature whose own best was cut off by the others' bounds returns a
 * worse tree or none, and loses here to the feature that bounded it.
 */
export function assembleRoot(leaf: Solution, ub: number, perFeature: (Solution | null)[]): Solution | null {
  let found = leaf.cost < ub ? leaf : null;
  let bound = Math.min(ub, leaf.cost);
  for (const s of perFeature) {
    if (s && s.cost < bound) {
      found = s;
      bound = s.cost;
    }
  }
  return found;
}
