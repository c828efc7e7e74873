/**
 * A forest grown on worker threads, each tree whole on one thread, is the forest grown on one
 * thread, bit for bit. Runs against dist/ (the workers load compiled modules; `npm test` builds first).
 */
import { describe, expect, it } from 'vitest';
import { encodeForest } from '../../dist/ensemble/forest-file.js';
import { fitForest } from '../../dist/node.js';
import { numericData } from '../learn/numeric-data.js';
import { synthetic } from './synthetic.js';

const data = synthetic(400, 21);

describe('forest threads', () => {
  it.each(['random-forest', 'extra-trees'] as const)('%s: 1 and 2 threads give the same forest', (kind) => {
    const options = { forest: kind, trees: 6, seed: 5, ...(kind === 'random-forest' ? { oobScore: true } : {}) };
    const one = fitForest(data as never, { ...options, threads: 1 });
    const progress: number[] = [];
    const two = fitForest(data as never, { ...options, threads: 2 }, { onTree: ({ grown }) => progress.push(grown) });
    expect(JSON.stringify(two.trees.map((t) => t.toJSON()))).toBe(JSON.stringify(one.trees.map((t) => t.toJSON())));
    expect(Array.from(two.predictProbaFlat(data as never))).toEqual(Array.from(one.predictProbaFlat(data as never)));
    expect(two.oob?.score).toBe(one.oob?.score);
    expect(progress).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('numeric features without missing values (sorted at each node): the same forest on 1 and 2 threads', () => {
    const numeric = numericData(600, 8);
    const options = { trees: 6, seed: 3, oobScore: true };
    const one = fitForest(numeric as never, { ...options, threads: 1 });
    const two = fitForest(numeric as never, { ...options, threads: 2 });
    expect(Buffer.from(encodeForest(two)).equals(Buffer.from(encodeForest(one)))).toBe(true);
    expect(two.oob?.score).toBe(one.oob?.score);
  });

  it('a histogram forest (the threads bin the features together) is the same on 1, 2 and 3 threads', () => {
    const options = { trees: 6, seed: 4, bins: 32, oobScore: true };
    const one = fitForest(data as never, { ...options, threads: 1 });
    for (const threads of [2, 3]) {
      const more = fitForest(data as never, { ...options, threads });
      expect(Buffer.from(encodeForest(more)).equals(Buffer.from(encodeForest(one)))).toBe(true);
      expect(more.oob?.score).toBe(one.oob?.score);
    }
  });

  it('trees come back from the workers as stores, the forest file the same bytes', () => {
    for (const forest of ['random-forest', 'random-subspace'] as const) {
      const options = { forest, trees: 5, seed: 2, categoricalSplit: 'multiway' } as const;
      const one = fitForest(data as never, { ...options, threads: 1 });
      const two = fitForest(data as never, { ...options, threads: 2 });
      expect(two.trees.every((t) => !Array.isArray(t.grown()))).toBe(true);
      expect(Buffer.from(encodeForest(two)).equals(Buffer.from(encodeForest(one)))).toBe(true);
      expect(JSON.stringify(two.trees.map((t) => t.nodes))).toBe(JSON.stringify(one.trees.map((t) => t.nodes)));
    }
  });

  it('pooled workers grow the next forest from its own data and options', () => {
    const other = synthetic(300, 4);
    const jobs = [
      [data, { forest: 'extra-trees', trees: 4, seed: 1, criterion: 'dcsm' }],
      [other, { trees: 3, seed: 9, maxDepth: 4 }],
      [data, { forest: 'bagging', trees: 3, seed: 2, bins: 16 }],
    ] as const;
    for (const [rows, options] of jobs) {
      const two = fitForest(rows as never, { ...options, threads: 2 });
      const one = fitForest(rows as never, { ...options, threads: 1 });
      expect(Buffer.from(encodeForest(two)).equals(Buffer.from(encodeForest(one)))).toBe(true);
    }
  });

  it('a warm start on 2 threads adds the trees one thread grows at once', () => {
    const small = fitForest(data as never, { trees: 3, seed: 8, threads: 2 });
    const warm = fitForest(data as never, { trees: 7, seed: 8, threads: 2 }, { warmStart: small });
    const once = fitForest(data as never, { trees: 7, seed: 8, threads: 1 });
    expect(JSON.stringify(warm.trees.map((t) => t.nodes))).toBe(JSON.stringify(once.trees.map((t) => t.nodes)));
  });
});
