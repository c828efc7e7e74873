import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/core/random.js';
import { codeGrid } from '../../src/engines/code-grid.js';
import { DuckDBEngine } from '../../src/engines/duckdb.js';
import { listSearch, Params } from '../../src/engines/rows.js';
import { binFeature } from '../../src/split/histogram.js';
import { duckdbDialect } from '../../src/sql/index.js';
import { BIN_EDGES as EDGES, searchBothWays, BIN_VALUES as VALUES } from './bin-cases.js';

let engine: DuckDBEngine;
beforeAll(async () => {
  engine = await DuckDBEngine.open();
});
afterAll(async () => {
  await engine?.close();
});

describe('bin codes by list search (DuckDB) equal the nested-CASE binary search', () => {
  for (const edges of EDGES) {
    it(`${edges.length} edges`, async () => {
      const { byList, byCase } = await searchBothWays(engine, duckdbDialect, 'DOUBLE', edges);
      expect(byList).toEqual(byCase);
      expect(byList.length).toBe(VALUES.length);
    });
  }
});

describe('bin codes by grid lookup (DuckDB) equal the in-memory bins of the training values', () => {
  const random = mulberry32(17);
  // Whether a grid saves lookups: not where most bins crowd into one cell (the binary search then).
  const cases: [string, number[], boolean][] = [
    ['uniform', Array.from({ length: 5000 }, () => random() * 1000), true],
    ['normal', Array.from({ length: 5000 }, () => random() + random() + random() - random() * 3), true],
    ['crowded near zero', Array.from({ length: 5000 }, () => (-Math.log(1 - random())) ** 4), false],
    ['ties and negatives', Array.from({ length: 5000 }, () => Math.round(random() * 600) / 2 - 100), true],
    ['tiny span', Array.from({ length: 3000 }, () => 1 + random() * 1e-12), true],
    ['one outlier', [...Array.from({ length: 3000 }, () => random()), 1e15], false],
  ];
  for (const [name, values, gridded] of cases) {
    it(name, async () => {
      const bf = binFeature({ kind: 'numeric', name: 'x', values: Float64Array.from(values) }, 255);
      const grid = codeGrid(bf.lo, bf.hi, bf.bins, 8);
      expect(grid !== null).toBe(gridded);
      const p = new Params(duckdbDialect);
      const rows = `(SELECT 0 AS y, 1 AS w, v0 FROM (SELECT unnest(CAST(${p.add(`[${values.join(', ')}]`)} AS DOUBLE[])) AS v0) AS t)`;
      const searched = listSearch([bf], [grid], rows, duckdbDialect, p);
      const got = await engine.query(`SELECT ${searched.codes[0]} FROM ${searched.from} AS s`, p.values);
      expect(got.map(([c]) => c)).toEqual(Array.from(bf.codes));
    });
  }

  it('is refused when it saves nothing over the binary search', () => {
    const xs = Float64Array.from([0, 1e-300, 2e-300, 1]);
    expect(codeGrid(xs, xs, 4, 2)).toBeNull();
    expect(codeGrid(Float64Array.from([0, Infinity]), Float64Array.from([0, Infinity]), 2, 8)).toBeNull();
  });
});
