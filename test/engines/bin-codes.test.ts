import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBEngine, duckdbDialect } from '../../src/engines/duckdb.js';
import { binCode, listSearch, Params } from '../../src/engines/rows.js';
import type { BinnedFeature } from '../../src/split/histogram.js';

let engine: DuckDBEngine;
beforeAll(async () => {
  engine = await DuckDBEngine.open();
});
afterAll(async () => {
  await engine?.close();
});

const binned = (hi: number[]): BinnedFeature => ({
  codes: new Uint8Array(0),
  bins: hi.length,
  lo: Float64Array.from(hi),
  hi: Float64Array.from(hi),
});

// Values on, between, below and above the edges, extremes and NULL.
const VALUES = [
  null,
  -Infinity,
  -1e300,
  -2.5,
  -0,
  0,
  5e-324,
  0.1,
  0.30000000000000004,
  0.3,
  1,
  1.5,
  2,
  7,
  99.999,
  100,
  1e300,
  Infinity,
];
const EDGES: number[][] = [
  [],
  [1],
  [0.3, 2],
  [-2.5, 0, 0.30000000000000004, 1, 2, 7, 100],
  [-Infinity, 0.1, 1.5, Infinity],
  Array.from({ length: 255 }, (_, i) => i * 0.1 + 0.1 - 5),
  Array.from({ length: 129 }, (_, i) => i ** 2 / 7),
];

describe('bin codes by list search (DuckDB) equal the nested-CASE binary search', () => {
  for (const edges of EDGES) {
    it(`${edges.length} edges`, async () => {
      const bf = binned(edges);
      const rows = (p: Params) => {
        const values = VALUES.map((v, i) => `(${i}, ${v === null ? 'NULL' : `CAST(${p.add(String(v))} AS DOUBLE)`})`);
        return `(SELECT 0 AS y, 1 AS w, v0 FROM (VALUES ${values.join(', ')}) AS t(i, v0))`;
      };
      const p = new Params(duckdbDialect);
      const searched = listSearch([bf], rows(p), duckdbDialect, p);
      const byList = await engine.query(`SELECT ${searched.codes[0]} FROM ${searched.from} AS s ORDER BY v0`, p.values);
      const q = new Params(duckdbDialect);
      const from = rows(q);
      const byCase = await engine.query(`SELECT ${binCode('v0', bf, q)} FROM ${from} AS s ORDER BY v0`, q.values);
      expect(byList).toEqual(byCase);
      expect(byList.length).toBe(VALUES.length);
    });
  }
});
