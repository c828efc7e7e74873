import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClickHouseEngine, clickhouseDialect } from '../../src/engines/clickhouse.js';
import { flatBinCode } from '../../src/engines/flat.js';
import { binCode, Params } from '../../src/engines/rows.js';
import { type ClickHouseHandle, clickhouseUnavailable, startClickHouse } from '../helpers/servers/clickhouse.js';
import { BIN_EDGES, BIN_VALUES, binned } from './bin-cases.js';

const why = clickhouseUnavailable();
if (why) console.warn(`skipping ClickHouse flat-query tests: ${why}`);

describe.skipIf(why !== undefined)('bin codes as one expression (ClickHouse, rows on other servers)', () => {
  let server: ClickHouseHandle;
  let engine: ClickHouseEngine;
  beforeAll(async () => {
    server = await startClickHouse();
    engine = await ClickHouseEngine.open(`clickhouse://${server.url.replace(/^http:\/\//, '')}/default`);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  for (const edges of BIN_EDGES) {
    it(`${edges.length} edges: the codes of the nested-CASE binary search`, async () => {
      const bf = binned(edges);
      const p = new Params(clickhouseDialect);
      const values = BIN_VALUES.map(
        (v, i) => `SELECT ${i} AS i, CAST(${v === null ? 'NULL' : p.add(v)} AS Nullable(Float64)) AS v0`,
      );
      const from = `(${values.join(' UNION ALL ')})`;
      const list = (vs: number[]) => clickhouseDialect.doubleList!(vs, (x) => p.add(x));
      const flat = flatBinCode('v0', bf, list, (base) => `grove_${base}`);
      const byFlat = await engine.query(`SELECT i, toFloat64(${flat}) FROM ${from} ORDER BY i`);
      const byCase = await engine.query(`SELECT i, toFloat64(${binCode('v0', bf, p)}) FROM ${from} ORDER BY i`);
      expect(byFlat).toEqual(byCase);
      expect(byFlat.length).toBe(BIN_VALUES.length);
    });
  }
});
