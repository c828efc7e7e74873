/** Messages between the threaded root search (parallel-search.ts) and its workers (search-worker.ts). */
import type { Binarised } from '../binarise.js';
import type { SearchSettings } from '../search.js';
import type { Solution } from '../solution.js';
import type { StopReason } from '../stop.js';

export type SearchRequest =
  | {
      op: 'init';
      data: Binarised;
      settings: Omit<SearchSettings, 'onProgress'>;
      /** Each root feature's best tree so far (Float64Array over it), shared by every thread. */
      best: SharedArrayBuffer;
      /** What a root tree must be below (the leaf's and the greedy tree's), and the tie slack. */
      initial: number;
      slack: number;
    }
  | { op: 'feature'; f: number };

/** A worker's counts so far (its search and cache live across the features it is given). */
export interface SearchCounts {
  subproblems: number;
  depth2: number;
  cacheHits: number;
  cacheEntries: number;
}

export type SearchReply =
  | { op: 'ready' }
  | {
      op: 'feature';
      f: number;
      found: Solution | null;
      stopped?: StopReason;
      /** At a memory stop: the process's resident bytes then. */
      resident?: number;
      counts: SearchCounts;
    }
  | { op: 'error'; error: string };
