import { describe, expect, it } from 'vitest';
import { classCounts, continuousTarget, summarizeColumn } from '../../src/data/describe.js';
import { datasetFromRows } from '../../src/data/encode.js';
import { labelFromColumn } from '../../src/data/label-column.js';

describe('summarizeColumn', () => {
  it('numeric: missing, distinct (not counting missing), min and max; categorical: distinct codes present', () => {
    const d = datasetFromRows(
      [
        { x: 3, c: 'a', y: 'p' },
        { x: null, c: null, y: 'p' },
        { x: -1, c: 'b', y: 'q' },
        { x: 3, c: 'a', y: 'q' },
      ],
      { target: 'y' },
    );
    expect(summarizeColumn(d.features[0])).toMatchObject({ kind: 'numeric', missing: 1, distinct: 2, min: -1, max: 3 });
    expect(summarizeColumn(d.features[1])).toMatchObject({
      kind: 'categorical',
      missing: 1,
      distinct: 2,
      categories: 2,
    });
    expect(classCounts(d)).toEqual([
      { label: 'p', rows: 2 },
      { label: 'q', rows: 2 },
    ]);
  });
});

describe('labelFromColumn', () => {
  it('turns a categorical column into labels (texts kept), leaving its missing rows out', () => {
    const table = datasetFromRows(
      [
        { x: 1, y: '01' },
        { x: 2, y: null },
        { x: 3, y: '1' },
        { x: 4, y: '' },
        { x: 5, y: '01' },
      ],
      { noTarget: true, categorical: ['y'] },
    );
    const { data, unlabelled, firstUnlabelled } = labelFromColumn(table, 'y');
    expect([unlabelled, firstUnlabelled, data.nRows]).toEqual([2, 1, 3]);
    expect(data.classes).toEqual(['01', '1']);
    expect(Array.from(data.labels)).toEqual([0, 1, 0]);
    expect(data.features.map((f) => f.name)).toEqual(['x']);
    expect(Array.from((data.features[0] as { values: Float64Array }).values)).toEqual([1, 3, 5]);
    expect(() => labelFromColumn(table, 'nope')).toThrow(/no column 'nope'/);
    expect(() => labelFromColumn(table, 'x')).toThrow(/not read as labels/);
  });
});

describe('continuousTarget', () => {
  it('many numeric labels, or ten with fractions, look continuous; a few class codes do not', () => {
    const rows = (k: number, f: (i: number) => number | string) =>
      datasetFromRows(
        Array.from({ length: 100 }, (_, i) => ({ x: i, y: f(i % k) })),
        { target: 'y' },
      );
    expect(continuousTarget(rows(40, (i) => i))).toMatch(/40 distinct numeric values/);
    expect(continuousTarget(rows(10, (i) => i + 0.5))).toMatch(/some with fractions/);
    expect(continuousTarget(rows(12, (i) => (i / 4).toFixed(2)))).toMatch(/12 distinct numeric values/);
    expect(continuousTarget(rows(5, (i) => i))).toBeUndefined();
    expect(continuousTarget(rows(20, (i) => i))).toBeUndefined();
    expect(continuousTarget(rows(40, (i) => `c${i}`))).toBeUndefined();
  });
});
