import { describe, expect, it } from 'vitest';
import { pessimisticError, prunePessimistic } from '../../src/prune/pessimistic.js';
import { asModel, build, leafCounts, type Spec, shape } from './helpers.js';

describe('pessimistic error (metrics tutorial, "Pessimistic approach")', () => {
  it('30 leaves, 10 training errors out of 1000 rows: (10 + 30 · 0.5) / 1000 = 2.5%', () => {
    // Leaves 0..9: [32, 1] (one error each, 33 rows) → 330 rows, 10 errors;
    // leaves 10..29: ten pure [33, 0] and ten pure [0, 34] → 670 rows, 0 errors. Total 1000.
    const leaves: number[][] = [
      ...Array.from({ length: 10 }, () => [32, 1]),
      ...Array.from({ length: 10 }, () => [33, 0]),
      ...Array.from({ length: 10 }, () => [0, 34]),
    ];
    // A left-deep chain of binary splits holding the 30 leaves.
    let spec: Spec = leaves[29];
    for (let i = 28; i >= 0; i--) spec = { kids: [leaves[i], spec] };
    const nodes = build(spec);
    expect(nodes.filter((n) => !n.children)).toHaveLength(30);
    expect(nodes[0].counts.reduce((a, b) => a + b)).toBe(1000);
    // Training error 10 / 1000 = 1%; pessimistic (10 + 15) / 1000 = 0.025.
    expect(pessimisticError(nodes)).toBeCloseTo(0.025, 15);
  });

  it('prunes exactly the subtree whose leaf estimate is no worse (tutorial rule), bottom-up', () => {
    // root [20,10]
    //   A [15,3]: A1 [10,1], A2 [5,2]   leaf e' = 3 + 0.5 = 3.5 ≤ subtree (1 + .5) + (2 + .5) = 4 → prune
    //   B [5,7]:  B1 [5,0],  B2 [0,7]   leaf e' = 5 + 0.5 = 5.5 > subtree 0.5 + 0.5 = 1       → keep
    // root: leaf e' = 10.5 > subtree (A leaf 3.5) + 1 = 4.5                                  → keep
    const nodes = build({
      kids: [
        {
          kids: [
            [10, 1],
            [5, 2],
          ],
        },
        {
          kids: [
            [5, 0],
            [0, 7],
          ],
        },
      ],
    });
    const before = JSON.stringify(nodes);
    const pruned = prunePessimistic(nodes);
    expect(JSON.stringify(nodes)).toBe(before); // input untouched
    expect(shape(pruned)).toBe('[L [L L]]');
    expect(leafCounts(pruned)).toEqual([
      [15, 3],
      [5, 0],
      [0, 7],
    ]);
    expect(pruned.map((n) => n.depth)).toEqual([0, 1, 1, 2, 2]);
    expect(pruned[1].split).toBeUndefined();
    asModel(pruned); // a valid model
    // Pessimistic error goes from (3 + 4 · 0.5) / 30 = 5/30 to (3 + 3 · 0.5) / 30 = 4.5/30.
    expect(pessimisticError(nodes)).toBeCloseTo(5 / 30, 15);
    expect(pessimisticError(pruned)).toBeCloseTo(4.5 / 30, 15);
  });

  it("Quinlan's one-standard-error rule prunes more", () => {
    // E [10,4]: E1 [9,1], E2 [1,3]. Leaf e' = 4.5; subtree e' = 1.5 + 1.5 = 3.
    // Tutorial rule: 4.5 > 3 → keep. Quinlan (1987): SE = √(3 · (14 − 3) / 14) = √2.357… = 1.5353…,
    // 4.5 ≤ 3 + 1.5353 = 4.5353 → prune.
    const nodes = build({
      kids: [
        [9, 1],
        [1, 3],
      ],
    });
    expect(shape(prunePessimistic(nodes))).toBe('[L L]');
    expect(shape(prunePessimistic(nodes, { standardError: true }))).toBe('L');
  });
});
