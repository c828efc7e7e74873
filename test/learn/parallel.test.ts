/**
 * Worker-thread growth (src/learn/threads/parallel-grow.ts) gives the same tree as one thread, node for
 * node, whatever the data and options; and it steps aside where it cannot or should not work.
 * Runs against dist/ (the workers load compiled modules; `npm test` builds first).
 */
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../dist/core/random.js';
import { checkSampleWeights } from '../../dist/data/weights.js';
import { explicitPlan, fitShape, memoryPlan } from '../../dist/learn/threads/memory-plan.js';
import { threadsFor } from '../../dist/learn/threads/parallel-grow.js';
import { ownThreadId, threadAlive } from '../../dist/learn/threads/thread-liveness.js';
import { type Dataset, datasetFromRows, type FitOptions, fit, resolveOptions } from '../../dist/node.js';
import { type Probed, probed } from '../helpers/parallel-probe.js';

/** n rows: 12 numeric features (5 informative, ties from rounding), 2 categorical, 3 classes, label noise. */
function synthetic(n: number, seed: number, missing = 0): Dataset {
  const random = mulberry32(seed);
  const rows = Array.from({ length: n }, () => {
    const y = Math.floor(random() * 3);
    const row: Record<string, unknown> = {};
    for (let f = 0; f < 12; f++) {
      const v = (f < 5 ? y * (f + 1) * 0.3 : 0) + random() * 2;
      row[`x${f}`] = random() < missing ? null : f % 3 === 0 ? Math.round(v * 20) / 20 : v;
    }
    row.colour = random() < missing ? null : ['red', 'green', 'blue', 'grey'][(y + Math.floor(random() * 2)) % 4];
    row.size = ['s', 'm', 'l'][Math.floor(random() * 3)];
    row.y = random() < 0.1 ? `c${Math.floor(random() * 3)}` : `c${y}`;
    return row;
  });
  return datasetFromRows(rows, { target: 'y' });
}

/** `parallel`: the last grow of the fit must have run tasks (true), must not have (false), or may have run on folds too small for threads (null). */
const same = (
  data: Dataset,
  options: FitOptions,
  threads: number,
  parallel: boolean | null = true,
  budget?: number,
): Probed<unknown> => {
  const one = fit(data, { ...options, threads: 1 });
  const many = probed(() => fit(data, { ...options, threads }), { budget });
  // The subtree phase ran (on a parallel fit), or nothing did.
  if (parallel) expect(many.tasks).toBeGreaterThan(threads);
  else if (parallel === false) expect(many.tasks).toBe(0);
  expect(one.nodes.length).toBeGreaterThan(options.prune === 'none' ? 50 : 10);
  expect(JSON.stringify(many.result.nodes)).toBe(JSON.stringify(one.nodes));
  return many;
};

describe('parallel growth', () => {
  const data = synthetic(24000, 1);
  const withMissing = synthetic(24000, 2, 0.05);

  it('is used for a large exact fit', () => {
    expect(data.nRows * data.features.length).toBeGreaterThanOrEqual(1 << 18);
    expect(threadsFor(data, resolveOptions({ prune: 'none' }), 2)).toBe(2);
    expect(threadsFor(withMissing, resolveOptions({ algorithm: 'cart', prune: 'none', missing: 'learned' }), 3)).toBe(
      3,
    );
  });

  for (const [name, options, threads] of [
    ['cart gini, binary categorical splits', { algorithm: 'cart', prune: 'none' }, 2],
    ['three threads', { algorithm: 'cart', prune: 'none' }, 3],
    [
      'gain ratio, multiway splits (features excluded below)',
      { criterion: 'gain-ratio', categoricalSplit: 'multiway', prune: 'none' },
      2,
    ],
    ['c45 preset (average-gain rule, MDL, error-based pruning)', { algorithm: 'c45' }, 2],
    [
      'dcsm with depth and leaf limits, balanced class weights',
      { criterion: 'dcsm', maxDepth: 9, minSamplesLeaf: 5, classWeight: 'balanced', prune: 'none' },
      2,
    ],
    [
      'cost-complexity pruning by 3-fold CV (grows 4 trees; the folds are too small for threads)',
      { algorithm: 'cart', ccpFolds: 3 },
      2,
    ],
  ] as const) {
    it(`grows the one-thread tree: ${name}`, () => same(data, options, threads, 'ccpFolds' in options ? null : true));
  }

  it('grows the one-thread tree in histogram mode (numeric and categorical, missing values learned)', () => {
    expect(threadsFor(data, resolveOptions({ prune: 'none', bins: 255 }), 2)).toBe(2);
    same(data, { algorithm: 'cart', prune: 'none', bins: 32 }, 2);
    same(withMissing, { algorithm: 'cart', prune: 'none', bins: 255, missing: 'learned' }, 3);
  });

  it('plans threads within the memory budget (1.5 × the typed columns + 150 MiB): fewer threads before more memory', () => {
    // 20 float32 columns + int32 labels, float64 row weights, one byte a code; labels and weights copied to each worker.
    const shape = (rows: number, narrow = true) => ({
      rows,
      columns: rows * (20 * (narrow ? 4 : 8) + 4),
      weights: 8 * rows,
      codes: 20 * rows,
      narrow,
      categorical: false,
      copies: 12 * rows,
    });
    expect(memoryPlan(shape(100_000), 2)).toEqual({ bin: 2, grow: 2 });
    expect(memoryPlan(shape(1_000_000, false), 2)).toEqual({ bin: 2, grow: 2 });
    // The issue 16 benchmark: 4M rows bin on one thread and grow on two; 30M rows only on one.
    expect(memoryPlan(shape(4_000_000), 2)).toEqual({ bin: 1, grow: 2 });
    expect(memoryPlan(shape(30_000_000), 2)).toEqual({ bin: 1, grow: 1 });
    // Row weights made in shared memory (as fit makes them), only the labels copied: still binning on one thread.
    expect(memoryPlan({ ...shape(4_000_000), copies: 4 * 4_000_000 }, 2)).toEqual({ bin: 1, grow: 2 });
    // Labels and weights in shared memory cost a worker nothing.
    expect(memoryPlan({ ...shape(30_000_000), copies: 0 }, 2)).toEqual({ bin: 1, grow: 2 });
    // A worker's own heap counts too: the fixed 150 MiB hold Node and three workers' heaps, not seven,
    // and no room is left for the larger heaps of workers that bin.
    expect(memoryPlan(shape(100_000), 8)).toEqual({ bin: 1, grow: 4 });
    // An explicit count grows on that many threads whatever the memory, and bins on as many only within the budget.
    expect(explicitPlan(shape(100_000), 2)).toEqual({ bin: 2, grow: 2 });
    expect(explicitPlan(shape(4_000_000), 2)).toEqual({ bin: 1, grow: 2 });
    expect(explicitPlan(shape(30_000_000), 2)).toEqual({ bin: 1, grow: 2 });
    expect(explicitPlan(shape(100_000), 8)).toEqual({ bin: 1, grow: 8 });
  });

  it("makes a fit's row weights in shared memory, so that the workers read them without a copy", () => {
    for (const given of [undefined, Array.from({ length: data.nRows }, (_, i) => i % 3)]) {
      const weights = checkSampleWeights(given, data.nRows, 'sampleWeight');
      expect(weights.buffer).toBeInstanceOf(SharedArrayBuffer);
      expect(fitShape(data, weights, 0).copies).toBe(data.labels.byteLength);
    }
  });

  it('grows the one-thread tree whatever the memory plan (binning on one thread, or no workers)', () => {
    // A budget with room for a worker but not for its binning scratch, then for nothing beyond one thread.
    const shape = fitShape(data, new Float64Array(data.nRows), data.nRows * data.features.length);
    let budget = 0;
    do budget += 2 ** 16;
    while (memoryPlan(shape, 2, budget).grow === 1);
    expect(memoryPlan(shape, 2, budget)).toEqual({ bin: 1, grow: 2 });
    expect(same(data, { algorithm: 'cart', prune: 'none', bins: 64 }, 2, true, budget).plan).toEqual({
      bin: 1,
      grow: 2,
    });
    expect(same(data, { algorithm: 'cart', prune: 'none', bins: 64 }, 2, false, 0).plan).toEqual({ bin: 1, grow: 1 });
  });

  it('grows the one-thread tree from float32 columns', () => {
    const f32: Dataset = {
      ...data,
      features: data.features.map((col) =>
        col.kind === 'numeric' ? { ...col, values: Float32Array.from(col.values) } : col,
      ),
    };
    same(f32, { algorithm: 'cart', prune: 'none' }, 2);
  });

  it('grows the one-thread tree with missing values (learned and majority)', () => {
    same(withMissing, { algorithm: 'cart', prune: 'none', missing: 'learned' }, 2);
    same(withMissing, { criterion: 'info-gain', prune: 'none', missing: 'majority' }, 2);
  });

  it('steps aside for small data, fractional missing values and run-time criteria', () => {
    const opts = resolveOptions({ prune: 'none' });
    expect(threadsFor(synthetic(2000, 3), opts, 2)).toBe(1);
    expect(threadsFor(data, opts, 1)).toBe(1);
    expect(threadsFor(data, opts, 'auto')).toBe(1); // auto waits for 2^21 row·features
    expect(threadsFor({ ...data, nRows: 160000 }, opts, 'auto')).toBe(Math.min(availableParallelism(), 64)); // 160000 × 14 ≥ 2^21
    expect(threadsFor(withMissing, resolveOptions({ algorithm: 'c45' }), 2)).toBe(1);
    expect(threadsFor(data, resolveOptions({ algorithm: 'c45' }), 2)).toBe(2); // fractional, but nothing missing
    const custom = { name: 'my-gini', better: 'lower' as const, evaluate: () => 0 };
    expect(threadsFor(data, resolveOptions({ criterion: custom, prune: 'none' }), 2)).toBe(1);
    // C4.5 with missing values still fits (on one thread) when threads are asked for.
    same(withMissing, { algorithm: 'c45', prune: 'none' }, 2, false);
  });

  // Needs Linux's /proc to see a thread end while the main thread waits synchronously.
  it.runIf(process.platform === 'linux')(
    'throws, instead of waiting forever, when a worker thread dies during a fit',
    { timeout: 30000 },
    () => {
      expect(threadAlive(ownThreadId())).toBe(true);
      const options: FitOptions = { algorithm: 'cart', prune: 'none', threads: 2 };
      const reference = fit(data, options);
      // The pooled worker ends itself when handed a subtree.
      expect(() => probed(() => fit(data, options), { exitOn: 'grow' })).toThrow(
        /a worker thread stopped without answering/,
      );
      // The dead worker is not reused: the next fit starts a new one and grows the same tree.
      expect(JSON.stringify(fit(data, options).nodes)).toBe(JSON.stringify(reference.nodes));
    },
  );

  it('refuses a bad thread count', () => {
    expect(() => fit(data, { threads: 0 })).toThrow(/threads must be an integer ≥ 1 or 'auto'/);
    expect(() => fit(data, { threads: 1.5 })).toThrow(/threads/);
  });
});
