/**
 * A forest file of binary numeric splits is compiled for prediction straight from its sections
 * (src/ensemble/forest-compile.ts), its trees made only when asked for: the probabilities are the
 * same bits as the fitted forest's (whose predictor is laid out from its trees), with missing
 * values, on two threads and under either vote; the trees, made later, are the same; and damage the
 * one-pass check meets is refused with the tree reader's own words. Runs against dist/ (the
 * prediction workers load compiled modules).
 */
import { describe, expect, it } from 'vitest';
import { decodeForest, encodeForest } from '../../dist/ensemble/forest-file.js';
import '../../dist/ensemble/threads/parallel-sums.js';
import { fitForest } from '../../dist/node.js';
import type { Dataset } from '../../src/index.js';
import { numericData } from '../learn/numeric-data.js';

function sameBits(a: Float64Array, b: Float64Array): boolean {
  return a.length === b.length && a.every((x, i) => Object.is(x, b[i]));
}

/** Whether the forest has made its trees yet (a forest read for prediction has not). */
const treesMade = (forest: object) => Reflect.get(forest, 'treeList') !== undefined;

describe('a forest compiled from its file', () => {
  it.each(['proba', 'majority'] as const)(
    '%s vote: the same bits as the fitted forest, the trees made later',
    (vote) => {
      const data = numericData(1500, 5) as never;
      const forest = fitForest(data, { trees: 6, seed: 4, vote });
      const back = decodeForest(encodeForest(forest));
      expect(treesMade(back)).toBe(false);
      expect(sameBits(back.predictProbaFlat(data), forest.predictProbaFlat(data))).toBe(true);
      expect(treesMade(back)).toBe(false);
      expect(back.trees.map((t) => t.nodes)).toEqual(forest.trees.map((t) => t.nodes));
      expect(Array.from(back.apply(data))).toEqual(Array.from(forest.apply(data)));
    },
  );

  it('missing values among the rows and the splits: their trees finish them, the same bits', () => {
    const holes = numericData(1500, 6, 'missing') as never;
    for (const missing of ['majority', 'learned'] as const) {
      const forest = fitForest(holes, { trees: 5, seed: 2, missing });
      const back = decodeForest(encodeForest(forest));
      expect(treesMade(back)).toBe(false);
      expect(sameBits(back.predictProbaFlat(holes), forest.predictProbaFlat(holes))).toBe(true);
    }
  });

  it('compiled for two threads as it loads: the same bits on one and two threads', () => {
    const data = numericData(3000, 7) as never;
    const forest = fitForest(data, { trees: 6, seed: 3 });
    const one = forest.predictProbaFlat(data);
    const back = decodeForest(encodeForest(forest), undefined, 2);
    expect(sameBits(back.predictProbaFlat(data, { threads: 2 }), one)).toBe(true);
    expect(sameBits(back.predictProbaFlat(data, { threads: 1 }), one)).toBe(true);
    expect(treesMade(back)).toBe(false);
    // Compiled for one thread, asked for two: laid out again from its trees, the same bits.
    const single = decodeForest(encodeForest(forest));
    expect(sameBits(single.predictProbaFlat(data, { threads: 2 }), one)).toBe(true);
  });

  it('a forest with a categorical feature is read tree by tree, as before', () => {
    const data = numericData(800, 8, 'categorical') as Dataset as never;
    const forest = fitForest(data, { trees: 4, seed: 1, maxFeatures: 21 });
    const back = decodeForest(encodeForest(forest));
    expect(treesMade(back)).toBe(true);
    expect(sameBits(back.predictProbaFlat(data), forest.predictProbaFlat(data))).toBe(true);
  });

  it('damage is refused with the tree reader’s words', () => {
    const bytes = encodeForest(fitForest(numericData(600, 9) as never, { trees: 3, seed: 5 }));
    const cases: [string, (v: DataView, at: (name: string) => number) => void, RegExp][] = [
      ['feature', (v, at) => v.setUint8(at('feature'), 99), /no feature 99/],
      ['firstChild', (v, at) => v.setUint8(at('firstChild'), 0), /children out of range/],
      ['params', (v, at) => v.setFloat64(at('params'), Number.NaN, true), /thresholds not finite/],
      ['kind', (v, at) => v.setUint8(at('kind'), 5), /bad kind 5/],
      ['missingBranch', (v, at) => v.setUint8(at('missingBranch'), 9), /no branch 8 for missing values/],
    ];
    for (const [name, damage, pattern] of cases) {
      const copy = bytes.slice();
      const { offsets } = sectionsOf(copy);
      damage(new DataView(copy.buffer), (s) => offsets.get(s)!);
      reChecksum(copy);
      expect(() => decodeForest(copy, 'crafted.grove'), name).toThrow(pattern);
    }
  });
});

const WIDTH: Record<string, number> = { u8: 1, u16: 2, i32: 4, f32: 4, f64: 8 };

/** The byte offset of each section of a forest file. */
function sectionsOf(bytes: Uint8Array): { offsets: Map<string, number> } {
  const length = new DataView(bytes.buffer, bytes.byteOffset).getUint32(8, true);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(16, 16 + length))) as {
    sections: { name: string; type: string; length: number }[];
  };
  const offsets = new Map<string, number>();
  let at = 16 + length;
  for (const s of header.sections) {
    offsets.set(s.name, at);
    at = (at + s.length * WIDTH[s.type] + 7) & ~7;
  }
  return { offsets };
}

/** The FNV-1a checksum the reader expects, written into bytes 12–15. */
function reChecksum(bytes: Uint8Array): void {
  let h = 0x811c9dc5;
  for (let i = 16; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  new DataView(bytes.buffer).setUint32(12, h >>> 0, true);
}
