import { describe, expect, it } from 'vitest';
import { datasetFromRows } from '../../src/data/encode.js';
import { pruneReducedError, routeValidation, stratifiedHoldOut } from '../../src/prune/reduced-error.js';
import { asModel, build, leafCounts, shape } from './helpers.js';

describe('reduced-error pruning', () => {
  // Training tree (classes a, b):
  //   root [11,13] x ≤ 5   (class b)
  //     L [10,2] z ≤ 0.5   (class a): L1 [10,0] (a), L2 [0,2] (b)
  //     R [1,11] leaf      (class b)
  const nodes = build({
    split: { kind: 'numeric', feature: 0, thresholds: [5] },
    kids: [
      {
        split: { kind: 'numeric', feature: 1, thresholds: [0.5] },
        kids: [
          [10, 0],
          [0, 2],
        ],
      },
      [1, 11],
    ],
  });

  it('prunes a subtree when the validation errors do not increase, bottom-up', () => {
    // Validation rows (x, z, y): in L, 3 rows with z = 0 (all a) and 2 with z = 1 (both a);
    // in R, 4 b and 1 a.
    //   L1 (class a) 0 errors + L2 (class b) 2 errors = 2 > L as a leaf (class a): 0 → prune L.
    //   root as a leaf (class b): 5 + 1 = 6 errors > L leaf 0 + R 1 = 1 → keep.
    const rows = [
      ...[0, 0, 0, 1, 1].map((z) => ({ x: 1, z, y: 'a' })),
      ...['b', 'b', 'b', 'b', 'a'].map((y) => ({ x: 9, z: 0, y })),
    ];
    const data = datasetFromRows(rows, { target: 'y' });
    const weights = new Float64Array(data.nRows).fill(1);
    const validation = routeValidation(
      nodes,
      data,
      weights,
      Array.from({ length: data.nRows }, (_, i) => i),
      'majority',
    );
    // Per node (ids 0 root, 1 L, 2 R, 3 L1, 4 L2): validation class weights.
    expect(validation).toEqual([
      [6, 4],
      [5, 0],
      [1, 4],
      [3, 0],
      [2, 0],
    ]);
    const pruned = pruneReducedError(nodes, validation);
    expect(shape(pruned)).toBe('[L L]');
    // Leaves keep their training counts (and so their training class).
    expect(leafCounts(pruned)).toEqual([
      [10, 2],
      [1, 11],
    ]);
    asModel(pruned);
  });

  it('keeps a subtree that lowers the validation errors; a tie prunes', () => {
    // Validation per node: root [4,6], L [3,2], R [1,4], L1 [3,0], L2 [0,2]:
    //   L: subtree 0 + 0 = 0 errors < leaf (a) 2 → keep;  root: leaf (b) 4 > 0 + 1 → keep.
    expect(
      shape(
        pruneReducedError(nodes, [
          [4, 6],
          [3, 2],
          [1, 4],
          [3, 0],
          [0, 2],
        ]),
      ),
    ).toBe('[[L L] L]');
    // L1 [3,0], L2 [1,1]: subtree 0 + 1 = 1 = leaf (a) errors 1 → prune (errors do not increase).
    expect(
      shape(
        pruneReducedError(nodes, [
          [5, 5],
          [4, 1],
          [1, 4],
          [3, 0],
          [1, 1],
        ]),
      ),
    ).toBe('[L L]');
    // No validation row anywhere: nothing to lose, everything is pruned.
    expect(
      shape(
        pruneReducedError(
          nodes,
          nodes.map(() => [0, 0]),
        ),
      ),
    ).toBe('L');
  });

  it('holds out a stratified, seeded fraction', () => {
    const labels = Int32Array.from({ length: 30 }, (_, i) => (i < 21 ? 0 : 1)); // 21 a, 9 b
    const a = stratifiedHoldOut(labels, 2, 1 / 3, 7);
    expect(a.validation).toHaveLength(7 + 3); // round(21/3) + round(9/3)
    expect(a.train).toHaveLength(20);
    expect(a.validation.filter((i) => labels[i] === 1)).toHaveLength(3);
    expect(stratifiedHoldOut(labels, 2, 1 / 3, 7)).toEqual(a);
    expect(stratifiedHoldOut(labels, 2, 1 / 3, 8)).not.toEqual(a);
  });
});
