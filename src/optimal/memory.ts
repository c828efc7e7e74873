import { SLOT_BYTES } from './cache.js';

/**
 * What the process holds before a search adds anything: Node itself, the library and a data set
 * of corpus size (65–70 MB resident measured on Node 20 with credit-g loaded). `memoryLimit` must
 * be at least this (the option's minimum); the rest is the search's.
 */
export const NODE_MB = 64;

/** A worker thread's own runtime (its V8 heap, compiled code and stacks) before its search's tables and cache. */
export const WORKER_BYTES = 24 * 2 ** 20;

/** The most entries one cache holds (V8's Map holds at most 2^24). */
export const MAX_SLOTS = 2 ** 24 - 1;

/** Live heap of one cache entry, at most (measured 350–650 bytes; see SLOT_BYTES). */
const LIVE_SLOT_BYTES = 1000;

/** V8's heap limit on this thread (bytes), where the Node entry has said it; else unknown. */
let heapLimit = Number.POSITIVE_INFINITY;

/**
 * Tell the plan V8's heap limit on the main thread (Node entry: `v8.getHeapStatistics()`): a
 * search on that thread keeps its cache's live heap within half of it, so that a `memoryLimit`
 * above the heap limit stops the search at a full cache instead of V8 ending the process.
 */
export function setHeapLimit(bytes: number): void {
  heapLimit = bytes;
}

/** Fewest cache slots a thread may be given (below it, fewer workers). */
export const MIN_SLOTS = 256;

/** How a search's memory is shared: the process's bound, what the search may add, and one search's tables. */
export interface MemoryPlan {
  /** Resident bytes the whole process (every thread) stays under: `memoryLimit`. */
  readonly limitBytes: number;
  /** Resident bytes at which each thread stops the search: the limit less STOP_MARGIN of it. */
  readonly stopBytes: number;
  /** What the search's threads may add: `stopBytes` less Node itself. */
  readonly budgetBytes: number;
  /** One search's fixed tables (codes, histograms, row buffers per level, the depth-2 solver's arrays). */
  readonly tableBytes: number;
  /** One search's pair tables for depth-2 solves (Infinity when they cannot be built). */
  readonly pairBytes: number;
}

/**
 * The share of the limit kept free below it: what the threads allocate between two checks of the
 * resident memory (at most 20 ms apart) and what the main thread does after a stop.
 */
export const STOP_MARGIN = 1 / 32;

/** The plan for `memoryLimit` MB and one search's tables. */
export function memoryPlan(memoryLimit: number, tableBytes: number, pairBytes: number): MemoryPlan {
  const limitBytes = memoryLimit * 2 ** 20;
  const stopBytes = Math.floor(limitBytes * (1 - STOP_MARGIN));
  return { limitBytes, stopBytes, budgetBytes: stopBytes - NODE_MB * 2 ** 20, tableBytes, pairBytes };
}

/** One thread's share: its most cache slots and whether its depth-2 solves keep pair tables. */
export interface ThreadShare {
  readonly maxSlots: number;
  readonly pairs: boolean;
}

/**
 * One searching thread's share of the plan with `workers` worker threads (0: the main thread
 * searches alone). With workers, the main thread keeps one search's tables (without pair tables,
 * which only a depth-2 solve builds) and each worker its runtime, its tables and its cache.
 * Pair tables are kept when they fit a quarter of the thread's share beside its other tables.
 * Null when a thread would get fewer than MIN_SLOTS slots.
 */
export function threadShare(plan: MemoryPlan, workers: number): ThreadShare | null {
  const { budgetBytes, tableBytes, pairBytes } = plan;
  const share = workers === 0 ? budgetBytes : (budgetBytes - tableBytes) / workers - WORKER_BYTES;
  const pairs = Number.isFinite(pairBytes) && tableBytes + pairBytes <= share / 4;
  const slots = Math.floor((share - tableBytes - (pairs ? pairBytes : 0)) / SLOT_BYTES);
  if (slots < MIN_SLOTS) return null;
  // Workers' heaps are capped at the limit itself (parallel-search.ts); the main thread's is V8's own.
  const heapSlots = workers === 0 ? Math.floor(heapLimit / 2 / LIVE_SLOT_BYTES) : MAX_SLOTS;
  return { maxSlots: Math.max(MIN_SLOTS, Math.min(MAX_SLOTS, slots, heapSlots)), pairs };
}

/** Worker threads, at most `wanted`, that each get a share of the plan (fewer than 2: search on one thread). */
export function workersThatFit(plan: MemoryPlan, wanted: number): number {
  let count = wanted;
  while (count >= 2 && threadShare(plan, count) === null) count--;
  return count;
}
