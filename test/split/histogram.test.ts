import { describe, expect, it } from 'vitest';
import { fit } from '../../src/algorithms/fit.js';
import { mulberry32 } from '../../src/core/random.js';
import type { Dataset, NumericColumn } from '../../src/data/dataset.js';
import { datasetFromRows } from '../../src/data/encode.js';
import { PartitionScratch, partitionByCode } from '../../src/learn/partition.js';
import { readDataset } from '../../src/sources/file-source.js';
import { argsortNumeric } from '../../src/split/argsort.js';
import { CodeSortedRows } from '../../src/split/code-sorted.js';
import { BinCutter, binFeature } from '../../src/split/histogram.js';
import { corpus, fixture, haveCorpus } from '../helpers/paths.js';

const shape = (nodes: ReturnType<typeof fit>['nodes']) => nodes.map((n) => [n.split, n.counts, n.missingBranch]);
const sum = (a: number[]) => a.reduce((x, y) => x + y, 0);

function randomData(seed: number, n: number, missing: number): Dataset {
  const random = mulberry32(seed);
  const rows = Array.from({ length: n }, () => {
    const a = Math.round(random() * 30);
    const b = random();
    return {
      a: random() < missing ? null : a,
      b: random() < missing ? null : b,
      c: random() < missing ? null : 'pqrs'[Math.floor(random() * 4)],
      y: a + 20 * b > 25 ? (random() < 0.9 ? 'hi' : 'lo') : random() < 0.2 ? 'mid' : 'lo',
    };
  });
  return datasetFromRows(rows, { target: 'y' });
}

describe('binFeature', () => {
  it('gives every distinct value its own bin when there are few enough', () => {
    const col: NumericColumn = { kind: 'numeric', name: 'x', values: Float64Array.from([3, 1, 2, NaN, 2, 1]) };
    const b = binFeature(col, 255);
    expect(b.bins).toBe(3);
    expect(Array.from(b.codes)).toEqual([2, 0, 1, 3, 1, 0]);
    expect(Array.from(b.lo)).toEqual([1, 2, 3]);
  });

  it('makes equal-frequency bins that never split a run of equal values', () => {
    const random = mulberry32(5);
    const values = Float64Array.from({ length: 5000 }, () => Math.round(random() * 1000) / 10);
    const b = binFeature({ kind: 'numeric', name: 'x', values }, 16);
    expect(b.bins).toBeLessThanOrEqual(16);
    expect(b.bins).toBeGreaterThan(12);
    for (let i = 0; i < values.length; i++) {
      const code = b.codes[i];
      expect(values[i]).toBeGreaterThanOrEqual(b.lo[code]);
      expect(values[i]).toBeLessThanOrEqual(b.hi[code]);
    }
    for (let j = 1; j < b.bins; j++) expect(b.lo[j]).toBeGreaterThan(b.hi[j - 1]);
    const perBin = new Array(b.bins).fill(0);
    b.codes.forEach((c) => perBin[c]++);
    expect(Math.max(...perBin)).toBeLessThan(3 * (5000 / 16));
  });
});

/**
 * The bins by a walk over the rows in sorted row order (`argsortNumeric`: ties by row index), as
 * binning was first written: what binFeature's sort of keys alone must reproduce exactly, down to
 * the sign of a zero edge.
 */
function binByRowOrder(x: Float64Array | Float32Array, maxBins: number) {
  const order = argsortNumeric(x);
  let known = x.length;
  while (known > 0 && Number.isNaN(x[order[known - 1]])) known--;
  const runs: number[] = []; // run starts in sorted order
  for (let i = 0; i < known; i++) if (i === 0 || x[order[i]] !== x[order[i - 1]]) runs.push(i);
  const cutter = new BinCutter(known, runs.length, maxBins);
  const lastOfBin: number[] = [];
  runs.forEach((start, v) => {
    const end = v + 1 < runs.length ? runs[v + 1] : known;
    if (cutter.closes(end - start)) lastOfBin.push(v);
  });
  const bins = lastOfBin.length;
  const codes = new Array<number>(x.length).fill(bins);
  const lo: number[] = [];
  const hi: number[] = [];
  for (let v = 0, bin = 0; v < runs.length; v++) {
    while (v > lastOfBin[bin]) bin++;
    const end = v + 1 < runs.length ? runs[v + 1] : known;
    for (let i = runs[v]; i < end; i++) codes[order[i]] = bin;
    if (lo.length === bin) lo.push(x[order[runs[v]]]);
    hi[bin] = x[order[runs[v]]];
  }
  return { bins, codes, lo, hi };
}

describe('binFeature against the row-order rule', () => {
  const signs = (a: ArrayLike<number>) => Array.from(a, (v) => (Object.is(v, -0) ? '-0' : v));
  const cases: [string, number, (r: () => number) => number][] = [
    [
      'ties, zeros of both signs and NaN',
      3000,
      (r) => (r() < 0.05 ? NaN : r() < 0.1 ? -0 : Math.round(r() * 600 - 300) / 10),
    ],
    [
      'wide values, over 2^14 rows (11-bit digits)',
      20000,
      (r) => (r() < 0.01 ? NaN : (r() - 0.5) * 10 ** (r() * 12 - 4)),
    ],
    ['few distinct values', 500, (r) => Math.floor(r() * 7) - 3],
    ['all missing', 50, () => NaN],
  ];
  for (const [name, n, draw] of cases) {
    it(`gives the same bins, edges and codes: ${name}`, () => {
      const random = mulberry32(n);
      const values = Float64Array.from({ length: n }, () => draw(random));
      for (const x of [values, Float32Array.from(values)]) {
        for (const maxBins of [4, 255, 1000]) {
          const want = binByRowOrder(x, maxBins);
          const got = binFeature({ kind: 'numeric', name: 'x', values: x }, maxBins);
          expect(got.bins).toBe(want.bins);
          expect(signs(got.lo)).toEqual(signs(want.lo));
          expect(signs(got.hi)).toEqual(signs(want.hi));
          expect(Array.from(got.codes)).toEqual(want.codes);
        }
      }
    });
  }
});

describe('histogram mode', () => {
  it('grows the exact tree when every distinct value has its own bin', async () => {
    const sets: Dataset[] = [
      await readDataset(fixture('taxable-income.csv')),
      await readDataset(fixture('play-tennis.csv')),
      randomData(1, 400, 0),
    ];
    if (haveCorpus)
      sets.push(await readDataset(corpus('iris')), await readDataset(corpus('wine')), await readDataset(corpus('car')));
    for (const data of sets) {
      for (const criterion of ['gini', 'info-gain', 'dcsm']) {
        const exact = fit(data, { criterion, prune: 'none' });
        const hist = fit(data, { criterion, prune: 'none', bins: 65535 });
        expect(shape(hist.nodes)).toEqual(shape(exact.nodes));
      }
    }
  });

  it('matches exact mode with missing values (majority and learned) and multiway splits', () => {
    const data = randomData(2, 500, 0.15);
    for (const missing of ['majority', 'learned'] as const) {
      for (const categoricalSplit of ['binary', 'multiway'] as const) {
        const exact = fit(data, { missing, categoricalSplit, prune: 'none' });
        const hist = fit(data, { missing, categoricalSplit, prune: 'none', bins: 1000 });
        expect(shape(hist.nodes)).toEqual(shape(exact.nodes));
      }
    }
  });

  it('matches exact mode on a tree whose small subtrees keep their rows sorted by code through several levels', () => {
    // 6000 rows: the top nodes are scanned from histograms; nodes below ≈ 230 rows (3 classes, 255
    // bins) sort their rows by code once and partition that order down the subtree.
    const random = mulberry32(9);
    const rows = Array.from({ length: 6000 }, () => {
      const a = Math.round(random() * 30);
      const b = Math.round(random() * 100) / 100;
      return {
        a: random() < 0.05 ? null : a,
        b,
        c: 'pqrs'[Math.floor(random() * 4)],
        y: a + 20 * b > 25 ? (random() < 0.8 ? 'hi' : 'lo') : random() < 0.3 ? 'mid' : 'lo',
      };
    });
    const data = datasetFromRows(rows, { target: 'y' });
    for (const criterion of ['gini', 'gain-ratio']) {
      const exact = fit(data, { criterion, missing: 'learned', prune: 'none' });
      const hist = fit(data, { criterion, missing: 'learned', prune: 'none', bins: 255 });
      expect(exact.stats().height).toBeGreaterThan(12);
      expect(shape(hist.nodes)).toEqual(shape(exact.nodes));
    }
  });

  it('partitions rows sorted by code stably, codes alongside', () => {
    const rows = Int32Array.from([9, 7, 5, 3, 1, 0, 2, 4]);
    const codes = Uint16Array.from([0, 1, 1, 2, 2, 3, 4, 4]);
    const branchOf = new Int32Array(10);
    for (const r of [7, 3, 0, 4]) branchOf[r] = 1;
    branchOf[2] = 2;
    // Sort positions 1..7 (rows 7 5 3 1 0 2 4) into branches 0 (5, 1), 1 (7, 3, 0, 4), 2 (2).
    const sorted = Object.assign(new CodeSortedRows(), {
      rows,
      codes,
      scratchRows: new Int32Array(7),
      scratchCodes: new Uint16Array(7),
    });
    const work = new PartitionScratch(branchOf, new Int32Array(0), new Uint8Array(0), 3);
    partitionByCode(sorted, 1, 7, { count: 3, sizes: Int32Array.from([2, 4, 1]) }, work);
    expect(Array.from(rows)).toEqual([9, 5, 1, 7, 3, 0, 4, 2]);
    expect(Array.from(codes)).toEqual([0, 1, 2, 1, 2, 3, 4, 4]);
  });

  it('with few bins grows a valid tree that loses no weight and predicts well', () => {
    const data = randomData(3, 2000, 0.05);
    const exact = fit(data, { prune: 'none', minSamplesLeaf: 5 });
    const hist = fit(data, { prune: 'none', minSamplesLeaf: 5, bins: 8 });
    const leaves = hist.nodes.filter((n) => !n.split);
    leaves
      .reduce((acc, l) => acc.map((v, c) => v + l.counts[c]), [0, 0, 0])
      .forEach((v, c) => expect(v).toBeCloseTo(hist.nodes[0].counts[c], 9));
    expect(sum(hist.nodes[0].counts)).toBe(2000);
    const acc = (t: typeof hist) => {
      const p = t.predictCodes(data);
      return p.filter((c, i) => c === data.labels[i]).length / data.nRows;
    };
    expect(acc(hist)).toBeGreaterThan(acc(exact) - 0.05);
    expect(hist.options.bins).toBe(8);
  });

  it('spreads a row whose split value is missing over every branch (fractional policy)', () => {
    const data = randomData(4, 400, 0.1);
    const tree = fit(data, { bins: 16, missing: 'fractional', prune: 'none', maxDepth: 3 });
    const root = tree.nodes[0];
    const col = data.features[root.split!.feature];
    const missing =
      col.kind === 'numeric' ? col.values.filter((v) => Number.isNaN(v)).length : col.codes.filter((c) => c < 0).length;
    expect(missing).toBeGreaterThan(0);
    // Each child holds its own rows and every row whose split value is missing.
    const kids = root.children!.map((c) => tree.nodes[c]);
    expect(sum(kids.map((k) => k.n))).toBe(400 + (kids.length - 1) * missing);
    for (const node of tree.nodes) {
      if (!node.split) continue;
      expect(node.missingBranch).toBeUndefined();
      const below = node.children!.map((c) => tree.nodes[c]);
      node.counts.forEach((w, c) => expect(sum(below.map((k) => k.counts[c]))).toBeCloseTo(w, 9));
    }
  });

  it("grows exact mode's tree under the fractional policy where the bins are the categories", () => {
    const random = mulberry32(9);
    const rows = Array.from({ length: 600 }, () => {
      const a = 'pqrs'[Math.floor(random() * 4)];
      const b = 'xyz'[Math.floor(random() * 3)];
      const y = (a === 'p' || b === 'z') === random() < 0.85 ? 'yes' : 'no';
      return { a: random() < 0.15 ? null : a, b: random() < 0.15 ? null : b, y };
    });
    const data = datasetFromRows(rows, { target: 'y' });
    const nodes = (t: ReturnType<typeof fit>) => JSON.stringify(t.toJSON().nodes);
    const exact = fit(data, { algorithm: 'c45' });
    expect(exact.nodes.length).toBeGreaterThan(3);
    expect(nodes(fit(data, { algorithm: 'c45', bins: 16 }))).toBe(nodes(exact));
  });
});
