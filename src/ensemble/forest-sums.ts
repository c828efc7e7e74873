import type { AlignedColumn } from '../model/align.js';
import type { RouteParts, RouteWalker } from '../model/route-walk.js';
import { addVote } from './combine.js';

/**
 * A compiled forest's probability sums over blocks of rows, split between this thread and worker
 * threads (threads/parallel-sums.ts): every array is in a SharedArrayBuffer, each thread walks the
 * same records with its own block (`RouteWalker` slot), and a block of rows is summed whole by one
 * thread, trees in order, so the sums are the same bits on any number of threads.
 */
export interface SharedSums {
  parts: RouteParts;
  /** The plain leaves' class distributions (`CompiledForest`'s `leafProba`). */
  leafProba: Float64Array;
  k: number;
  trees: number;
  majority: boolean;
  /** The aligned columns, by model feature: the used ones shared, the others empty. */
  columns: AlignedColumn[];
  nRows: number;
  /** The sums, row-major (k classes), not yet divided by the number of trees. */
  sum: Float64Array;
  /** [0]: the next block to claim (`Atomics.add`); [1]: blocks finished (or given back); [2]: workers that joined. */
  counters: Int32Array;
  /** Per block: 1 when a worker gave it back (a stop it cannot finish): this thread sums it again. */
  givenBack: Uint8Array;
}

/**
 * Add the forest's terms for rows base..base+count-1 (one block, copied into `walker`'s block by
 * `fill`) into `sum`, trees in order. A stop that is not a plain leaf (its tag < 0: a missing value
 * or a node the fast walk leaves to its tree) goes to `finish(t, row, tag, at)`, which adds that
 * tree's term for the row; without `finish` the block is abandoned: false (its sums partial).
 */
export function sumBlock(
  walker: RouteWalker,
  job: Pick<SharedSums, 'leafProba' | 'k' | 'trees' | 'majority' | 'sum'>,
  base: number,
  count: number,
  stops: Int32Array,
  finish?: (t: number, row: number, tag: number, at: number) => void,
): boolean {
  const { leafProba, k, sum, majority } = job;
  for (let t = 0; t < job.trees; t++) {
    walker.walk(t, count, stops, true);
    if (k === 2 && !majority && sumTwo(leafProba, sum, stops, base, count)) continue;
    for (let j = 0, at = base * k; j < count; j++, at += k) {
      // The stop's tag: a plain leaf's distribution in `leafProba`, -2 - the id of another stop,
      // -1 for a missing value.
      const leaf = stops[j];
      if (leaf < 0) {
        if (!finish) return false;
        finish(t, base + j, leaf, at);
      } else if (majority) addVote(leafProba, leaf, k, sum, at);
      // A plain leaf: its own distribution, as `probaFrom` would copy it.
      else for (let c = 0; c < k; c++) sum[at + c] += leafProba[leaf + c];
    }
  }
  return true;
}

/**
 * `sumBlock`'s sums of one tree for two classes under the `proba` vote, written out (the same
 * additions); false, nothing added, when a row's stop is not a plain leaf (the general loop
 * takes the tree then).
 */
function sumTwo(leafProba: Float64Array, sum: Float64Array, stops: Int32Array, base: number, count: number): boolean {
  for (let j = 0; j < count; j++) if (stops[j] < 0) return false;
  for (let j = 0, at = 2 * base; j < count; j++, at += 2) {
    const leaf = stops[j];
    sum[at] += leafProba[leaf];
    sum[at + 1] += leafProba[leaf + 1];
  }
  return true;
}

/**
 * Claim blocks of `job` (its counter) and sum each with `walker` until none is left: a worker's
 * loop (no `finish`: a block it cannot finish is given back), and this thread's beside it.
 */
export function sumClaimed(
  walker: RouteWalker,
  job: SharedSums,
  finish?: (t: number, row: number, tag: number, at: number) => void,
): void {
  const block = walker.block;
  const blocks = Math.ceil(job.nRows / block);
  const stops = new Int32Array(block);
  const counters = job.counters;
  for (let b = Atomics.add(counters, 0, 1); b < blocks; b = Atomics.add(counters, 0, 1)) {
    const base = b * block;
    const count = Math.min(block, job.nRows - base);
    let whole = false;
    try {
      walker.fill(job.columns, base, count);
      whole = sumBlock(walker, job, base, count, stops, finish);
    } finally {
      // A block not summed whole (even on an error) is given back, and always counted as finished.
      if (!whole) job.givenBack[b] = 1;
      Atomics.add(counters, 1, 1);
      Atomics.notify(counters, 1);
    }
  }
}
