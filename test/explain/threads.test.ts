/**
 * TreeSHAP with rows shared out among worker threads gives the values one thread gives, bit for
 * bit, on a tree and on a forest; a small job leaves its workers in the pool for the next call. Runs against dist/ (the workers load compiled modules; `npm
 * test` builds first).
 */
import { existsSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fit, fitForest, shapValues } from '../../dist/node.js';
import { synthetic } from './synthetic.js';

const data = synthetic(400, 31, 0.1) as never;

/** Threads of this process now (Linux), or -1 where /proc does not say. */
function threadCount(): number {
  return existsSync('/proc/self/task') ? readdirSync('/proc/self/task').length : -1;
}

// Threads before any worker of this file: later calls may find workers left in the pool.
const atStart = threadCount();

describe('TreeSHAP on worker threads', () => {
  const models = [
    ['a tree', fit(data, { algorithm: 'c45', prune: 'none' })],
    ['a forest', fitForest(data, { trees: 8, maxDepth: 6, seed: 2 })],
  ] as const;
  it.each(models)('%s: 1 and 2 threads give the same values, bit for bit', (_name, model) => {
    const one = shapValues(model, data, { threads: 1 });
    let during = -1;
    const progress: number[] = [];
    const two = shapValues(model, data, {
      threads: 2,
      onProgress: ({ rows }) => {
        progress.push(rows);
        during = Math.max(during, threadCount());
      },
    });
    // A worker was running beside the calling thread while rows came back (where /proc can tell).
    if (atStart > 0) expect(during).toBeGreaterThanOrEqual(atStart + 1);
    expect(Buffer.from(two.values.buffer).equals(Buffer.from(one.values.buffer))).toBe(true);
    expect(Array.from(two.expected)).toEqual(Array.from(one.expected));
    expect(progress.at(-1)).toBe(400);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it('a second call takes the first call’s workers from the pool instead of starting more', () => {
    const model = models[1][1];
    const first = shapValues(model, data, { threads: 2 });
    const before = threadCount();
    let during = -1;
    const second = shapValues(model, data, {
      threads: 2,
      onProgress: () => {
        during = Math.max(during, threadCount());
      },
    });
    if (before > 0) {
      expect(before).toBeGreaterThanOrEqual(atStart + 1); // the pooled worker outlived the first call
      expect(during).toBe(before);
    }
    expect(Buffer.from(second.values.buffer).equals(Buffer.from(first.values.buffer))).toBe(true);
  });

  it('refuses a thread count that is not a positive integer or auto', () => {
    expect(() => shapValues(models[0][1], data, { threads: 0 })).toThrow(/threads must be an integer ≥ 1 or 'auto'/);
    expect(() => shapValues(models[0][1], data, { threads: 1.5 })).toThrow(/threads/);
  });
});
