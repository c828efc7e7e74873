/**
 * ONNX export checked in ONNX Runtime (onnxruntime-web's WebAssembly build): float32-safe
 * thresholds, the two-class argmax, categorical chains, missing values, unclassified regions,
 * ordered features and refusals.
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { float32AtOrBelow, nextFloat32Down, nextFloat32Up } from '../../src/export/onnx/float32.js';
import { treeToOnnx } from '../../src/export/onnx/model.js';
import { fit, GroveError, readDataset } from '../../src/node.js';
import { repoRoot } from '../helpers/cli.js';
import { scoreOnnx } from './engines.js';
import { handModel, leaf } from './models.js';
import type { PlainColumn } from './rows.js';

const num = (name: string, values: (number | null)[]): PlainColumn => ({ name, kind: 'number', values });
const str = (name: string, values: (string | null)[]): PlainColumn => ({ name, kind: 'string', values });

describe('float32AtOrBelow', () => {
  it('gives the largest float32 at or below the threshold', () => {
    let seed = 7;
    for (let i = 0; i < 2000; i++) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      const t = ((seed / 2147483648) * 2 - 1) * 10 ** ((i % 20) - 10);
      const r = float32AtOrBelow(t);
      expect(Math.fround(r)).toBe(r);
      expect(r).toBeLessThanOrEqual(t);
      expect(nextFloat32Up(r)).toBeGreaterThan(t);
    }
    expect(float32AtOrBelow(0.1)).toBe(nextFloat32Down(Math.fround(0.1)));
    expect(float32AtOrBelow(0.5)).toBe(0.5);
    expect(float32AtOrBelow(1e300)).toBe(3.4028234663852886e38);
    expect(float32AtOrBelow(-1e300)).toBe(-Infinity);
  });
});

describe('ONNX Runtime predictions', () => {
  it('route values one float32 step either side of every threshold as grove does', async () => {
    const data = await readDataset(resolve(repoRoot, 'data/iris.csv'));
    const tree = fit(data, { algorithm: 'cart', prune: 'none' });
    const bytes = treeToOnnx(tree).bytes;
    const base = [5.8, 3.0, 4.35, 1.3];
    const rows: number[][] = [];
    for (const node of tree.nodes) {
      if (node.split?.kind !== 'numeric') continue;
      for (const t of node.split.thresholds) {
        const t32 = float32AtOrBelow(t);
        for (const x of [nextFloat32Down(t32), t32, nextFloat32Up(t32), nextFloat32Up(nextFloat32Up(t32))]) {
          const row = [...base];
          row[node.split.feature] = x;
          rows.push(row);
        }
      }
    }
    expect(rows.length).toBeGreaterThan(20);
    // Some threshold rounds up to nearest float32: rounding to nearest would misroute that value.
    const roundsUp = tree.nodes.some(
      (n) => n.split?.kind === 'numeric' && n.split.thresholds.some((t) => Math.fround(t) > t),
    );
    expect(roundsUp).toBe(true);
    const columns = tree.features.map((f, j) =>
      num(
        f.name,
        rows.map((r) => r[j]),
      ),
    );
    const got = await scoreOnnx(bytes, columns, rows.length);
    expect(got.labels).toEqual(tree.predict(rows).map(String));
    // The rows straddle thresholds: both sides of some threshold predict differently.
    expect(new Set(got.labels).size).toBeGreaterThan(1);
  });

  it('labels a two-class [0.8, 0.2] leaf with the first class and breaks ties to the lowest index', async () => {
    const tree = handModel(
      [{ name: 'x', kind: 'numeric' }],
      [0, 1],
      [
        {
          counts: [10, 10],
          n: 20,
          depth: 0,
          split: { kind: 'numeric', feature: 0, thresholds: [1, 2] },
          children: [1, 2, 3],
          missingBranch: 1,
        },
        leaf([8, 2]),
        leaf([2, 8]),
        leaf([5, 5]),
      ],
    );
    const got = await scoreOnnx(treeToOnnx(tree).bytes, [num('x', [0, 1.5, 3, null])], 4);
    expect(got.labels).toEqual(['0', '1', '0', '1']);
    expect(Array.from(got.proba, (p) => Number(p.toFixed(6)))).toEqual([0.8, 0.2, 0.2, 0.8, 0.5, 0.5, 0.2, 0.8]);
    expect(tree.predict([[0], [1.5], [3], [null]])).toEqual([0, 1, 0, 1]);
  });

  it('routes multiway chains, unknown and missing categories as grove does', async () => {
    const tree = handModel(
      [{ name: 'colour', kind: 'categorical', categories: ['red', 'green', 'blue', 'grey', 'pink'] }],
      ['a', 'b', 'c', 'd'],
      [
        {
          counts: [1, 1, 1, 1],
          n: 4,
          depth: 0,
          split: { kind: 'multiway', feature: 0, values: [3, 1, 2, 0] },
          children: [1, 2, 3, 4],
          missingBranch: 2,
        },
        leaf([1, 0, 0, 0]),
        leaf([0, 1, 0, 0]),
        leaf([0, 0, 1, 0]),
        leaf([0, 0, 0, 1]),
      ],
    );
    const values = ['red', 'green', 'blue', 'grey', 'pink', 'mauve', '', null];
    const got = await scoreOnnx(treeToOnnx(tree).bytes, [str('colour', values)], values.length);
    expect(got.labels).toEqual(tree.predict(values.map((v) => [v])).map(String));
    expect(got.labels).toEqual(['d', 'b', 'c', 'a', 'c', 'c', 'c', 'c']);
  });

  it('routes subset splits and an ordered feature', async () => {
    const tree = handModel(
      [
        { name: 'size', kind: 'numeric', levels: ['S', 'M', 'L'] },
        { name: 'kind', kind: 'categorical', categories: ['p', 'q', 'r'] },
      ],
      ['no', 'yes'],
      [
        {
          counts: [2, 2],
          n: 4,
          depth: 0,
          split: { kind: 'numeric', feature: 0, thresholds: [1.5] },
          children: [1, 2],
          missingBranch: 1,
        },
        leaf([2, 0]),
        {
          counts: [0, 2],
          n: 2,
          depth: 1,
          split: { kind: 'subset', feature: 1, left: [0], right: [1, 2] },
          children: [3, 4],
          missingBranch: 0,
        },
        leaf([1, 3], 2),
        leaf([3, 1], 2),
      ],
    );
    const size = ['S', 'M', 'L', 'XL', null, 'M', 'M', 'M'];
    const kind = ['p', 'p', 'q', 'r', 'q', 'zz', null, 'r'];
    const got = await scoreOnnx(treeToOnnx(tree).bytes, [str('size', size), str('kind', kind)], size.length);
    expect(got.labels).toEqual(tree.predict(size.map((s, i) => [s, kind[i]])).map(String));
    expect(new Set(got.labels).size).toBe(2);
  });

  it('labels a C-MBSV unclassified region `unclassified` with zero probabilities', async () => {
    const tree = handModel(
      [{ name: 'x', kind: 'numeric' }],
      ['lo', 'hi'],
      [
        {
          counts: [3, 3],
          n: 6,
          depth: 0,
          split: { kind: 'numeric', feature: 0, thresholds: [1, 2] },
          children: [1, 2, 3],
          missingBranch: 0,
        },
        leaf([3, 0]),
        { counts: [0, 0], n: 0, depth: 1, unclassified: true },
        leaf([0, 3]),
      ],
    );
    const got = await scoreOnnx(treeToOnnx(tree).bytes, [num('x', [0.5, 1.5, 2.5, null])], 4);
    expect(got.labels).toEqual(['lo', 'unclassified', 'hi', 'lo']);
    expect(Array.from(got.proba)).toEqual([1, 0, 0, 0, 0, 1, 1, 0]);
    expect(tree.predict([[0.5], [1.5], [2.5], [null]])).toEqual(['lo', null, 'hi', 'lo']);
  });

  it('refuses a model that labels unclassified regions by k-NN', () => {
    const tree = handModel(
      [{ name: 'x', kind: 'numeric' }],
      ['lo', 'hi'],
      [
        {
          counts: [3, 3],
          n: 6,
          depth: 0,
          split: { kind: 'numeric', feature: 0, thresholds: [1, 2] },
          children: [1, 2, 3],
          missingBranch: 0,
        },
        leaf([3, 0]),
        {
          counts: [0, 0],
          n: 0,
          depth: 1,
          unclassified: true,
          knn: { rows: [[0.5]], labels: [0], center: [0], scale: [1] },
        },
        leaf([0, 3]),
      ],
    );
    expect(() => treeToOnnx(tree)).toThrow(GroveError);
    expect(() => treeToOnnx(tree)).toThrow(/k-NN/);
  });

  it('warns that a fractional (C4.5) model is approximated', async () => {
    const data = await readDataset(resolve(repoRoot, 'data/house-votes-84.csv'));
    const { warnings } = treeToOnnx(fit(data, { algorithm: 'c45' }));
    expect(warnings.join('\n')).toMatch(/fractional/);
  });
});
