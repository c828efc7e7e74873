import { describe, expect, it } from 'vitest';
import { balancedBoxConstraints, solveSvm1d } from '../../src/algorithms/cmbsv/svm1d.js';
import { mulberry32 } from '../../src/core/random.js';

/** ½w² + Σ C_i max(0, 1 − y_i(w x_i + b)). */
function primal(w: number, b: number, x: number[], y: number[], c: number[]): number {
  return x.reduce((f, v, i) => f + c[i] * Math.max(0, 1 - y[i] * (w * v + b)), 0.5 * w * w);
}

describe('solveSvm1d: hand-solved problems', () => {
  it('separable, hard margin (large C): w = 2 / gap, threshold in the middle of the gap', () => {
    // Positives {2, 3}, negatives {0, −1}: the gap is [0, 2], so w = 1, b = −1, t = 1, f = ½.
    const r = solveSvm1d([2, 3, 0, -1], [1, 1, -1, -1], [100, 100, 100, 100]);
    expect(r.w).toBeCloseTo(1, 12);
    expect(r.b).toBeCloseTo(-1, 12);
    expect(r.threshold).toBeCloseTo(1, 12);
    expect(r.objective).toBeCloseTo(0.5, 12);
    expect(r.bLow).toBe(r.bHigh); // free support vectors fix b
  });

  it('separable but soft (small C): every α at its bound, b an interval, midpoint taken', () => {
    // x = ±1, C = ¼. Dual: s ≤ ¼, w = 2s, max 2s − 2s² → s = ¼, w = ½. With w = ½ the hinge sum
    // is ¼(½ − b)₊ + ¼(b + ½)₊ = ¼ for every b in [−½, ½]: midpoint b = 0, t = 0, f = ⅛ + ¼.
    const r = solveSvm1d([1, -1], [1, -1], [0.25, 0.25]);
    expect(r.w).toBeCloseTo(0.5, 14);
    expect(r.bLow).toBeCloseTo(-0.5, 14);
    expect(r.bHigh).toBeCloseTo(0.5, 14);
    expect(r.b).toBeCloseTo(0, 14);
    expect(r.threshold).toBeCloseTo(0, 14);
    expect(r.objective).toBeCloseTo(0.375, 14);
    // MATLAB svmtrain's rule takes b from the row of largest α (a tie: the first row, x = 1):
    // b = 1 − w·1 = ½ — still optimal here, but the threshold moves onto that row's far side.
    const m = solveSvm1d([1, -1], [1, -1], [0.25, 0.25], { bias: 'max-alpha' });
    expect(m.b).toBeCloseTo(0.5, 14);
    expect(m.threshold).toBeCloseTo(-1, 14);
  });

  it('overlapping classes: positives {0, 2}, negatives {1, 3}, C = 1', () => {
    // φ2(s) = L_neg(s) − U_pos(s) turns positive at s = 4/3 with slope 3; d·m = 2 at d = 2/3,
    // so w = −2/3. With w fixed F'(b) crosses 0 at the breakpoint b = 1: b = 1, t = 3/2.
    // f = ½·4/9 + 4/3 (x = 2) + 4/3 (x = 1) = 26/9.
    const x = [0, 2, 1, 3];
    const y = [1, 1, -1, -1];
    const c = [1, 1, 1, 1];
    const r = solveSvm1d(x, y, c);
    expect(r.w).toBeCloseTo(-2 / 3, 14);
    expect(r.b).toBeCloseTo(1, 14);
    expect(r.bLow).toBeCloseTo(r.bHigh, 14);
    expect(r.threshold).toBeCloseTo(1.5, 14);
    expect(r.objective).toBeCloseTo(26 / 9, 13);
    expect(primal(r.w, r.b, x, y, c)).toBeCloseTo(26 / 9, 13);
  });

  it("imbalanced classes with the paper's weights C1 = n2/(n1+n2), C2 = n1/(n1+n2)", () => {
    // Three positives {0, ½, 1}, one negative {3}: C1 = ¼, C2 = ¾, S = ¾. φ2 has slope 2 on
    // [0, ¼] (φ2(¼) = ½) then 2.5: d = 2/2.5 = 0.8 at s = 0.37, so w = −0.8. Breakpoints
    // a = 1 + 0.8x = 1, 1.4, 1.8 and e = −1 + 2.4 = 1.4: F' jumps from −½ to +½ at 1.4 → b = 1.4,
    // t = 1.75 (the unweighted C = 1 SVM puts it at 2, the middle of the gap). f = 0.32 + ¼·0.4.
    expect(balancedBoxConstraints(3, 1, 1)).toEqual([0.25, 0.75]);
    const x = [0, 0.5, 1, 3];
    const y = [1, 1, 1, -1];
    const c = [0.25, 0.25, 0.25, 0.75];
    const r = solveSvm1d(x, y, c);
    expect(r.w).toBeCloseTo(-0.8, 14);
    expect(r.b).toBeCloseTo(1.4, 14);
    expect(r.threshold).toBeCloseTo(1.75, 14);
    expect(r.objective).toBeCloseTo(0.42, 14);
    const plain = solveSvm1d(x, y, [1, 1, 1, 1]);
    expect(plain.w).toBeCloseTo(-1, 14);
    expect(plain.threshold).toBeCloseTo(2, 14);
  });

  it('classes that cannot be told apart give w = 0 and no threshold', () => {
    const r = solveSvm1d([0, 2, 1, 1], [1, 1, -1, -1], [1, 1, 1, 1]);
    expect(r.w).toBe(0);
    expect(r.threshold).toBeNaN();
    expect(solveSvm1d([1, 2], [1, 1], [1, 1]).threshold).toBeNaN(); // one class only
  });

  it('does not depend on the order of the rows', () => {
    const x = [3, 0, 2, 1, 0.5];
    const y = [-1, 1, 1, -1, 1];
    const c = [0.4, 0.6, 0.6, 0.4, 0.6];
    const a = solveSvm1d(x, y, c);
    const perm = [4, 2, 0, 3, 1];
    const b = solveSvm1d(
      perm.map((i) => x[i]),
      perm.map((i) => y[i]),
      perm.map((i) => c[i]),
    );
    expect(b.w).toBeCloseTo(a.w, 14);
    expect(b.threshold).toBeCloseTo(a.threshold, 12);
  });
});

describe('solveSvm1d: optimality on random problems', () => {
  it('closes the duality gap: w = Σ α y x, Σ α y = 0, 0 ≤ α ≤ C, primal = dual', () => {
    const random = mulberry32(11);
    for (let t = 0; t < 300; t++) {
      const n = 2 + Math.floor(random() * 40);
      const x: number[] = [];
      const y: number[] = [];
      const c: number[] = [];
      for (let i = 0; i < n; i++) {
        const yi = random() < 0.4 ? 1 : -1;
        y.push(yi);
        x.push(Math.round(((yi > 0 ? 1 : 0) + random() * 2) * 10) / 10); // ties on purpose
        c.push(random() < 0.5 ? 0.3 : 2);
      }
      if (!y.includes(1) || !y.includes(-1)) continue;
      const r = solveSvm1d(x, y, c);
      let sumA = 0;
      let sumAy = 0;
      let w = 0;
      for (let i = 0; i < n; i++) {
        expect(r.alpha[i]).toBeGreaterThanOrEqual(0);
        expect(r.alpha[i]).toBeLessThanOrEqual(c[i] * (1 + 1e-12));
        sumA += r.alpha[i];
        sumAy += r.alpha[i] * y[i];
        w += r.alpha[i] * y[i] * x[i];
      }
      expect(Math.abs(sumAy)).toBeLessThan(1e-12);
      expect(Math.abs(w - r.w)).toBeLessThan(1e-12);
      const dual = sumA - 0.5 * w * w;
      expect(Math.abs(primal(r.w, r.b, x, y, c) - dual)).toBeLessThan(1e-9 * Math.max(1, dual));
      // Every b in [bLow, bHigh] is optimal, and nothing outside it is better.
      const f = primal(r.w, r.b, x, y, c);
      expect(primal(r.w, r.bLow, x, y, c)).toBeCloseTo(f, 9);
      expect(primal(r.w, r.bHigh, x, y, c)).toBeCloseTo(f, 9);
      expect(primal(r.w, r.bLow - 0.01, x, y, c)).toBeGreaterThanOrEqual(f - 1e-12);
      expect(primal(r.w, r.bHigh + 0.01, x, y, c)).toBeGreaterThanOrEqual(f - 1e-12);
      // No nearby (w, b) is better.
      for (const [dw, db] of [
        [1e-3, 0],
        [-1e-3, 0],
        [1e-3, 1e-3],
        [-1e-3, -1e-3],
      ]) {
        expect(primal(r.w + dw, r.b + db, x, y, c)).toBeGreaterThanOrEqual(f - 1e-12);
      }
    }
  });
});
