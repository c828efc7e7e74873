import { describe, expect, it } from 'vitest';
import { GroveError } from '../../src/core/errors.js';
import { mulberry32 } from '../../src/core/random.js';
import {
  BUILTIN_CRITERIA,
  type CountTable,
  type Criterion,
  childEntropy,
  createTable,
  entropyOfRow,
  getCriterion,
  improvement,
  listCriteria,
  nonEmptyBranches,
  orientedScore,
  parentEntropy,
  recomputeTotals,
  registerCriterion,
  singleBranchTable,
  splitInfo,
  tableFromCounts,
} from '../../src/criteria/index.js';

// ---------------------------------------------------------------------------------------------
// Helpers (independent of the code under test)
// ---------------------------------------------------------------------------------------------

function randInt(rand: () => number, lo: number, hi: number): number {
  return lo + Math.floor(rand() * (hi - lo + 1));
}

function shuffled<T>(rand: () => number, xs: readonly T[]): T[] {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

/** Entropy in bits of a list of probabilities, written out independently of src/criteria. */
function h(...ps: number[]): number {
  let s = 0;
  for (const p of ps) if (p > 0) s -= p * Math.log2(p);
  return s;
}

/** Count (branch, class) samples into a rows x classes matrix. */
function countRows(samples: ReadonlyArray<[number, number]>, branches: number, classes: number): number[][] {
  const rows = Array.from({ length: branches }, () => new Array<number>(classes).fill(0));
  for (const [b, c] of samples) rows[b][c] += 1;
  return rows;
}

/** The tutorial truncates (does not round) its entropies and gains to 3 decimals. */
function trunc3(x: number): number {
  return Math.floor(x * 1000 + 1e-9) / 1000;
}

/** |a - b| small relative to the magnitude (values from differently ordered sums). */
function expectClose(actual: number, expected: number, rel = 1e-12): void {
  expect(Number.isFinite(actual)).toBe(true);
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(rel * Math.max(1, Math.abs(expected)));
}

function randomTable(rand: () => number, branches: number, classes: number, max = 12): number[][] {
  return Array.from({ length: branches }, () => Array.from({ length: classes }, () => randInt(rand, 0, max)));
}

const ALL = listCriteria();
const NAMES = ALL.map((c) => c.name);
/** Measures that are sums of counts (they scale with n); the others depend on proportions only. */
const EXTENSIVE = new Set(['chi-square', 'g-statistic']);
const E = Math.E;

// ---------------------------------------------------------------------------------------------
// Table helpers
// ---------------------------------------------------------------------------------------------

describe('count tables', () => {
  it('createTable is zeroed and tableFromCounts computes the totals', () => {
    const z = createTable(3, 2);
    expect(z.branches).toBe(3);
    expect(z.classes).toBe(2);
    expect([...z.counts]).toEqual([0, 0, 0, 0, 0, 0]);
    expect(z.total).toBe(0);

    const t = tableFromCounts([
      [1, 2.5],
      [0, 4],
    ]);
    expect([...t.counts]).toEqual([1, 2.5, 0, 4]);
    expect([...t.branchTotals]).toEqual([3.5, 4]);
    expect([...t.classTotals]).toEqual([1, 6.5]);
    expect(t.total).toBe(7.5);
  });

  it('recomputeTotals follows in-place edits', () => {
    const t = createTable(2, 2);
    t.counts.set([3, 1, 0, 2]);
    recomputeTotals(t);
    expect([...t.branchTotals]).toEqual([4, 2]);
    expect([...t.classTotals]).toEqual([3, 3]);
    expect(t.total).toBe(6);
  });

  it('singleBranchTable is the parent as one branch', () => {
    const p = singleBranchTable([14, 16]);
    expect(p.branches).toBe(1);
    expect([...p.counts]).toEqual([14, 16]);
    expect([...p.branchTotals]).toEqual([30]);
    expect(p.total).toBe(30);
  });

  it('tableFromCounts rejects ragged rows and negative or non-finite counts', () => {
    expect(() => tableFromCounts([[1, 2], [3]])).toThrow(GroveError);
    expect(() => tableFromCounts([[1, -2]])).toThrow(GroveError);
    expect(() => tableFromCounts([[1, NaN]])).toThrow(GroveError);
    expect(() => tableFromCounts([[1, Infinity]])).toThrow(/finite/);
  });

  it('entropy helpers: tutorial 30-row example, pure and empty rows', () => {
    const t = tableFromCounts([
      [13, 4],
      [1, 12],
    ]);
    // Entropy(D) = -(14/30)log2(14/30) - (16/30)log2(16/30) ≈ 0.996 (0.99679, truncated);
    // Entropy(D|A) ≈ 0.615 (0.61559).
    expect(trunc3(parentEntropy(t))).toBe(0.996);
    expect(trunc3(childEntropy(t))).toBe(0.615);
    expect(parentEntropy(t)).toBeCloseTo(h(14 / 30, 16 / 30), 12);
    expect(childEntropy(t)).toBeCloseTo((17 / 30) * h(13 / 17, 4 / 17) + (13 / 30) * h(1 / 13, 12 / 13), 12);
    expect(entropyOfRow([0, 5, 0], 0, 3, 5)).toBe(0);
    expect(entropyOfRow([7, 0, 0], 1, 2, 0)).toBe(0);
    expect(entropyOfRow([9, 2, 2], 1, 2, 4)).toBe(1);
    expect(
      nonEmptyBranches(
        tableFromCounts([
          [1, 0],
          [0, 0],
          [0, 2],
        ]),
      ),
    ).toBe(2);
  });
});

// ---------------------------------------------------------------------------------------------
// Golden values from the tutorial and from Zaki & Meira ch. 19
// ---------------------------------------------------------------------------------------------

describe('golden values: decision-tree-metrics tutorial', () => {
  const ig = getCriterion('info-gain');
  const gr = getCriterion('gain-ratio');
  const gini = getCriterion('gini');

  it('30-row table [[13,4],[1,12]]: IG 0.381, SplitInfo 0.987, GR 0.386', () => {
    const t = tableFromCounts([
      [13, 4],
      [1, 12],
    ]);
    expect(ig.evaluate(t)).toBeCloseTo(0.381, 3);
    expect(splitInfo(t)).toBeCloseTo(0.987, 3);
    expect(gr.evaluate(t)).toBeCloseTo(0.386, 3);
  });

  it('30-row table: Gini of children 0.360 and 0.142, weighted 0.265 (= 176/663)', () => {
    expect(gini.evaluate(tableFromCounts([[13, 4]]))).toBeCloseTo(0.36, 3);
    expect(gini.evaluate(tableFromCounts([[1, 12]]))).toBeCloseTo(0.142, 3);
    const t = tableFromCounts([
      [13, 4],
      [1, 12],
    ]);
    expect(gini.evaluate(t)).toBeCloseTo(0.265, 3);
    expect(gini.evaluate(t)).toBeCloseTo(176 / 663, 12);
  });

  // TID, Buy House, Marital Status, Taxable Income (K), Cheat
  const CHEAT: ReadonlyArray<[number, string, string, number, string]> = [
    [1, 'Yes', 'Single', 125, 'No'],
    [2, 'No', 'Married', 100, 'No'],
    [3, 'No', 'Single', 70, 'No'],
    [4, 'Yes', 'Married', 120, 'No'],
    [5, 'No', 'Divorced', 95, 'Yes'],
    [6, 'No', 'Married', 60, 'No'],
    [7, 'Yes', 'Divorced', 220, 'No'],
    [8, 'No', 'Single', 85, 'Yes'],
    [9, 'No', 'Married', 75, 'No'],
    [10, 'No', 'Single', 90, 'Yes'],
  ];
  const cheatClass = (r: (typeof CHEAT)[number]): number => (r[4] === 'Yes' ? 0 : 1);

  it('Buy House: Gini = 12/35', () => {
    // The tutorial's count table reads House=Yes: 0 cheat / 3 no, House=No: 4 cheat / 3 no, but its
    // ten rows give House=No: 3 cheat (TID 5, 8, 10) / 4 no. Both have Gini(House=No) = 24/49 and
    // weighted Gini 12/35; the data wins for the counts.
    const rows = countRows(
      CHEAT.map((r) => [r[1] === 'Yes' ? 0 : 1, cheatClass(r)]),
      2,
      2,
    );
    expect(rows).toEqual([
      [0, 3],
      [3, 4],
    ]);
    expect(gini.evaluate(tableFromCounts(rows))).toBeCloseTo(12 / 35, 12);
    expect(
      gini.evaluate(
        tableFromCounts([
          [0, 3],
          [4, 3],
        ]),
      ),
    ).toBeCloseTo(12 / 35, 12);
  });

  it('Taxable income: weighted Gini at every threshold matches the tutorial row, best 0.300 at 97', () => {
    // Tutorial row for the split positions 55 65 72 80 87 92 97 110 122 172 230. All eleven
    // values are consistent with the data (the outer two have an empty side: parent Gini 0.420).
    const expected = [0.42, 0.4, 0.375, 0.343, 0.417, 0.4, 0.3, 0.343, 0.375, 0.4, 0.42];
    const splits = [55, 65, 72, 80, 87, 92, 97, 110, 122, 172, 230];
    const got = splits.map((s) =>
      gini.evaluate(
        tableFromCounts(
          countRows(
            CHEAT.map((r) => [r[3] <= s ? 0 : 1, cheatClass(r)]),
            2,
            2,
          ),
        ),
      ),
    );
    got.forEach((g, i) => expect(g).toBeCloseTo(expected[i], 3));
    const best = got.indexOf(Math.min(...got));
    expect(splits[best]).toBe(97); // between 95 and 100
    expect(got[best]).toBeCloseTo(0.3, 12);
  });

  // Play-tennis data (ID3 section).
  const TENNIS = [
    'Sunny Hot High Weak No',
    'Sunny Hot High Strong No',
    'Overcast Hot High Weak Yes',
    'Rain Mild High Weak Yes',
    'Rain Cool Normal Weak Yes',
    'Rain Cool Normal Strong No',
    'Overcast Cool Normal Strong Yes',
    'Sunny Mild High Weak No',
    'Sunny Cool Normal Weak Yes',
    'Rain Mild Normal Weak Yes',
    'Sunny Mild Normal Strong Yes',
    'Overcast Mild High Strong Yes',
    'Overcast Hot Normal Weak Yes',
    'Rain Mild High Strong No',
  ].map((line) => line.split(' '));
  const ATTR = ['Outlook', 'Temperature', 'Humidity', 'Wind'];

  /** Branch = distinct value of the attribute, class = Play ball (Yes/No). */
  function tennisTable(rows: string[][], attr: string): CountTable {
    const col = ATTR.indexOf(attr);
    const values = [...new Set(rows.map((r) => r[col]))];
    return tableFromCounts(
      countRows(
        rows.map((r) => [values.indexOf(r[col]), r[4] === 'Yes' ? 0 : 1]),
        values.length,
        2,
      ),
    );
  }

  it('play tennis: IG(Outlook) 0.246, Temperature 0.029, Humidity 0.151, Wind 0.048', () => {
    const outlook = tennisTable(TENNIS, 'Outlook');
    // Sunny 2 yes/3 no, Overcast 4/0, Rain 3/2.
    expect([...outlook.counts]).toEqual([2, 3, 4, 0, 3, 2]);
    expect(trunc3(ig.evaluate(outlook))).toBe(0.246); // 0.24675
    expect(trunc3(ig.evaluate(tennisTable(TENNIS, 'Temperature')))).toBe(0.029); // 0.02922
    expect(trunc3(ig.evaluate(tennisTable(TENNIS, 'Humidity')))).toBe(0.151); // 0.15184
    expect(trunc3(ig.evaluate(tennisTable(TENNIS, 'Wind')))).toBe(0.048); // 0.04813
    // Independent check of the Outlook value: H(9/14, 5/14) - 5/14 H(2/5, 3/5) - 4/14 * 0 - 5/14 H(3/5, 2/5)
    expect(ig.evaluate(outlook)).toBeCloseTo(h(9 / 14, 5 / 14) - (10 / 14) * h(2 / 5, 3 / 5), 12);
  });

  it('play tennis, Outlook=Sunny: Temperature 0.570, Humidity 0.970, Wind 0.019', () => {
    const sunny = TENNIS.filter((r) => r[0] === 'Sunny');
    expect(sunny).toHaveLength(5);
    expect(trunc3(ig.evaluate(tennisTable(sunny, 'Temperature')))).toBe(0.57); // 0.57095
    expect(trunc3(ig.evaluate(tennisTable(sunny, 'Humidity')))).toBe(0.97); // 0.97095 (pure split: H(2/5, 3/5))
    expect(trunc3(ig.evaluate(tennisTable(sunny, 'Wind')))).toBe(0.019); // 0.01997
    expect(ig.evaluate(tennisTable(sunny, 'Humidity'))).toBeCloseTo(h(2 / 5, 3 / 5), 12);
  });
});

describe('golden values: Zaki & Meira ch. 19, discretized sepal length', () => {
  // Class frequencies (c1 = iris-setosa, c2 = other) of the bins a1..a4.
  const FREQ = [
    [39, 6],
    [11, 39],
    [0, 43],
    [0, 12],
  ];
  // V, split entropy, info gain, as in the book's table. For {a2} the table text reads 0.217, which
  // is inconsistent with the frequencies (H(D) = 0.918, 0.918 - 0.897 = 0.022); 0.022 is used.
  const ROWS: Array<[number[], number, number]> = [
    [[0], 0.509, 0.41],
    [[1], 0.897, 0.022],
    [[2], 0.711, 0.207],
    [[3], 0.869, 0.049],
    [[0, 1], 0.632, 0.286],
    [[0, 2], 0.86, 0.058],
    [[0, 3], 0.667, 0.251],
    [[1, 2], 0.667, 0.251],
    [[1, 3], 0.86, 0.058],
    [[2, 3], 0.632, 0.286],
  ];
  const ig = getCriterion('info-gain');

  it.each(ROWS)('X in %j: split entropy %d, gain %d', (v, splitEntropy, gain) => {
    const yes = [0, 0];
    const no = [0, 0];
    FREQ.forEach((f, i) => {
      const side = v.includes(i) ? yes : no;
      side[0] += f[0];
      side[1] += f[1];
    });
    const t = tableFromCounts([yes, no]);
    expect(childEntropy(t)).toBeCloseTo(splitEntropy, 3);
    expect(ig.evaluate(t)).toBeCloseTo(gain, 3);
  });

  it('best split is X in {a1}', () => {
    const gains = ROWS.map(([v]) => {
      const yes = [0, 0];
      const no = [0, 0];
      FREQ.forEach((f, i) => {
        const side = v.includes(i) ? yes : no;
        side[0] += f[0];
        side[1] += f[1];
      });
      return ig.evaluate(tableFromCounts([yes, no]));
    });
    expect(ROWS[gains.indexOf(Math.max(...gains))][0]).toEqual([0]);
  });
});

// ---------------------------------------------------------------------------------------------
// Hand-checked values for every measure
// ---------------------------------------------------------------------------------------------

// T22: branches v1 = [6, 2], v2 = [1, 3]; n = 12, n_v = 8, 4; n_k = 7, 5.
const T22 = [
  [6, 2],
  [1, 3],
];
// T33: v1 = [4, 1, 0], v2 = [1, 3, 1], v3 = [0, 2, 5]; n = 17, n_v = 5, 5, 7; n_k = 5, 6, 6.
const T33 = [
  [4, 1, 0],
  [1, 3, 1],
  [0, 2, 5],
];
// T23 (twoing needs two branches): v1 = [4, 1, 0], v2 = [1, 5, 3]; n = 14, n_v = 5, 9; n_k = 5, 6, 3.
const T23 = [
  [4, 1, 0],
  [1, 5, 3],
];

const IG22 = h(7 / 12, 5 / 12) - (8 / 12) * h(6 / 8, 2 / 8) - (4 / 12) * h(1 / 4, 3 / 4);
const IG33 =
  h(5 / 17, 6 / 17, 6 / 17) -
  (5 / 17) * h(4 / 5, 1 / 5) -
  (5 / 17) * h(1 / 5, 3 / 5, 1 / 5) -
  (7 / 17) * h(2 / 7, 5 / 7);

/**
 * Expected values written out step by step. `approx` is the same number computed by an independent
 * Python implementation of the formulas (a check on the arithmetic written here).
 */
const HAND: Record<string, { t22: number; t33: number; approx22: number; approx33: number }> = {
  'info-gain': { t22: IG22, t33: IG33, approx22: 0.168590632, approx33: 0.608908258 },
  'gain-ratio': {
    t22: IG22 / h(8 / 12, 4 / 12),
    t33: IG33 / h(5 / 17, 5 / 17, 7 / 17),
    approx22: 0.183590762,
    approx33: 0.388916455,
  },
  'normalized-gain': {
    t22: IG22 / Math.log2(2),
    t33: IG33 / Math.log2(3),
    approx22: 0.168590632,
    approx33: 0.384178337,
  },
  'average-gain': { t22: IG22 / 2, t33: IG33 / 3, approx22: 0.084295316, approx33: 0.202969419 },
  gini: {
    // (8/12)(1 - 36/64 - 4/64) + (4/12)(1 - 1/16 - 9/16) = (8/12)(3/8) + (4/12)(3/8) = 3/8
    t22: (8 / 12) * (1 - 36 / 64 - 4 / 64) + (4 / 12) * (1 - 1 / 16 - 9 / 16),
    t33:
      (5 / 17) * (1 - 16 / 25 - 1 / 25) + (5 / 17) * (1 - 1 / 25 - 9 / 25 - 1 / 25) + (7 / 17) * (1 - 4 / 49 - 25 / 49),
    approx22: 0.375,
    approx33: 0.426890756,
  },
  twoing: {
    // 2 (8/12)(4/12) (|6/8 - 1/4| + |2/8 - 3/4|) = 2 (2/9)(1) = 4/9
    t22: 2 * (8 / 12) * (4 / 12) * (Math.abs(6 / 8 - 1 / 4) + Math.abs(2 / 8 - 3 / 4)),
    t33: NaN, // three branches: not defined
    approx22: 0.444444444,
    approx33: NaN,
  },
  'chi-square': {
    // E = n_v n_k / n: 14/3, 10/3 | 7/3, 5/3
    t22:
      (6 - 14 / 3) ** 2 / (14 / 3) +
      (2 - 10 / 3) ** 2 / (10 / 3) +
      (1 - 7 / 3) ** 2 / (7 / 3) +
      (3 - 5 / 3) ** 2 / (5 / 3),
    // E rows: [25, 30, 30]/17, [25, 30, 30]/17, [35, 42, 42]/17
    t33:
      (4 - 25 / 17) ** 2 / (25 / 17) +
      (1 - 30 / 17) ** 2 / (30 / 17) +
      (0 - 30 / 17) ** 2 / (30 / 17) +
      (1 - 25 / 17) ** 2 / (25 / 17) +
      (3 - 30 / 17) ** 2 / (30 / 17) +
      (1 - 30 / 17) ** 2 / (30 / 17) +
      (0 - 35 / 17) ** 2 / (35 / 17) +
      (2 - 42 / 17) ** 2 / (42 / 17) +
      (5 - 42 / 17) ** 2 / (42 / 17),
    approx22: 2.742857143,
    approx33: 12.531428571,
  },
  'g-statistic': {
    t22:
      2 *
      (6 * Math.log(6 / (14 / 3)) + 2 * Math.log(2 / (10 / 3)) + 1 * Math.log(1 / (7 / 3)) + 3 * Math.log(3 / (5 / 3))),
    // cells with O = 0 contribute 0
    t33:
      2 *
      (4 * Math.log(4 / (25 / 17)) +
        1 * Math.log(1 / (30 / 17)) +
        1 * Math.log(1 / (25 / 17)) +
        3 * Math.log(3 / (30 / 17)) +
        1 * Math.log(1 / (30 / 17)) +
        2 * Math.log(2 / (42 / 17)) +
        5 * Math.log(5 / (42 / 17))),
    approx22: 2.804594913,
    approx33: 14.350143444,
  },
  dcsm: {
    // D(u) = 2; both branches have D(v) = 2 so delta = 1; a = (3/4, 1/4) and (1/4, 3/4).
    t22:
      (8 / 12) * 2 * E ** 2 * ((6 / 8) * Math.exp(1 - (6 / 8) ** 2) + (2 / 8) * Math.exp(1 - (2 / 8) ** 2)) +
      (4 / 12) * 2 * E ** 2 * ((1 / 4) * Math.exp(1 - (1 / 4) ** 2) + (3 / 4) * Math.exp(1 - (3 / 4) ** 2)),
    // D(u) = 3; D(v) = 2, 3, 2 so delta = 2/3, 1, 2/3.
    t33:
      (5 / 17) *
        2 *
        E ** 2 *
        ((4 / 5) * Math.exp((2 / 3) * (1 - 16 / 25)) + (1 / 5) * Math.exp((2 / 3) * (1 - 1 / 25))) +
      (5 / 17) *
        3 *
        E ** 3 *
        ((1 / 5) * Math.exp(1 - 1 / 25) + (3 / 5) * Math.exp(1 - 9 / 25) + (1 / 5) * Math.exp(1 - 1 / 25)) +
      (7 / 17) *
        2 *
        E ** 2 *
        ((2 / 7) * Math.exp((2 / 3) * (1 - 4 / 49)) + (5 / 7) * Math.exp((2 / 3) * (1 - 25 / 49))),
    approx22: 26.600898826,
    approx33: 53.981497045,
  },
  'chandra-varghese': {
    // C_R = 2: (8/12)(2/2)(6/7 + 2/5) + (4/12)(2/2)(1/7 + 3/5)
    t22: (8 / 12) * (2 / 2) * (6 / 7 + 2 / 5) + (4 / 12) * (2 / 2) * (1 / 7 + 3 / 5),
    // C_R = 3: (5/17)(2/3)(4/5 + 1/6) + (5/17)(3/3)(1/5 + 3/6 + 1/6) + (7/17)(2/3)(2/6 + 5/6)
    t33:
      (5 / 17) * (2 / 3) * (4 / 5 + 1 / 6) +
      (5 / 17) * (3 / 3) * (1 / 5 + 3 / 6 + 1 / 6) +
      (7 / 17) * (2 / 3) * (2 / 6 + 5 / 6),
    approx22: 1.085714286,
    approx33: 0.764705882,
  },
  hellinger: {
    // Class 0 (n = 7) against class 1 (n = 5) over the two branches.
    t22: Math.sqrt((Math.sqrt(6 / 7) - Math.sqrt(2 / 5)) ** 2 + (Math.sqrt(1 / 7) - Math.sqrt(3 / 5)) ** 2),
    // Mean over the classes of class k against the rest (n_k = 5, 6, 6; rest = 12, 11, 11).
    t33:
      (Math.sqrt(
        (Math.sqrt(4 / 5) - Math.sqrt(1 / 12)) ** 2 +
          (Math.sqrt(1 / 5) - Math.sqrt(4 / 12)) ** 2 +
          (0 - Math.sqrt(7 / 12)) ** 2,
      ) +
        Math.sqrt(
          (Math.sqrt(1 / 6) - Math.sqrt(4 / 11)) ** 2 +
            (Math.sqrt(3 / 6) - Math.sqrt(2 / 11)) ** 2 +
            (Math.sqrt(2 / 6) - Math.sqrt(5 / 11)) ** 2,
        ) +
        Math.sqrt(
          (0 - Math.sqrt(5 / 11)) ** 2 +
            (Math.sqrt(1 / 6) - Math.sqrt(4 / 11)) ** 2 +
            (Math.sqrt(5 / 6) - Math.sqrt(2 / 11)) ** 2,
        )) /
      3,
    approx22: 0.493335452,
    approx33: 0.730827561,
  },
};

describe('registry contents', () => {
  it('lists the eleven built-in measures in registration order', () => {
    expect(NAMES).toEqual([
      'info-gain',
      'gain-ratio',
      'normalized-gain',
      'average-gain',
      'gini',
      'twoing',
      'chi-square',
      'g-statistic',
      'dcsm',
      'chandra-varghese',
      'hellinger',
    ]);
    expect(BUILTIN_CRITERIA.map((c) => c.name)).toEqual(NAMES);
  });

  it('directions follow the papers', () => {
    const lower = ALL.filter((c) => c.better === 'lower').map((c) => c.name);
    expect(lower).toEqual(['gini', 'dcsm', 'chandra-varghese']);
    expect(ALL.filter((c) => c.binaryOnly).map((c) => c.name)).toEqual(['twoing']);
  });
});

describe.each(ALL.map((c) => [c.name, c] as const))('%s', (name, c: Criterion) => {
  const hand = HAND[name];

  it('has a one-line formula and a source', () => {
    expect(c.formula.length).toBeGreaterThan(5);
    expect(c.formula).not.toMatch(/\n/);
    expect(c.source.length).toBeGreaterThan(5);
    expect(getCriterion(name)).toBe(c);
  });

  it('matches the hand-computed value on a 2x2 table', () => {
    expect(hand.t22).toBeCloseTo(hand.approx22, 8);
    expectClose(c.evaluate(tableFromCounts(T22)), hand.t22);
  });

  it('matches the hand-computed value on a 3x3 table', () => {
    const v = c.evaluate(tableFromCounts(T33));
    if (name === 'twoing') {
      expect(v).toBeNaN();
      // its 2-branch x 3-class value: 2 (5/14)(9/14)(|4/5-1/9| + |1/5-5/9| + |0-3/9|)
      const expected =
        2 * (5 / 14) * (9 / 14) * (Math.abs(4 / 5 - 1 / 9) + Math.abs(1 / 5 - 5 / 9) + Math.abs(0 - 3 / 9));
      expect(expected).toBeCloseTo(0.632653061, 8);
      expectClose(c.evaluate(tableFromCounts(T23)), expected);
    } else {
      expect(hand.t33).toBeCloseTo(hand.approx33, 8);
      expectClose(v, hand.t33);
    }
  });

  it('is invariant under permuting classes and permuting branches', () => {
    const rand = mulberry32(0xc0ffee ^ name.length);
    for (let trial = 0; trial < 25; trial++) {
      const branches = name === 'twoing' ? 2 : randInt(rand, 2, 5);
      const classes = randInt(rand, 2, 5);
      const rows = randomTable(rand, branches, classes);
      const base = c.evaluate(tableFromCounts(rows));
      const classOrder = shuffled(
        rand,
        Array.from({ length: classes }, (_, i) => i),
      );
      const byClass = rows.map((r) => classOrder.map((k) => r[k]));
      const byBranch = shuffled(rand, rows);
      expectClose(c.evaluate(tableFromCounts(byClass)), base);
      expectClose(c.evaluate(tableFromCounts(byBranch)), base);
    }
  });

  it('ignores empty branches and empty classes (no NaN), including rounding residues', () => {
    const rand = mulberry32(0xbadc0de + name.length);
    for (let trial = 0; trial < 20; trial++) {
      const branches = name === 'twoing' ? 2 : randInt(rand, 2, 4);
      const rows = randomTable(rand, branches, randInt(rand, 2, 4), 9).map((r) => r.map((x) => x + 1));
      const base = c.evaluate(tableFromCounts(rows));
      // An extra class column nobody belongs to.
      const withClass = rows.map((r) => [...r.slice(0, 1), 0, ...r.slice(1)]);
      expectClose(c.evaluate(tableFromCounts(withClass)), base);
      // The same with a residue left by in-place add/subtract of fractional weights.
      const residue = 0.1 + 0.2 - 0.3; // 5.55e-17
      const withResidue = rows.map((r, i) => [...r.slice(0, 1), i === 0 ? residue : 0, ...r.slice(1)]);
      expectClose(c.evaluate(tableFromCounts(withResidue)), base, 1e-9);
      if (name !== 'twoing') {
        // An extra branch nobody falls into (twoing is binary-only: a third branch gives NaN).
        const withBranch = [rows[0], new Array<number>(rows[0].length).fill(0), ...rows.slice(1)];
        expectClose(c.evaluate(tableFromCounts(withBranch)), base);
      }
    }
    // Fully empty tables evaluate to 0, not NaN.
    expect(
      c.evaluate(
        tableFromCounts([
          [0, 0],
          [0, 0],
        ]),
      ),
    ).toBe(0);
  });

  it('works with weighted (fractional) counts', () => {
    const k = 0.37;
    const scaled = T22.map((r) => r.map((x) => x * k));
    const v = c.evaluate(tableFromCounts(scaled));
    expectClose(v, EXTENSIVE.has(name) ? k * hand.t22 : hand.t22, 1e-10);
  });

  it('value(table counted from a duplicated row list) === value(2 x table)', () => {
    const rand = mulberry32(0x5eed + name.length);
    for (let trial = 0; trial < 15; trial++) {
      const branches = name === 'twoing' ? 2 : randInt(rand, 2, 4);
      const classes = randInt(rand, 2, 4);
      const samples: Array<[number, number]> = Array.from({ length: randInt(rand, 8, 40) }, () => [
        randInt(rand, 0, branches - 1),
        randInt(rand, 0, classes - 1),
      ]);
      const once = countRows(samples, branches, classes);
      const twice = countRows([...samples, ...samples], branches, classes);
      const doubled = once.map((r) => r.map((x) => 2 * x));
      const vTwice = c.evaluate(tableFromCounts(twice));
      expect(vTwice).toBe(c.evaluate(tableFromCounts(doubled)));
      // Proportion-based measures are unchanged; chi-square and G double.
      const vOnce = c.evaluate(tableFromCounts(once));
      expectClose(vTwice, EXTENSIVE.has(name) ? 2 * vOnce : vOnce, 1e-10);
    }
  });

  it('a pure split scores at least as well (oriented) as any other split of the same parent', () => {
    // Parent with k classes; the pure split has one branch per class. It is compared with random
    // splits of the same parent into k non-empty branches (the gain normalisations divide by the
    // number of branches, so the comparison is at equal branch count; twoing is binary: k = 2).
    const rand = mulberry32(0xfeed + name.length);
    let compared = 0;
    for (let trial = 0; trial < 60; trial++) {
      const k = name === 'twoing' ? 2 : randInt(rand, 2, 4);
      const parent = Array.from({ length: k }, () => randInt(rand, 1, 15));
      const pure = parent.map((nk, v) => parent.map((_, j) => (j === v ? nk : 0)));
      const pureScore = orientedScore(c, c.evaluate(tableFromCounts(pure)));
      for (let s = 0; s < 10; s++) {
        const rows = Array.from({ length: k }, () => new Array<number>(k).fill(0));
        parent.forEach((nk, j) => {
          for (let i = 0; i < nk; i++) rows[randInt(rand, 0, k - 1)][j] += 1;
        });
        if (rows.some((r) => r.every((x) => x === 0))) continue;
        const score = orientedScore(c, c.evaluate(tableFromCounts(rows)));
        expect(pureScore).toBeGreaterThanOrEqual(score - 1e-12);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(200);
  });

  it('improvement: 0 for the unsplit node, positive for a pure split', () => {
    const parent = singleBranchTable([5, 5]);
    expect(Number.isFinite(c.evaluate(parent))).toBe(true);
    expect(improvement(c, parent, parent)).toBe(0);
    const pure = tableFromCounts([
      [5, 0],
      [0, 5],
    ]);
    expect(improvement(c, pure, parent)).toBeGreaterThan(0);
    expect(improvement(c, pure, parent)).toBe(
      orientedScore(c, c.evaluate(pure)) - orientedScore(c, c.evaluate(parent)),
    );
  });
});

describe('orientation and improvement', () => {
  it('orientedScore negates lower-is-better measures only', () => {
    expect(orientedScore(getCriterion('info-gain'), 0.25)).toBe(0.25);
    expect(orientedScore(getCriterion('gini'), 0.25)).toBe(-0.25);
    expect(orientedScore(getCriterion('dcsm'), 3)).toBe(-3);
  });

  it('gain measures have parent value 0; gini improvement = parent impurity - children impurity', () => {
    const parent = singleBranchTable([14, 16]);
    const split = tableFromCounts([
      [13, 4],
      [1, 12],
    ]);
    for (const n of [
      'info-gain',
      'gain-ratio',
      'normalized-gain',
      'average-gain',
      'twoing',
      'chi-square',
      'g-statistic',
      'hellinger',
    ]) {
      const c = getCriterion(n);
      expect(c.evaluate(parent)).toBe(0);
      expect(improvement(c, split, parent)).toBe(c.evaluate(split));
    }
    // Gini(parent) = 1 - (14/30)^2 - (16/30)^2
    const g = getCriterion('gini');
    expect(g.evaluate(parent)).toBeCloseTo(1 - (14 / 30) ** 2 - (16 / 30) ** 2, 12);
    expect(improvement(g, split, parent)).toBeCloseTo(1 - (14 / 30) ** 2 - (16 / 30) ** 2 - 176 / 663, 12);
    // DCSM parent value: D(u) = 2, delta = 1, single branch with a = (14/30, 16/30).
    const d = getCriterion('dcsm');
    const mParent = 2 * E ** 2 * ((14 / 30) * Math.exp(1 - (14 / 30) ** 2) + (16 / 30) * Math.exp(1 - (16 / 30) ** 2));
    expect(d.evaluate(parent)).toBeCloseTo(mParent, 10);
    expect(improvement(d, split, parent)).toBeCloseTo(mParent - d.evaluate(split), 10);
  });

  it('g-statistic = 2 N IG in nats = 2 N ln(2) IG in bits', () => {
    const t = tableFromCounts(T33);
    expectClose(getCriterion('g-statistic').evaluate(t), 2 * 17 * Math.LN2 * IG33);
  });

  it('twoing returns NaN for three branches', () => {
    const tw = getCriterion('twoing');
    expect(tw.binaryOnly).toBe(true);
    expect(
      tw.evaluate(
        tableFromCounts([
          [1, 2],
          [3, 4],
          [5, 6],
        ]),
      ),
    ).toBeNaN();
    expect(
      tw.evaluate(
        tableFromCounts([
          [1, 2],
          [3, 4],
        ]),
      ),
    ).not.toBeNaN();
  });
});

describe('registry', () => {
  it('unknown criterion: GroveError listing the known names', () => {
    let err: unknown;
    try {
      getCriterion('entropy-ish');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(GroveError);
    const msg = (err as Error).message;
    expect(msg).toMatch(/^unknown criterion 'entropy-ish' \(known: /);
    for (const n of NAMES) expect(msg).toContain(n);
    expect(msg).toContain(`(known: ${NAMES.join(', ')}`);
  });

  it('registers a custom measure, rejects duplicates, replaces with { replace: true }', () => {
    const misclass: Criterion = {
      name: 'test-misclassification',
      better: 'lower',
      formula: 'sum_v (n_v - max_k n_vk) / n',
      source: 'test',
      evaluate(t) {
        let err = 0;
        for (let b = 0; b < t.branches; b++) {
          let max = 0;
          for (let k = 0; k < t.classes; k++) max = Math.max(max, t.counts[b * t.classes + k]);
          err += t.branchTotals[b] - max;
        }
        return t.total > 0 ? err / t.total : 0;
      },
    };
    registerCriterion(misclass);
    expect(getCriterion('test-misclassification')).toBe(misclass);
    expect(listCriteria().at(-1)).toBe(misclass);
    // (2 + 1) / 12 misclassified
    expect(getCriterion('test-misclassification').evaluate(tableFromCounts(T22))).toBeCloseTo(3 / 12, 12);

    expect(() => registerCriterion({ ...misclass })).toThrow(GroveError);
    expect(() => registerCriterion({ ...misclass })).toThrow(/already registered/);
    expect(() => registerCriterion(getCriterion('gini'))).toThrow(GroveError);
    expect(getCriterion('test-misclassification')).toBe(misclass);

    const replacement: Criterion = { ...misclass, source: 'replaced' };
    registerCriterion(replacement, { replace: true });
    expect(getCriterion('test-misclassification')).toBe(replacement);
    expect(listCriteria().filter((c) => c.name === 'test-misclassification')).toHaveLength(1);
  });

  it('validates name, direction and evaluate', () => {
    const ok: Criterion = {
      name: 'test-valid',
      better: 'higher',
      formula: 'x',
      source: 'test',
      evaluate: () => 0,
    };
    expect(() => registerCriterion({ ...ok, name: '' })).toThrow(/non-empty/);
    expect(() => registerCriterion({ ...ok, name: '   ' })).toThrow(GroveError);
    expect(() => registerCriterion({ ...ok, better: 'up' as never })).toThrow(/'higher' or 'lower'/);
    expect(() => registerCriterion({ ...ok, evaluate: 42 as never })).toThrow(/evaluate must be a function/);
    expect(() => getCriterion('test-valid')).toThrow(GroveError);
  });
});
