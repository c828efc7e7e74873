/**
 * A forest's prediction on worker threads (blocks of rows split between this thread and a worker)
 * gives the same probability bits as on one thread, for numeric forests and for forests whose rows
 * stop where only this thread can finish them (missing values, categorical splits: the worker gives
 * such blocks back). Runs against dist/ (the workers load compiled modules; `npm test` builds first).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { treePolicy } from '../../dist/ensemble/combine.js';
import { compileForest, predictThreads, setParallelSums } from '../../dist/ensemble/compiled-forest.js';
import type { SharedSums } from '../../dist/ensemble/forest-sums.js';
import { PARALLEL_SUMS, runSums } from '../../dist/ensemble/threads/parallel-sums.js';
import { alignInput } from '../../dist/model/align.js';
import { fitForest } from '../../dist/node.js';
import type { Dataset } from '../../src/index.js';
import { numericData } from '../learn/numeric-data.js';
import { synthetic, withMissing } from './synthetic.js';

/** The forest's probabilities with 8-row blocks (many blocks) on `threads` threads. */
function smallBlocks(forest: ReturnType<typeof fitForest>, data: Dataset, threads: number): Float64Array {
  const { columns, nRows } = alignInput(forest.features, data as never);
  const compiled = compileForest(
    forest.trees.map((t) => t.forestPart),
    8,
    threads,
  );
  const policies = forest.trees.map((t) => treePolicy(t));
  return compiled.predictProba(columns, nRows, forest.settings.vote, policies, threads);
}

/**
 * The last parallel job, run with this thread waiting until the worker has joined before it takes
 * its share, so that the worker sums blocks however fast this thread would be alone.
 */
let last: SharedSums | undefined;
function workerFirst(): void {
  setParallelSums({
    threads: PARALLEL_SUMS.threads,
    run: (job, helpers, here) =>
      runSums(job, helpers, () => {
        Atomics.wait(job.counters, 2, 0, 20000);
        here();
        last = job;
      }),
  });
}

function sameBits(a: Float64Array, b: Float64Array): boolean {
  return a.length === b.length && a.every((x, i) => Object.is(x, b[i]));
}

describe('forest prediction threads', () => {
  afterEach(() => {
    setParallelSums(PARALLEL_SUMS);
    last = undefined;
  });

  it('worker threads are registered in Node', () => {
    expect(predictThreads(2)).toBe(2);
    expect(predictThreads('auto')).toBeGreaterThanOrEqual(1);
  });

  it.each(['proba', 'majority'] as const)('numeric forest, %s vote: the same bits on 1 and 2 threads', (vote) => {
    const data = numericData(3000, 7);
    const forest = fitForest(data as never, { trees: 8, seed: 3, vote });
    const one = smallBlocks(forest, data, 1);
    workerFirst();
    expect(sameBits(smallBlocks(forest, data, 2), one)).toBe(true);
    expect(last?.counters[2]).toBe(1); // the worker joined
    expect(last?.givenBack.every((x) => x === 0)).toBe(true);
    expect(sameBits(forest.predictProbaFlat(data as never, { threads: 2 }), one)).toBe(true);
  });

  it('missing values and categorical splits: blocks given back, the same bits on 1 and 2 threads', () => {
    const holes = withMissing(2000, 4, 0.05);
    for (const missing of ['majority', 'learned'] as const) {
      const forest = fitForest(holes as never, { trees: 6, seed: 2, missing, categoricalSplit: 'multiway' });
      const one = smallBlocks(forest, holes, 1);
      workerFirst();
      expect(sameBits(smallBlocks(forest, holes, 2), one)).toBe(true);
      expect(last?.counters[2]).toBe(1);
      expect(last?.givenBack.some((x) => x === 1)).toBe(true);
      expect(sameBits(forest.predictProbaFlat(holes as never, { threads: 'auto' }), one)).toBe(true);
    }
  });

  it('threads must be an integer ≥ 1 or auto', () => {
    const data = synthetic(50, 1);
    const forest = fitForest(data as never, { trees: 2, seed: 1 });
    expect(() => forest.predictProbaFlat(data as never, { threads: 0 })).toThrow(/threads must be an integer/);
  });
});
