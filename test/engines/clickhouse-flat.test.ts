import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClickHouseEngine } from '../../src/engines/clickhouse.js';
import { flatBinCode } from '../../src/engines/flat.js';
import { binCode, Params } from '../../src/engines/rows.js';
import { caseCodeOf, clickhouseDialect } from '../../src/sql/index.js';
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
    await engine?.close();
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

  it('category codes by lookup (transform): those of the CASE, NULL and unknown values the missing code, 300 categories', async () => {
    const p = new Params(clickhouseDialect);
    const keys = Array.from({ length: 300 }, (_, i) => p.add(`c${i}`));
    const values = ['c0', 'c1', 'c255', 'c256', 'c299', 'other', '', null];
    const from = `(${values.map((v, i) => `SELECT ${i} AS i, CAST(${v === null ? 'NULL' : p.add(v)} AS Nullable(String)) AS v`).join(' UNION ALL ')})`;
    const byLookup = await engine.query(
      `SELECT i, toFloat64(${clickhouseDialect.codeOf('v', keys, 300)}) FROM ${from} ORDER BY i`,
    );
    const byCase = await engine.query(`SELECT i, toFloat64(${caseCodeOf('v', keys, 300)}) FROM ${from} ORDER BY i`);
    expect(byLookup).toEqual(byCase);
    expect(byLookup.map((r) => r[1])).toEqual([0, 1, 255, 256, 299, 300, 300, 300]);
  });
});
