import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBEngine, duckdbDialect } from '../../src/engines/duckdb.js';
import { binCode, listSearch, Params } from '../../src/engines/rows.js';
import { binned, BIN_EDGES as EDGES, BIN_VALUES as VALUES } from './bin-cases.js';

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
