import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/core/random.js';
import { datasetFromRows } from '../../src/data/encode.js';
import { binarise } from '../../src/optimal/binarise.js';
import { Depth2Solver } from '../../src/optimal/depth2.js';
import { pairLayout } from '../../src/optimal/pair-layout.js';
import { PairTable, PairTables } from '../../src/optimal/pair-table.js';

/**
 * Random rows with everything the depth-2 solver distinguishes: numeric features (one 0/1, one
 * with missing values), a categorical one within the subset cap and one above it, three classes.
 */
function randomBinarised(seed: number, n: number, weights: (r: number) => number) {
  const random = mulberry32(seed);
  const pick = (m: number) => Math.floor(random() * m);
  const rows = Array.from({ length: n }, () => {
    const a = pick(6);
    const b = pick(2);
    return {
      a: random() < 0.15 ? null : a,
      b,
      c: pick(5) * 0.5,
      colour: random() < 0.1 ? null : ['red', 'green', 'blue', 'grey'][pick(4)],
      wide: `w${pick(12)}`,
      y: random() < 0.7 ? ['p', 'q', 'r'][(a + b) % 3] : ['p', 'q', 'r'][pick(3)],
    };
  });
  const data = datasetFromRows(rows, { target: 'y' });
  return binarise(
    data,
    Float64Array.from({ length: n }, (_, r) => weights(r)),
  );
}

/** Sparse 0/1 features (a tenth ones), three classes. */
function sparseBinarised(seed: number, n: number, F: number) {
  const random = mulberry32(seed);
  const rows = Array.from({ length: n }, () => {
    const row: Record<string, number | string> = {};
    let s = 0;
    for (let g = 0; g < F; g++) {
      const x = random() < 0.1 ? 1 : 0;
      row[`x${g}`] = x;
      s += x * (g % 3);
    }
    row.y = random() < 0.7 ? ['p', 'q', 'r'][s % 3] : ['p', 'q', 'r'][Math.floor(random() * 3)];
    return row;
  });
  return binarise(datasetFromRows(rows, { target: 'y' }), new Float64Array(n).fill(1));
}

/** Row sets in the order a depth-3 sweep asks for them: each threshold's left and right children, then random sets. */
function rowSets(b: ReturnType<typeof randomBinarised>, seed: number): Int32Array[] {
  const sets: Int32Array[] = [];
  const random = mulberry32(seed);
  for (let f = 0; f < b.features.length; f++) {
    const codes = b.features[f].codes;
    for (let t = 0; t < b.features[f].bins; t++) {
      const left: number[] = [];
      const right: number[] = [];
      for (let r = 0; r < b.n; r++) (codes[r] <= t ? left : right).push(r);
      if (left.length > 0 && right.length > 0) sets.push(Int32Array.from(left), Int32Array.from(right));
    }
  }
  for (let i = 0; i < 20; i++) {
    const keep: number[] = [];
    for (let r = 0; r < b.n; r++) if (random() < 0.6) keep.push(r);
    sets.push(Int32Array.from(keep));
  }
  return sets;
}

describe('pair tables', () => {
  for (const [seed, parent] of [
    [1, false],
    [2, false],
    [1, true],
    [3, true],
  ] as const) {
    const how = parent ? 'moves and differences from the parent' : 'moves';
    it(`seed ${seed}: every depth-2 solve equals the row-by-row one, through ${how}`, () => {
      const b = randomBinarised(seed, 120, (r) => 1 + (r % 3));
      const withPairs = new Depth2Solver(b, 0.125, undefined, 'always');
      const plain = new Depth2Solver(b, 0.125);
      if (parent)
        withPairs.setParent(
          Int32Array.from({ length: b.n }, (_, r) => r),
          b.n,
        );
      let solves = 0;
      for (const rows of rowSets(b, seed)) {
        if (rows.length === 0) continue;
        expect(withPairs.solve(rows, rows.length, 2)).toEqual(plain.solve(rows, rows.length, 2));
        solves++;
      }
      expect(solves).toBeGreaterThan(50);
    });
  }

  it('sparse 0/1 features: solves served as the parent less a sibling equal the row-by-row ones', () => {
    const b = sparseBinarised(4, 400, 30);
    const withPairs = new Depth2Solver(b, 0.125, undefined, 'always');
    const plain = new Depth2Solver(b, 0.125);
    withPairs.setParent(
      Int32Array.from({ length: b.n }, (_, r) => r),
      b.n,
    );
    for (const rows of rowSets(b, 4))
      if (rows.length > 0) expect(withPairs.solve(rows, rows.length, 2)).toEqual(plain.solve(rows, rows.length, 2));
    expect(withPairs.tables!.differences).toBeGreaterThan(10);
  });

  it('a table moved between row sets holds what a fresh one does', () => {
    const b = randomBinarised(5, 80, (r) => 1 + (r % 2));
    const tables = new PairTables(b);
    const random = mulberry32(9);
    for (let i = 0; i < 30; i++) {
      const keep: number[] = [];
      for (let r = 0; r < b.n; r++) if (random() < 0.5 + 0.4 * Math.sin(i)) keep.push(r);
      const rows = Int32Array.from(keep);
      const moved = tables.moveTo(rows, rows.length);
      const fresh = new PairTable(b);
      for (const r of rows) fresh.update(r, 1);
      fresh.settle();
      expect(Array.from(moved.single)).toEqual(Array.from(fresh.single));
      expect(Array.from(moved.rowsOf)).toEqual(Array.from(fresh.rowsOf));
      // Every slice, as the solver reads it.
      for (let f = 0; f < b.features.length; f++)
        for (let c = 0; c <= b.features[f].bins; c++) {
          const x = new Float64Array(moved.single.length);
          const y = new Float64Array(moved.single.length);
          moved.addSlice(x, f, c, 1);
          fresh.addSlice(y, f, c, 1);
          expect(Array.from(x)).toEqual(Array.from(y));
        }
    }
  });

  it('a slice of code c is the class weights, per code, of the rows with code c', () => {
    const b = randomBinarised(7, 60, () => 1);
    const t = new PairTable(b);
    for (let r = 0; r < b.n; r++) t.update(r, 1);
    t.settle();
    const base: number[] = [0];
    for (const f of b.features) base.push(base[base.length - 1] + f.bins + 1);
    for (let f = 0; f < b.features.length; f++)
      for (let c = 0; c <= b.features[f].bins; c++) {
        const got = new Float64Array(t.single.length);
        t.addSlice(got, f, c, 1);
        const want = new Float64Array(t.single.length);
        for (let r = 0; r < b.n; r++)
          if (b.features[f].codes[r] === c)
            for (let g = 0; g < b.features.length; g++) want[(base[g] + b.features[g].codes[r]) * b.k + b.labels[r]]++;
        expect(Array.from(got)).toEqual(Array.from(want));
      }
  });

  it('sparse 0/1 features keep only their rare value: a row updates the pairs of its ones', () => {
    const b = sparseBinarised(5, 300, 40);
    const layout = pairLayout(b);
    // Each feature keeps one code (its 1s), none its 0s or its missing code (no row has it).
    expect(layout.codeOf.length).toBe(40);
    expect(Array.from(layout.major).every((m, g) => m === layout.base[g])).toBe(true);
    expect(layout.cells).toBe(((40 * 41) / 2) * b.k);
    // About 4 ones a row: about 4·5/2 pairs and 40 singles, not 40·41/2 pairs.
    expect(layout.rowCost).toBeLessThan(60);
  });
});
