/**
 * The optimal search with its root features shared among worker threads finds the tree one
 * thread finds: same nodes, same tests, on data with ties between features (a duplicated column),
 * categorical subsets, missing values and a leaf limit. Runs against dist/ (the workers load
 * compiled modules; `npm test` builds first).
 */
import { existsSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GroveError } from '../../dist/core/errors.js';
import { mulberry32 } from '../../dist/core/random.js';
import { datasetFromRows } from '../../dist/data/encode.js';
import { fitOptimal } from '../../dist/node.js';
import { binarise } from '../../src/optimal/binarise.js';
import { assembleRoot, featureBound } from '../../src/optimal/parallel.js';
import { OptimalSearch } from '../../src/optimal/search.js';
import type { Solution } from '../../src/optimal/solution.js';

/** Threads of this process now (Linux), or -1 where /proc does not say. */
function threadCount(): number {
  return existsSync('/proc/self/task') ? readdirSync('/proc/self/task').length : -1;
}

function data(seed: number, n: number) {
  const random = mulberry32(seed);
  const pick = (m: number) => Math.floor(random() * m);
  const colours = ['red', 'green', 'blue', 'grey', 'pink'];
  const rows = Array.from({ length: n }, () => {
    const a = pick(8);
    const b = pick(6);
    const c = pick(5);
    const y = random() < 0.8 ? ['p', 'q', 'r'][(a + b + (c % 2)) % 3] : ['p', 'q', 'r'][pick(3)];
    // `twin` repeats `a`: every test on one has an equal test on the other (ties across features).
    return { a, twin: a, b: random() < 0.1 ? null : b, colour: random() < 0.1 ? null : colours[c], y };
  });
  return datasetFromRows(rows, { target: 'y' });
}

// Threads before any worker of this file: a case's terminated workers may still be ending when
// the next case counts, so each case compares with this.
const atStart = threadCount();

describe('optimal trees on worker threads', () => {
  const cases = [
    ['depth 3', 1, { maxDepth: 3 }],
    ['depth 4, 4 bins', 2, { maxDepth: 4, bins: 4 }],
    ['depth 3, at most 5 leaves', 3, { maxDepth: 3, maxLeaves: 5 }],
    ['depth 3, sparse objective', 4, { maxDepth: 3, objective: 'sparse', alpha: 0.01 }],
  ] as const;
  it.each(cases)('%s: 1 and 2 threads give the same tree', (_name, seed, options) => {
    const d = data(seed, 240);
    const one = fitOptimal(d, { ...options, threads: 1 });
    let during = -1;
    const two = fitOptimal(
      d,
      { ...options, threads: 2 },
      { onProgress: () => (during = Math.max(during, threadCount())) },
    );
    // The workers were running while features came back (where /proc can tell).
    if (atStart > 0) expect(during).toBeGreaterThanOrEqual(atStart + 2);
    expect(one.optimality?.proven).toBe(true);
    expect(two.optimality?.proven).toBe(true);
    expect(two.toJSON().nodes).toEqual(one.toJSON().nodes);
    expect(two.optimality?.value).toBe(one.optimality?.value);
  });

  it('refuses a bad thread count in one line', () => {
    expect(() => fitOptimal(data(5, 40), { maxDepth: 3, threads: 0 })).toThrow(GroveError);
    expect(() => fitOptimal(data(5, 40), { maxDepth: 3, threads: 0 })).toThrow(/^threads must be an integer ≥ 1/);
  });
});

describe('root features searched in any order, put together, give the one-thread tree', () => {
  // The order most likely to break ties the wrong way: each feature searched after every later
  // feature has published its best (a worker on `twin` finishing before the one on `a`).
  it.each([1, 2, 3])('seed %i: later features first', (seed) => {
    const d = data(seed, 200);
    const b = binarise(d, new Float64Array(d.nRows).fill(1));
    const settings = { maxDepth: 3, maxLeaves: Infinity, penalty: 2 ** -5, maxSlots: 1e6 };
    const one = new OptimalSearch(b, settings).solveRoot(Infinity);
    const search = new OptimalSearch(b, settings);
    const F = b.features.length;
    const best = new Float64Array(F).fill(Infinity);
    const perFeature: (Solution | null)[] = new Array(F).fill(null);
    const leaf = search.rootLeaf();
    for (let f = F - 1; f >= 0; f--) {
      const publish = (cost: number) => {
        best[f] = Math.min(best[f], cost);
      };
      perFeature[f] = search.solveRootFeature(f, leaf.cost, () => featureBound(best, f, leaf.cost, 1e-9), publish);
    }
    const together = assembleRoot(leaf, Infinity, perFeature);
    expect(together?.test?.feature).toBe(one?.test?.feature);
    expect(JSON.stringify(together)).toBe(JSON.stringify(one));
  });
});
