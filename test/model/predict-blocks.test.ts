/**
 * The block predictor (src/model/fast-routes.ts) against a plain walk of the node list, on data
 * that exercise every way out of its fast path: leaves, categorical nodes, multi-threshold
 * (C-MBSV) nodes, missing values under each policy, and row counts that are not a multiple of
 * the block size.
 */
import { describe, expect, it } from 'vitest';
import { fit } from '../../src/algorithms/fit.js';
import { mulberry32 } from '../../src/core/random.js';
import type { Dataset } from '../../src/data/dataset.js';
import { datasetFromRows } from '../../src/data/encode.js';
import { subsetRows } from '../../src/data/subset.js';
import type { DecisionTree } from '../../src/model/decision-tree.js';
import { BLOCK } from '../../src/model/fast-routes.js';

function rows(n: number, seed: number, missing: number) {
  const random = mulberry32(seed);
  return Array.from({ length: n }, () => {
    const a = random() * 10;
    const b = random() * 10;
    const colour = ['red', 'green', 'blue'][Math.floor(random() * 3)];
    const y = (a > 5 ? 1 : 0) + (colour === 'red' ? 1 : 0) + (b > 7 && random() < 0.8 ? 1 : 0);
    const cell = (v: unknown) => (random() < missing ? null : v);
    return { a: cell(a), b: cell(b), noise: cell(random()), colour: cell(colour), y: ['low', 'mid', 'high', 'top'][y] };
  });
}

/** Class code by walking the node objects (the saved form), one row at a time. */
function walk(tree: DecisionTree, data: Dataset, i: number): number {
  let node = tree.nodes[0];
  for (;;) {
    const split = node.split;
    if (!split || !node.children) break;
    const column = data.features[split.feature];
    let branch: number;
    if (column.kind === 'numeric') {
      const x = column.values[i];
      if (Number.isNaN(x)) return -2; // missing: not a fast-path case, compared separately
      if (split.kind !== 'numeric') throw new Error('numeric column, non-numeric split');
      branch = split.thresholds.findIndex((t) => x <= t);
      if (branch < 0) branch = split.thresholds.length;
    } else {
      if (column.codes[i] < 0) return -2;
      const code = tree.features[split.feature].categories!.indexOf(column.categories[column.codes[i]]);
      if (split.kind === 'subset') branch = split.left.includes(code) ? 0 : split.right.includes(code) ? 1 : -1;
      else if (split.kind === 'multiway') branch = split.values.indexOf(code);
      else throw new Error('categorical column, numeric split');
      if (branch < 0) return -2; // no branch for this category: the missing-value policy decides
    }
    node = tree.nodes[node.children[branch]];
  }
  return node.counts.indexOf(Math.max(...node.counts));
}

describe('block prediction', () => {
  const n = 3 * BLOCK + 37;
  for (const [name, options] of [
    ['cart, numeric only', { algorithm: 'cart', prune: 'none', categorical: 'binary' }],
    ['c45 with fractional missing values', { algorithm: 'c45', prune: 'none' }],
    ['cart with learned missing directions', { algorithm: 'cart', prune: 'none', missing: 'learned' }],
    ['cmbsv (multi-threshold nodes)', { algorithm: 'cmbsv' }],
  ] as const) {
    it(`matches a per-row walk: ${name}`, () => {
      const train = datasetFromRows(rows(600, 1, name.includes('missing') ? 0.1 : 0), { target: 'y' });
      const tree = fit(train, options);
      const test = datasetFromRows(rows(n, 2, name.includes('missing') ? 0.1 : 0), { target: 'y' });
      const codes = tree.predictCodes(test);
      const proba = tree.predictProbaFlat(test);
      const k = tree.classes.length;
      let compared = 0;
      for (let i = 0; i < n; i++) {
        // Every row: the class is the most probable one of predictProba (ties to the lowest).
        if (codes[i] >= 0) {
          const p = Array.from(proba.subarray(i * k, i * k + k));
          expect(codes[i]).toBe(p.indexOf(Math.max(...p)));
        }
        const expected = walk(tree, test, i);
        if (expected === -2) continue;
        // C-MBSV unclassified leaves predict -1 (null); the walk's majority is then meaningless.
        if (codes[i] === -1) continue;
        expect(codes[i]).toBe(expected);
        compared++;
      }
      expect(compared).toBeGreaterThan(n / 4);
      // Rows keep their answers when the batch starts elsewhere (other block boundaries).
      const from = 100;
      const shifted = tree.predictCodes(
        subsetRows(
          test,
          Array.from({ length: n - from }, (_, i) => from + i),
        ),
      );
      expect(Array.from(shifted)).toEqual(Array.from(codes.subarray(from)));
    });
  }
});
