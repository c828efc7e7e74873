import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBEngine } from '../../src/engines/duckdb.js';
import type { Engine } from '../../src/engines/engine.js';
import { type LevelRows, Router, type RouteState, tableStepOf } from '../../src/engines/routing.js';
import type { EngineRows } from '../../src/engines/rows.js';
import type { Route } from '../../src/engines/step-sql.js';
import { TempTables } from '../../src/engines/temp-tables.js';
import { clickhouseDialect, type Dialect, duckdbDialect, postgresDialect } from '../../src/sql/index.js';
import { FakeEngine } from './fake-engine.js';

const route = (feature: number, branchOfCode: number[], children: number[]): Route => ({
  feature,
  branchOfCode: Int32Array.from(branchOfCode),
  children: Int32Array.from(children),
  sizes: new Int32Array(children.length),
  leaf: children.map(() => false),
});

/**
 * A level of two parents split, node 1 (slot 0) on c0 (codes 0, 1 left, the missing code 2
 * right) and node 2 (slot 1) on c1 (code 0 left); children 3, 4 and 5 get slots 0, 1, 2, and 6
 * (a leaf) none.
 */
function level(): { state: RouteState; slots: Map<number, number> } {
  const routes = new Map([
    [1, route(0, [0, 0, 1], [3, 4])],
    [2, route(1, [0, 1, 1], [5, 6])],
  ]);
  const state = {
    routes,
    routedChildren: routes,
    slotOf: new Map([
      [1, 0],
      [2, 1],
    ]),
  };
  return {
    state,
    slots: new Map([
      [3, 0],
      [4, 1],
      [5, 2],
    ]),
  };
}

/** The slot `level()` sends a row to (−1: none). */
function expectedSlot(node: number, c0: number, c1: number): number {
  if (node === 0) return c0 <= 1 ? 0 : 1;
  if (node === 1) return c1 === 0 ? 2 : -1;
  return -1;
}

const rowsOf = (engine: Engine) => ({ engine, schema: { features: [{}, {}] } }) as unknown as EngineRows;

const tableRows = (from: string, rows: number | null): LevelRows => ({
  from,
  node: 'node',
  weighted: false,
  params: [],
  flat: null,
  tableRows: rows,
  drop: async () => {},
});

function router(engine: Engine, state: RouteState): Router {
  return new Router(rowsOf(engine), new TempTables(engine), state, 3);
}

describe('the table step is chosen once from the dialect’s capabilities', () => {
  it('lookup lists as columns in DuckDB, a CASE in PostgreSQL, literal lists in ClickHouse', () => {
    expect(tableStepOf(duckdbDialect)).toBe('lookup');
    expect(tableStepOf(postgresDialect)).toBe('case');
    expect(tableStepOf(clickhouseDialect)).toBe('literal');
    // Capabilities, not names: a DuckDB without integer lists falls back to the CASE.
    expect(tableStepOf({ ...duckdbDialect, intList: undefined })).toBe('case');
  });

  it('writes each step’s SQL: lookups, a CASE over parents, literal lists', async () => {
    const { state, slots } = level();
    const sql = async (d: Dialect, open: number) => {
      const engine = new FakeEngine(d);
      const next = await router(engine, state).next(tableRows('prev', d.nodeColumn ? 100 : null), slots, open);
      return { log: engine.log.join('\n'), next };
    };
    const update = await sql(duckdbDialect, 60);
    expect(update.log).toMatch(/^UPDATE prev SET node = CASE lf\[CAST\(node AS INTEGER\) \+ 1\] WHEN 0 THEN lc\[/);
    expect(update.next.from).toBe('prev');
    const lookup = await sql(duckdbDialect, 40);
    expect(lookup.log).toMatch(/^CREATE t1 SELECT CAST\(slot AS SMALLINT\) AS node, y, c0, c1 FROM \(SELECT CASE sf /);
    expect(lookup.next).toMatchObject({ from: 't1', node: 'node', tableRows: 40 });
    const pg = await sql(postgresDialect, 40);
    expect(pg.log).toContain('CASE WHEN node = 0 THEN CASE WHEN c0 <= 1 THEN 0 WHEN c0 = 2 THEN 1 ELSE -1 END');
    expect(pg.log).not.toMatch(/UPDATE|lf\[/);
    expect(pg.next.tableRows).toBeNull();
    const ch = await sql(clickhouseDialect, 40);
    expect(ch.log).toContain('[0, 1][toUInt32(node) + 1]');
    expect(ch.log).not.toMatch(/UPDATE|CASE/);
  });

  it('one parent split: its step becomes the rows’ node, no table; flat rows walk the tree, no table', async () => {
    const engine = new FakeEngine(duckdbDialect);
    const one = { routes: new Map([[0, route(0, [0, 1], [1, 2])]]), slotOf: new Map([[0, 0]]) };
    const state = { ...one, routedChildren: one.routes };
    const next = await router(engine, state).next(
      tableRows('prev', 10),
      new Map([
        [1, 0],
        [2, 1],
      ]),
      10,
    );
    expect(next).toMatchObject({
      from: 'prev',
      stepped: true,
      node: 'CASE WHEN node = 0 THEN CASE WHEN c0 = 0 THEN 0 WHEN c0 = 1 THEN 1 ELSE -1 END ELSE -1 END',
    });
    expect(engine.log).toEqual([]);
    const ch = new FakeEngine(clickhouseDialect);
    const row = { from: 'src AS r', y: 'y', w: 'w', values: [], name: (base: string) => `g_${base}` };
    const flat = { ...tableRows('src AS r', null), node: '0', flat: { row, codes: ['k0'] } };
    const walked = await router(ch, state).next(
      flat,
      new Map([
        [1, 0],
        [2, 1],
      ]),
      10,
    );
    expect(walked.node).toMatch(/^arrayMap\(g_cs -> toInt64\(arrayMap\(g_s -> /);
    expect(walked.node).toContain('CAST(k0 AS');
    expect(ch.log).toEqual([]);
  });
});

describe('every step routes rows alike in DuckDB', () => {
  let engine: DuckDBEngine;
  beforeAll(async () => {
    engine = await DuckDBEngine.open();
  });
  afterAll(async () => {
    await engine?.close();
  });

  /** Rows of every (node, c0, c1), y their number, in a table with a node column. */
  async function levelTable(name: string): Promise<Map<number, number>> {
    await engine.query(`DROP TABLE IF EXISTS ${name}`);
    await engine.query(`CREATE TEMPORARY TABLE ${name} (node SMALLINT, y INTEGER, c0 INTEGER, c1 INTEGER)`);
    const expected = new Map<number, number>();
    const values: string[] = [];
    for (const node of [-1, 0, 1])
      for (let c0 = 0; c0 < 3; c0++)
        for (let c1 = 0; c1 < 3; c1++) {
          values.push(`(${node}, ${values.length}, ${c0}, ${c1})`);
          expected.set(values.length - 1, expectedSlot(node, c0, c1));
        }
    await engine.query(`INSERT INTO ${name} VALUES ${values.join(', ')}`);
    return expected;
  }

  const slotsOf = async (rows: LevelRows) =>
    new Map(
      (await engine.query(`SELECT y, ${rows.node} FROM ${rows.from}`)).map(([y, n]) => [y, n] as [number, number]),
    );

  it('the lookup, the CASE and the in-place update give each row the same slot', async () => {
    const { state, slots } = level();
    const expected = await levelTable('lvl');
    const inOpen = new Map([...expected].filter(([, s]) => s >= 0));
    const lookup = await router(engine, state).next(tableRows('lvl', null), slots, 10);
    expect(await slotsOf(lookup)).toEqual(inOpen);
    const dialect = { ...duckdbDialect, intList: undefined };
    const cased = await router(Object.assign(Object.create(engine), { dialect }), state).next(
      tableRows('lvl', null),
      slots,
      10,
    );
    expect(await slotsOf(cased)).toEqual(inOpen);
    const updated = await router(engine, state).next(tableRows('lvl', 20), slots, 20);
    expect(updated.from).toBe('lvl');
    expect(await slotsOf(updated)).toEqual(expected);
  });
});
