/**
 * `memoryLimit` bounds the whole process: each thread's cache and tables get a share of what the
 * limit leaves beside Node itself, and every thread stops the search when the process's resident
 * memory passes the limit, returning the best tree so far (never worse than the greedy tree) with
 * the limit, the resident memory and what to change. The one-thread cases read a fixed resident
 * memory (so they stop at the same sub-problem every run); the two-thread case runs the built
 * workers in a process held past the limit.
 */
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fitOptimal as fitOptimalDist } from '../../dist/node.js';
import { treeToText } from '../../src/export/text.js';
import { describeOptimality } from '../../src/model/optimality.js';
import { fit, fitOptimal, readDataset } from '../../src/node.js';
import { SLOT_BYTES } from '../../src/optimal/cache.js';
import {
  MAX_SLOTS,
  type MemoryPlan,
  MIN_SLOTS,
  memoryPlan,
  setHeapLimit,
  threadShare,
  WORKER_BYTES,
  workersThatFit,
} from '../../src/optimal/memory.js';
import { SearchLimits, StopSearch, setResidentMemory } from '../../src/optimal/stop.js';
import { repoRoot } from '../helpers/cli.js';

const MB = 2 ** 20;
const local = (name: string) => readDataset(resolve(repoRoot, `data/${name}.csv`));

afterEach(() => setResidentMemory(undefined));

describe('the search stops at the process memory limit', () => {
  it('one thread: the best tree so far, not proven, the limit and the resident memory in its message', async () => {
    const data = await local('iris');
    setResidentMemory(() => 200 * MB);
    const tree = fitOptimal(data, { maxDepth: 4, memoryLimit: 128 });
    const o = tree.optimality!;
    expect(o.proven).toBe(false);
    expect(o.stopped).toBe('memory');
    expect(o.memoryLimit).toBe(128);
    expect(o.residentBytes).toBe(200 * MB);
    expect(o.cacheBytes).toBe(o.cacheEntries * SLOT_BYTES);
    expect(o.lowerBound).toBeLessThanOrEqual(o.value);
    expect(o.trainingError).toBeLessThanOrEqual(o.greedyError);
    expect(tree.score(data)).toBeCloseTo(1 - o.trainingError, 12);
    expect(treeToText(tree)).toMatch(
      /NOT proven optimal: the search stopped at its memory limit \(resident 200 MB of memoryLimit 128 MB, \d+ cache entries of about \d+ MB; set bins or maxDepth lower, or raise memoryLimit\)/,
    );
    expect(describeOptimality(o, 'flags')).toMatch(
      /memory limit \(resident 200 MB of --memory-limit 128 MB, .*; set --bins or --max-depth lower, or raise --memory-limit\)/,
    );
    // The same stop every run: the first check reads the same memory at the same sub-problem.
    const again = fitOptimal(data, { maxDepth: 4, memoryLimit: 128 });
    expect(again.toJSON().nodes).toEqual(tree.toJSON().nodes);
    expect(again.optimality?.subproblems).toBe(o.subproblems);
  });

  it('one thread under the limit: proven as before', async () => {
    const data = await local('iris');
    setResidentMemory(() => 100 * MB);
    const tree = fitOptimal(data, { maxDepth: 3, memoryLimit: 128 });
    expect(tree.optimality?.proven).toBe(true);
    expect(tree.optimality?.residentBytes).toBeUndefined();
  });

  it('two threads: each worker reads the process, stops, and the best tree comes back', async () => {
    const data = await local('iris');
    // Hold the process past the limit (touched pages count as resident).
    const ballast = Buffer.alloc(192 * MB, 1);
    const tree = fitOptimalDist(data, { maxDepth: 4, memoryLimit: 128, threads: 2 });
    expect(ballast[ballast.length - 1]).toBe(1);
    const o = tree.optimality!;
    expect(o.proven).toBe(false);
    expect(o.stopped).toBe('memory');
    expect(o.residentBytes).toBeGreaterThan(124 * MB);
    expect(o.trainingError).toBeLessThanOrEqual(o.greedyError);
    const greedy = fit(data, { maxDepth: 4, criterion: 'gini', prune: 'none' });
    expect(tree.score(data)).toBeGreaterThanOrEqual(greedy.score(data) - 1e-12);
  });

  it('refuses a limit below what Node itself needs, or not a whole number of MB, in one line', async () => {
    const data = await local('iris');
    for (const bad of [0, 1, 64, 127, 200.5, Number.NaN])
      expect(() => fitOptimal(data, { maxDepth: 2, memoryLimit: bad })).toThrow(
        /^memoryLimit must be an integer ≥ 128/,
      );
    expect(() => fitOptimal(data, { maxDepth: 2, memoryLimit: '512' as unknown as number })).toThrow(/^memoryLimit/);
  });
});

describe('limits and shares', () => {
  it('SearchLimits reads the resident memory at the first check, then at most every 20 ms', () => {
    let reads = 0;
    let resident = 100;
    setResidentMemory(() => {
      reads++;
      return resident;
    });
    const limits = new SearchLimits(undefined, 150);
    limits.check(1000);
    limits.check(1010);
    expect(reads).toBe(1);
    resident = 151;
    limits.check(1019);
    expect(reads).toBe(1);
    let stop: unknown;
    try {
      limits.check(1020);
    } catch (e) {
      stop = e;
    }
    expect(stop).toBeInstanceOf(StopSearch);
    expect((stop as StopSearch).reason).toBe('memory');
    expect((stop as StopSearch).resident).toBe(151);
    expect(() => new SearchLimits(999, undefined).check(1000)).toThrow(StopSearch);
  });

  it('the threads, their tables, runtimes and caches fit the budget', () => {
    const plan: MemoryPlan = memoryPlan(512, 3 * MB, 20 * MB);
    expect(plan.stopBytes).toBe(496 * MB);
    expect(plan.budgetBytes).toBe(432 * MB);
    for (const workers of [0, 2, 3, 4]) {
      const share = threadShare(plan, workers)!;
      const threads = Math.max(1, workers);
      const cache = share.maxSlots * SLOT_BYTES + (share.pairs ? plan.pairBytes : 0) + plan.tableBytes;
      const total = threads * cache + (workers > 0 ? plan.tableBytes + workers * WORKER_BYTES : 0);
      expect(total).toBeLessThanOrEqual(plan.budgetBytes);
      expect(total).toBeGreaterThan(plan.budgetBytes - threads * SLOT_BYTES);
    }
    // Fewer workers when each would get too small a cache.
    const small = { ...plan, budgetBytes: 64 * MB };
    expect(workersThatFit(small, 4)).toBe(2);
    expect(threadShare({ ...plan, budgetBytes: WORKER_BYTES * 2 }, 2)).toBeNull();
    expect(threadShare(plan, 0)!.maxSlots).toBeGreaterThan(MIN_SLOTS);
  });

  it("one thread's cache stays within half of V8's heap limit, whatever memoryLimit says", () => {
    const plan = memoryPlan(16384, 3 * MB, Number.POSITIVE_INFINITY);
    try {
      setHeapLimit(1024 * MB);
      expect(threadShare(plan, 0)!.maxSlots).toBe(Math.floor((512 * MB) / 1000));
      // Workers' heaps are capped at the limit itself: their shares are not held to the main thread's heap.
      expect(threadShare(plan, 2)!.maxSlots).toBe(
        Math.floor(((plan.budgetBytes - 3 * MB) / 2 - WORKER_BYTES - 3 * MB) / SLOT_BYTES),
      );
      expect(threadShare(memoryPlan(2 ** 16, 0, Number.POSITIVE_INFINITY), 2)!.maxSlots).toBe(MAX_SLOTS);
    } finally {
      setHeapLimit(Number.POSITIVE_INFINITY);
    }
  });
});
