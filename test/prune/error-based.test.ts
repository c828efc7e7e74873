import { describe, expect, it } from 'vitest';
import { datasetFromRows } from '../../src/data/encode.js';
import { addErrs, c45Coefficient, collapseTree, leafEstimate, pruneErrorBased } from '../../src/prune/error-based.js';
import { asModel, build, leafCounts, shape } from './helpers.js';

const Z2 = 0.47955625; // C4.5's z² for CF = 0.25, see below

describe("C4.5's AddErrs (release 8, stats.c)", () => {
  it('interpolates z in its table: CF = 0.25 → z = 0.84 + (0.25 − 0.84) · (0.05 / 0.2) = 0.6925', () => {
    expect(c45Coefficient(0.25)).toBeCloseTo(0.6925 ** 2, 14);
    expect(c45Coefficient(0.1)).toBeCloseTo(1.28 ** 2, 14); // a table entry: z = 1.28
    expect(c45Coefficient(0.2)).toBeCloseTo(0.84 ** 2, 14);
    // CF = 0.3: z = 0.84 + (0.25 − 0.84) · (0.1 / 0.2) = 0.545
    expect(c45Coefficient(0.3)).toBeCloseTo(0.545 ** 2, 14);
    expect(() => c45Coefficient(0)).toThrow(/confidence/);
  });

  it('E = 0: N · (1 − CF^(1/N)), the exact binomial (Clopper–Pearson) bound', () => {
    // P(0 errors | U) = (1 − U)^N = CF → U = 1 − CF^(1/N). N = 6: 0.25^(1/6) = e^(ln 0.25 / 6)
    // = e^(−0.2310491) = 0.7937005, U = 0.2062995 (Quinlan's U_25%(0, 6) = 0.206), N · U = 1.2377968.
    expect(addErrs(6, 0, 0.25)).toBeCloseTo(1.2377968, 6);
    expect(addErrs(6, 0, 0.25) / 6).toBeCloseTo(0.206, 3);
    // N = 9: 9 · (1 − 0.25^(1/9)) = 9 · (1 − 0.8572439) = 1.2848042 (Quinlan: 0.143 · 9)
    expect(addErrs(9, 0, 0.25)).toBeCloseTo(1.2848042, 6);
    // N = 1: 1 − 0.25 = 0.75
    expect(addErrs(1, 0, 0.25)).toBeCloseTo(0.75, 12);
    // N = 0.5 (fractional weights): 0.5 · (1 − 0.25²) = 0.46875
    expect(addErrs(0.5, 0, 0.25)).toBeCloseTo(0.46875, 12);
  });

  it('E ≥ 1: the normal approximation with continuity correction', () => {
    // N = 16, E = 1 (Quinlan's example, C4.5 book p. 41, U = 0.157):
    //   e + 0.5 = 1.5; 1.5 · (1 − 1.5/16) = 1.359375; + z²/4 = 0.1198891 → 1.4792641
    //   √(z² · 1.4792641) = √0.7093911 = 0.8422536
    //   U = (1.5 + z²/2 + 0.8422536) / (16 + z²) = (1.5 + 0.2397781 + 0.8422536) / 16.4795563 = 0.1566808
    //   AddErrs = 16 · U − 1 = 1.5068940   (exact Clopper–Pearson: 16 · 0.1596 − 1 = 1.554)
    expect(addErrs(16, 1, 0.25)).toBeCloseTo(1.506894, 6);
    // N = 10, E = 1: 1.5 · 0.85 = 1.275 + 0.1198891 = 1.3948891; √(z² · 1.3948891) = 0.8178739;
    //   U = (1.5 + 0.2397781 + 0.8178739) / 10.4795563 = 0.2440617 → 10 U − 1 = 1.4406169
    expect(addErrs(10, 1, 0.25)).toBeCloseTo(1.4406169, 6);
    // N = 100, E = 20: 20.5 · 0.795 = 16.2975 + 0.1198891 = 16.4173891; √(z² · 16.4173891) = 2.8058949;
    //   U = (20.5 + 0.2397781 + 2.8058949) / 100.4795563 = 0.2343300 → 100 U − 20 = 3.4330
    expect(addErrs(100, 20, 0.25)).toBeCloseTo(3.4333, 3);
    // CF = 0.1 (z = 1.28, z² = 1.6384), N = 20, E = 2: 2.5 · 0.875 = 2.1875 + 0.4096 = 2.5971;
    //   √(1.6384 · 2.5971) = 2.0627956; U = (2.5 + 0.8192 + 2.0627956) / 21.6384 = 0.2487243 → 20 U − 2 = 2.974486
    expect(addErrs(20, 2, 0.1)).toBeCloseTo(2.97448, 4);
  });

  it('0 < E < 1: linear interpolation between AddErrs(N, 0) and AddErrs(N, 1)', () => {
    // N = 10, E = 0.5: AddErrs(10, 0) = 10 (1 − 0.25^0.1) = 1.2944944, AddErrs(10, 1) = 1.4406169
    //   → 1.2944944 + 0.5 · (1.4406169 − 1.2944944) = 1.3675556
    expect(addErrs(10, 0.5, 0.25)).toBeCloseTo(1.3675556, 6);
    // N = 1, E = 0.5: AddErrs(1, 0) = 0.75; AddErrs(1, 1) = 0.67 · (1 − 1) = 0 → 0.75 − 0.5 · 0.75 = 0.375
    expect(addErrs(1, 0.5, 0.25)).toBeCloseTo(0.375, 12);
  });

  it('E + 0.5 ≥ N: 0.67 · (N − E)', () => {
    expect(addErrs(2, 1.6, 0.25)).toBeCloseTo(0.67 * 0.4, 12);
    expect(addErrs(3, 2.5, 0.25)).toBeCloseTo(0.67 * 0.5, 12);
    expect(addErrs(4, 4, 0.25)).toBe(0);
  });

  it('agrees with the Wilson-form upper limit written independently', () => {
    // U = (f + z²/2N + z √(f/N − f²/N + z²/4N²)) / (1 + z²/N), f = (E + 0.5) / N (Weka's form).
    const z = Math.sqrt(Z2);
    for (const [N, E] of [
      [30, 3],
      [50, 10],
      [7.5, 2.25],
      [1000, 1],
    ]) {
      const f = (E + 0.5) / N;
      const U = (f + Z2 / (2 * N) + z * Math.sqrt(f / N - (f * f) / N + Z2 / (4 * N * N))) / (1 + Z2 / N);
      expect(addErrs(N, E, 0.25)).toBeCloseTo(N * U - E, 10);
    }
  });
});

describe('error-based pruning', () => {
  it("Quinlan's example: leaves (6,0), (9,0), (1,0) → one leaf (16,1): 2.507 ≤ 3.273", () => {
    // Subtree: 1.2377968 + 1.2848042 + 0.75 = 3.2726010; leaf: 1 + 1.5068940 = 2.5068940.
    const nodes = build({
      kids: [
        [6, 0],
        [9, 0],
        [0, 1],
      ],
    });
    expect(leafEstimate([15, 1], 0.25)).toBeCloseTo(2.506894, 6);
    const pruned = pruneErrorBased(nodes);
    expect(shape(pruned)).toBe('L');
    expect(pruned[0].counts).toEqual([15, 1]);
    asModel(pruned);
  });

  it('keeps a split that pays: [10,10] → [10,0], [0,10]', () => {
    // Leaf: 10 + AddErrs(20, 10) = 12.0167; subtree: 2 · AddErrs(10, 0) = 2 · 1.2944944 = 2.5890
    expect(
      shape(
        pruneErrorBased(
          build({
            kids: [
              [10, 0],
              [0, 10],
            ],
          }),
        ),
      ),
    ).toBe('[L L]');
  });

  it("uses C4.5's 0.1 tolerance: [5,5] → [2,3], [3,2] is pruned though the leaf is 0.062 worse", () => {
    // AddErrs(10, 5): 5.5 · 0.45 = 2.475 + 0.1198891 = 2.5948891; √(z² · 2.5948891) = 1.1155362;
    //   U = (5.5 + 0.2397781 + 1.1155362) / 10.4795563 = 0.6541596 → leaf 6.541596
    // AddErrs(5, 2): 2.5 · 0.5 = 1.25 + 0.1198891 = 1.3698891; √(z² · 1.3698891) = 0.8105210;
    //   U = (2.5 + 0.2397781 + 0.8105210) / 5.4795563 = 0.6479167 → 3.2395833 per child, 6.479167 in all
    // 6.541596 ≤ 6.479167 + 0.1 → leaf. (Training errors 5 vs 4: not a collapse.)
    const nodes = build({
      kids: [
        [2, 3],
        [3, 2],
      ],
    });
    expect(leafEstimate([5, 5], 0.25) - 2 * leafEstimate([2, 3], 0.25)).toBeCloseTo(0.0624299, 6);
    expect(shape(pruneErrorBased(nodes, { collapse: false }))).toBe('L');
    expect(shape(collapseTree(nodes))).toBe('[L L]');
  });

  it('collapses subtrees that do not lower the training errors (C4.5 build.c, J48 collapse)', () => {
    // [6,3] → [4,2], [2,1]: 2 + 1 = 3 errors, as many as the node alone → leaf. The root [6,9]
    // keeps its split: 0 + 3 errors below it against 6 as a leaf.
    expect(
      shape(
        collapseTree(
          build({
            kids: [
              [0, 6],
              {
                kids: [
                  [4, 2],
                  [2, 1],
                ],
              },
            ],
          }),
        ),
      ),
    ).toBe('[L L]');
  });

  it('a lower CF prunes more', () => {
    // [9,3] → [8,1], [1,2]. CF = 0.25: leaf 3 + AddErrs(12, 3) = 4.6696 > subtree
    // (1 + AddErrs(9, 1)) + (1 + AddErrs(3, 1)) = 4.4781 + 0.1 → keep.
    // CF = 0.1 (z² = 1.6384): leaf 5.7145 ≤ subtree 5.7485 → prune.
    const nodes = build({
      kids: [
        [8, 1],
        [1, 2],
      ],
    });
    expect(leafEstimate([9, 3], 0.25)).toBeCloseTo(4.669587, 5);
    expect(leafEstimate([8, 1], 0.25) + leafEstimate([1, 2], 0.25)).toBeCloseTo(4.478144, 5);
    expect(shape(pruneErrorBased(nodes, { confidence: 0.25 }))).toBe('[L L]');
    expect(shape(pruneErrorBased(nodes, { confidence: 0.1 }))).toBe('L');
  });

  describe('subtree raising', () => {
    // x in 1..10 (class a iff x ≤ 5), z = 0 for 40 rows, z = 1 for 7 rows; one z = 1 row has x missing.
    const rows: Array<{ x: number | null; z: number; y: string }> = [];
    for (let r = 0; r < 4; r++) for (let x = 1; x <= 10; x++) rows.push({ x, z: 0, y: x <= 5 ? 'a' : 'b' });
    for (const x of [1, 2, 3, 7, 8, 9]) rows.push({ x, z: 1, y: x <= 5 ? 'a' : 'b' });
    rows.push({ x: null, z: 1, y: 'a' });
    const data = datasetFromRows(rows, { target: 'y' });
    const weights = new Float64Array(data.nRows).fill(1);
    // root: z ≤ 0.5 → A: x ≤ 5.5 → [20,0], [0,20];  z > 0.5 → B: leaf [4,3]
    const nodes = build({
      split: { kind: 'numeric', feature: 1, thresholds: [0.5] },
      kids: [
        {
          split: { kind: 'numeric', feature: 0, thresholds: [5.5] },
          kids: [
            [20, 0],
            [0, 20],
          ],
        },
        [4, 3],
      ],
    });

    it('without raising: the root stays', () => {
      // Root leaf: 23 + AddErrs(47, 23) ≫ subtree 2 · AddErrs(20, 0) + 3 + AddErrs(7, 3) = 2 · 1.33934 + 3 + 1.3… ≈ 7
      expect(shape(pruneErrorBased(nodes, { data, weights }))).toBe('[[L L] L]');
    });

    it("raises A in the root's place and re-routes B's rows, the missing x shared 23 : 23", () => {
      // Raised A with all 47 rows: known x sends 23 a to the left, 23 b to the right; the row with x
      // missing goes both ways with weight 23/46 = 0.5 each → [23.5, 0] and [0.5, 23].
      // Estimate AddErrs(23.5, 0) + 0.5 + AddErrs(23.5, 0.5) = 1.3462 + 0.5 + 1.4445 = 3.29 < subtree 7.07 → raise.
      const pruned = pruneErrorBased(nodes, { data, weights, subtreeRaising: true, missing: 'fractional' });
      expect(shape(pruned)).toBe('[L L]');
      expect(pruned[0].split).toEqual({ kind: 'numeric', feature: 0, thresholds: [5.5] });
      expect(pruned[0].counts).toEqual([24, 23]);
      expect(leafCounts(pruned)).toEqual([
        [23.5, 0],
        [0.5, 23],
      ]);
      expect(pruned.map((n) => n.n)).toEqual([47, 24, 24]);
      expect(pruned.map((n) => n.depth)).toEqual([0, 1, 1]);
      // With the majority policy the missing row follows the heavier branch (a tie: the first).
      const majority = pruneErrorBased(nodes, { data, weights, subtreeRaising: true, missing: 'majority' });
      expect(leafCounts(majority)).toEqual([
        [24, 0],
        [0, 23],
      ]);
    });

    it('refuses raising without the training rows', () => {
      expect(() => pruneErrorBased(nodes, { subtreeRaising: true })).toThrow(/training data/);
    });
  });
});
