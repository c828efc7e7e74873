import { describe, expect, it } from 'vitest';
import { fit } from '../../src/algorithms/fit.js';
import { mulberry32 } from '../../src/core/random.js';
import { datasetFromRows } from '../../src/data/encode.js';
import { sortInto } from '../../src/learn/grow.js';
import { PartitionScratch, partitionSorted, partitionWithClones } from '../../src/learn/partition.js';
import { ENTRY, NEW_VALUE } from '../../src/split/sorted-slice.js';

/** For each element of `order[from..to)` after the first: is its value different from the previous one's? */
function marks(order: Int32Array, from: number, to: number): boolean[] {
  return Array.from({ length: Math.max(0, to - from - 1) }, (_, i) => (order[from + i + 1] & NEW_VALUE) !== 0);
}
function truth(order: Int32Array, from: number, to: number, valueAt: (e: number) => number): boolean[] {
  return Array.from({ length: Math.max(0, to - from - 1) }, (_, i) => {
    const a = valueAt(order[from + i] & ENTRY);
    const b = valueAt(order[from + i + 1] & ENTRY);
    return !(a === b || (Number.isNaN(a) && Number.isNaN(b)));
  });
}

describe('sorted slices', () => {
  const random = mulberry32(11);
  const column = (n: number) =>
    Float64Array.from({ length: n }, () => {
      const u = random();
      return u < 0.1 ? NaN : u < 0.2 ? (random() < 0.5 ? -0 : 0) : Math.floor(random() * 12) / 4;
    });

  it('marks every change of value after sorting, and keeps the marks true and the labels with their entries through binary and k-way partitions', () => {
    for (const branches of [2, 3, 5]) {
      for (let trial = 0; trial < 20; trial++) {
        const n = 1 + Math.floor(random() * 300);
        const x = column(n);
        const labels = Int32Array.from({ length: n }, () => Math.floor(random() * 300));
        const slice = { order: new Int32Array(n), labs: new Uint16Array(n) };
        const { order, labs } = slice;
        sortInto(x, labels, slice);
        const value = (e: number) => x[e];
        const labelsFollow = () => Array.from(order, (v, i) => labs[i] === labels[v & ENTRY]).every(Boolean);
        expect(labelsFollow()).toBe(true);
        expect(marks(order, 0, n)).toEqual(truth(order, 0, n, value));
        // Partition a sub-slice twice in a row, as a node and then its child.
        const start = Math.floor(random() * (n / 3));
        let end = n - Math.floor(random() * (n / 3));
        for (let level = 0; level < 2 && end - start > 1; level++) {
          const branchOf = new Int32Array(n);
          const sizes = new Int32Array(branches);
          for (let i = start; i < end; i++) sizes[(branchOf[order[i] & ENTRY] = Math.floor(random() * branches))]++;
          const before = Array.from(order.subarray(start, end), (v) => v & ENTRY);
          const work = new PartitionScratch(branchOf, new Int32Array(n), new Uint16Array(n), branches);
          partitionSorted(slice, start, end, { count: branches, sizes }, work);
          expect(labelsFollow()).toBe(true);
          let from = start;
          for (let b = 0; b < branches; b++) {
            const to = from + sizes[b];
            // Stable: the branch's entries in their old order; marks say where the value changes.
            expect(Array.from(order.subarray(from, to), (v) => v & ENTRY)).toEqual(
              before.filter((e) => branchOf[e] === b),
            );
            expect(marks(order, from, to)).toEqual(truth(order, from, to, value));
            from = to;
          }
          end = start + sizes[0]; // grow into the first child
        }
      }
    }
  });

  it('keeps the marks true when entries with a missing split value are cloned into every branch', () => {
    for (let trial = 0; trial < 30; trial++) {
      const n = 2 + Math.floor(random() * 200);
      const x = column(n);
      const labels = Int32Array.from({ length: n }, () => Math.floor(random() * 5));
      const slice = { order: new Int32Array(n), labs: new Uint8Array(n) };
      sortInto(x, labels, slice);
      const { order } = slice;
      const branches = 2 + Math.floor(random() * 2);
      const branchOf = new Int32Array(n);
      const firstClone = new Int32Array(n);
      const rowOf: number[] = Array.from({ length: n }, (_, i) => i);
      const sizes = new Int32Array(branches);
      let missing = 0;
      for (let e = 0; e < n; e++) {
        const b = random() < 0.2 ? -1 : Math.floor(random() * branches);
        branchOf[e] = b;
        if (b < 0) {
          missing++;
          firstClone[e] = rowOf.length;
          for (let c = 1; c < branches; c++) rowOf.push(e);
        } else sizes[b]++;
      }
      for (let b = 0; b < branches; b++) sizes[b] += missing;
      const work = new PartitionScratch(branchOf, new Int32Array(0), new Uint8Array(0), branches);
      work.firstClone = firstClone;
      const br = { count: branches, sizes };
      const { order: out, labs: outLabs } = partitionWithClones(order, slice.labs, 0, n, br, work);
      expect(Array.from(out, (v, i) => outLabs[i] === labels[rowOf[v & ENTRY]]).every(Boolean)).toBe(true);
      let from = 0;
      for (let b = 0; b < branches; b++) {
        const to = from + sizes[b];
        expect(marks(out, from, to)).toEqual(truth(out, from, to, (e) => x[rowOf[e]]));
        from = to;
      }
    }
  });
});

describe('columnOrder', () => {
  it("gives a subset of rows in increasing order the same order (and slice) as sorting it, from its parent's kept order (nested, float32 parent, unordered rows)", async () => {
    const { columnOrder, fillSortedSlice } = await import('../../src/split/column-order.js');
    const { argsortNumeric } = await import('../../src/split/argsort.js');
    const { subsetRows } = await import('../../src/data/subset.js');
    const { datasetFromRows } = await import('../../src/data/encode.js');
    const random = mulberry32(21);
    const cell = () => {
      const u = random();
      return u < 0.1 ? '' : u < 0.2 ? (random() < 0.5 ? '-0' : '0') : String(Math.floor(random() * 9) / 8 - 0.5);
    };
    const rows = Array.from({ length: 400 }, () => [cell(), cell(), random() < 0.5 ? 'a' : 'b']);
    const same = (d: ReturnType<typeof datasetFromRows>) => {
      for (let f = 0; f < 2; f++) {
        const values = (d.features[f] as { values: Float64Array }).values;
        expect(Array.from(columnOrder(d, f))).toEqual(Array.from(argsortNumeric(values)));
        // The slice made in one pass: the same ids, marks and labels as sorting the subset's column.
        const fused = { order: new Int32Array(d.nRows), labs: new Uint8Array(d.nRows) };
        const sorted = { order: new Int32Array(d.nRows), labs: new Uint8Array(d.nRows) };
        fillSortedSlice(d, f, d.labels, fused);
        sortInto(values, d.labels, sorted);
        expect(Array.from(fused.order)).toEqual(Array.from(sorted.order));
        expect(Array.from(fused.labs)).toEqual(Array.from(sorted.labs));
      }
    };
    const pick = (n: number, p: number) => Array.from({ length: n }, (_, i) => i).filter(() => random() < p);
    for (const float32 of [false, true]) {
      const data = datasetFromRows(rows, { columns: ['x', 'y', 'class'], float32 });
      const outer = subsetRows(data, pick(400, 0.8));
      same(outer);
      for (let fold = 0; fold < 3; fold++) same(subsetRows(outer, pick(outer.nRows, 0.7)));
      // Rows out of order (or repeated) are sorted afresh.
      same(subsetRows(data, [5, 3, 3, 399, 0, 17]));
    }
  });
});

describe('many classes', () => {
  it('grows with more than 256 classes (two-byte labels in the slices)', () => {
    const rows = Array.from({ length: 900 }, (_, i) => [
      String((i % 300) + (i % 7) / 10),
      String((i * 37) % 101),
      `c${i % 300}`,
    ]);
    const data = datasetFromRows(rows, { columns: ['x', 'y', 'class'] });
    const tree = fit(data, { algorithm: 'cart', prune: 'none' });
    expect(data.classes).toHaveLength(300);
    expect(Array.from(tree.predictCodes(data))).toEqual(Array.from(data.labels));
  });
});
