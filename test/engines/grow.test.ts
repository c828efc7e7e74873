import { describe, expect, it } from 'vitest';
import { type EngineEntry, EngineGrower, type Family } from '../../src/engines/grow.js';
import type { EngineSchema } from '../../src/engines/schema.js';
import { resolveOptions } from '../../src/options/resolve.js';
import type { BinnedFeature } from '../../src/split/histogram.js';

/** Two classes; a numeric feature of 4 bins and a categorical one of 3 categories. */
function grower(): EngineGrower {
  const schema = {
    features: [
      { name: 'a', kind: 'numeric' },
      { name: 'b', kind: 'categorical', categories: ['x', 'y', 'z'] },
    ],
    classes: ['p', 'q'],
  } as unknown as EngineSchema;
  return new EngineGrower(schema, [{ bins: 4 } as BinnedFeature, null], resolveOptions({ bins: 4, prune: 'none' }));
}

const entry = (id: number) => ({ id, slot: -1 }) as EngineEntry;
const family = (ids: number[], derived: number | null = null): Family => ({
  parent: null,
  counted: ids.map((id) => ({ id, entry: entry(id) })),
  derived: derived === null ? null : entry(derived),
  first: 0,
});

describe('EngineGrower', () => {
  it('lays out a histogram as HistGrower does: per feature, (codes + missing) × (classes + rows)', () => {
    const g = grower();
    expect(g.nBins).toEqual([4, 3]);
    expect(g.layout).toMatchObject({ k: 2, d: 2, stride: 3, offset: Int32Array.from([0, 15]) });
    expect(g.pool.take()).toHaveLength(27);
    expect(g.weighted).toBe(false);
    const root = g.root(10, Float64Array.from([6, 4]), true);
    expect(g.weighted).toBe(true);
    expect(g.levelFamilies(0, [root])).toEqual([
      { parent: null, counted: [{ id: 0, entry: root }], derived: null, first: 0 },
    ]);
  });

  it('gives counted nodes the first slots, family by family, then the derived ones', () => {
    const families = [family([3, 4], 5), family([6]), family([7, 8], 9)];
    const slots = grower().assignSlots(families);
    expect([...slots]).toEqual([
      [3, 0],
      [4, 1],
      [6, 2],
      [7, 3],
      [8, 4],
      [5, 5],
      [9, 6],
    ]);
    expect(families.map((f) => f.first)).toEqual([0, 2, 3]);
    expect(families[2].derived!.slot).toBe(6);
    expect(families[2].counted[1].entry!.slot).toBe(4);
  });

  it('batches families within the cell budget, never splitting one', () => {
    const g = grower();
    const families = [family([1, 2]), family([3]), family([4, 5, 6])];
    const sizes = (batches: Family[][]) => batches.map((b) => b.map((f) => f.counted.length));
    expect(sizes(g.batches(families, 27 * 3))).toEqual([[2, 1], [3]]);
    expect(sizes(g.batches(families, 1))).toEqual([[2], [1], [3]]);
    expect(sizes(g.batches(families, 27 * 6))).toEqual([[2, 1, 3]]);
  });
});
