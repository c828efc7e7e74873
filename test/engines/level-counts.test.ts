import { describe, expect, it } from 'vitest';
import { type HistLayout, LevelCounts } from '../../src/engines/level-counts.js';
import type { LevelRows } from '../../src/engines/routing.js';
import { TempTables } from '../../src/engines/temp-tables.js';
import { HistogramPool } from '../../src/split/histogram-pool.js';
import { duckdbDialect, postgresDialect } from '../../src/sql/index.js';
import { FakeEngine } from './fake-engine.js';

/** Two classes; feature 0 with 2 bins (codes 0 … 2, the last missing), feature 1 with 1 (codes 0, 1). */
const layout: HistLayout = { k: 2, d: 2, stride: 3, offset: Int32Array.from([0, 9]), codeCount: 3 };
const SIZE = 15;

const level = (node = 'node', weighted = true): LevelRows => ({
  from: 'lvl',
  node,
  weighted,
  params: [],
  flat: null,
  tableRows: null,
  drop: async () => {},
});

function counts(engine: FakeEngine) {
  const tables = new TempTables(engine);
  return { counts: new LevelCounts(engine, layout, new HistogramPool(SIZE), tables), tables };
}

describe('LevelCounts', () => {
  it('counts only the slots asked for, a statement per feature in DuckDB, with the weight or 1', () => {
    const { counts: duck } = counts(new FakeEngine(duckdbDialect));
    const statements = duck.statements(level('CASE WHEN node = 0 THEN 1 ELSE -1 END'), 1, 2);
    expect(statements).toHaveLength(2);
    for (const sql of statements) {
      expect(sql).toContain('SELECT CASE WHEN node = 0 THEN 1 ELSE -1 END AS node, y, w AS w, c0, c1 FROM lvl');
      expect(sql).toContain('WHERE node >= 1 AND node < 3');
    }
    expect(statements[1]).toMatch(/GROUP BY node, y, c1$/);
    const { counts: pg } = counts(new FakeEngine(postgresDialect));
    expect(pg.statements(level('node', false), 0, 1).join('\n')).toContain('CAST(1 AS double precision) AS w');
  });

  it('adds each answered row to its slot’s histogram at its feature and code, class rows apart', async () => {
    const engine = new FakeEngine(duckdbDialect);
    // node, y, f, code, weight, rows: from the saved tables of counts (one statement each).
    engine.answer = (sql) =>
      sql.includes('FROM s1 ')
        ? [
            [1, 0, 0, 1, 2.5, 1],
            [1, 1, 1, 0, 1, 1],
          ]
        : [[2, 1, 0, 2, 3, 2]];
    const { counts: c } = counts(engine);
    const saved = [
      { name: 's1', drop: async () => {} },
      { name: 's2', drop: async () => {} },
    ];
    const [a, b] = await c.fetch(level(), 1, 2, saved, true);
    expect(engine.log[0]).toBe(
      'SELECT CAST(node AS DOUBLE), CAST(y AS DOUBLE), CAST(f AS DOUBLE), CAST(code AS DOUBLE), ' +
        'CAST(weight AS DOUBLE), CAST(n AS DOUBLE) FROM s1 AS counts WHERE node >= 1 AND node < 3',
    );
    const want = (cells: [number, number][]) => {
      const h = new Float64Array(SIZE);
      for (const [at, v] of cells) h[at] = v;
      return h;
    };
    expect(a.hist).toEqual(
      want([
        [3, 2.5],
        [5, 1],
        [10, 1],
        [11, 1],
      ]),
    );
    expect(a.classRows).toEqual(
      want([
        [3, 1],
        [10, 1],
      ]),
    );
    expect(b.hist).toEqual(
      want([
        [7, 3],
        [8, 2],
      ]),
    );
    expect(b.classRows).toEqual(want([[7, 2]]));
  });

  it('saves a level’s counts in narrow tables, one per statement; a table refused drops those made', async () => {
    const engine = new FakeEngine(duckdbDialect);
    const { counts: c, tables } = counts(engine);
    const saved = (await c.save(level(), 300))!;
    expect(saved.map((t) => t.name)).toEqual(['t1', 't2']);
    expect(engine.log[0]).toMatch(
      /^CREATE t1 SELECT CAST\(counts.node AS USMALLINT\) AS node, CAST\(counts.y AS UTINYINT\) AS y, /,
    );
    expect(tables.size).toBe(2);
    await tables.dropAll();
    let made = 0;
    engine.refuse = () => ++made === 2;
    await expect(c.save(level(), 300)).rejects.toThrow('duckdb made no temporary table of counts');
    expect(engine.log.slice(-1)).toEqual(['DROP t3']);
    expect(tables.size).toBe(0);
    expect(await c.save({ ...level(), flat: { row: {} as never, codes: [] } }, 300)).toBeNull();
  });
});
