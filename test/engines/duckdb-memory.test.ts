import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GroveError } from '../../src/core/errors.js';
import { DuckDBEngine } from '../../src/engines/duckdb.js';
import { DUCKDB_DEFAULT_MEMORY, duckdbMemory, parseDuckDBSize } from '../../src/engines/duckdb-memory.js';

/** A list of 3·10⁶ integers in one aggregate state: ~24 MB DuckDB cannot spill. */
const NEEDS_MEMORY = 'SELECT CAST(length(list(range)) AS DOUBLE) FROM range(3000000)';

/** Open an in-memory engine with the memory settings these variables give. */
const openWith = (env: Record<string, string>) => DuckDBEngine.open(':memory:', duckdbMemory(env));

const limitOf = async (engine: DuckDBEngine) =>
  String((await engine.query("SELECT current_setting('memory_limit')"))[0][0]);

describe('DuckDB memory settings', () => {
  it('reads sizes as DuckDB writes them (MB decimal, MiB binary) and refuses others', () => {
    expect(parseDuckDBSize('64MB')).toBe(64e6);
    expect(parseDuckDBSize('1.5 GiB')).toBe(1.5 * 2 ** 30);
    expect(parseDuckDBSize('2gb')).toBe(2e9);
    expect(parseDuckDBSize('4096')).toBe(4096);
    for (const bad of ['', 'MB', '64 parsecs', '-1MB', '1e6MB']) expect(parseDuckDBSize(bad)).toBeNull();
  });

  it('starts at 48MB; the most a statement gets is a quarter of RAM unless set, never below the start', () => {
    const d = duckdbMemory({});
    expect(d.setting).toBe(DUCKDB_DEFAULT_MEMORY);
    expect(d.start).toBe(48e6);
    expect(d.most).toBeGreaterThanOrEqual(d.start);
    expect(duckdbMemory({ GROVE_DUCKDB_MEMORY: '1GB', GROVE_DUCKDB_MEMORY_MAX: '100MB' }).most).toBe(1e9);
    expect(() => duckdbMemory({ GROVE_DUCKDB_MEMORY: 'lots' })).toThrow(
      /GROVE_DUCKDB_MEMORY: 'lots' is not a size such as 64MB/,
    );
    expect(() => duckdbMemory({ GROVE_DUCKDB_MEMORY_MAX: '0MB' })).toThrow(GroveError);
  });
});

describe('DuckDB: a statement that runs out of memory', () => {
  let engine: DuckDBEngine | undefined;
  afterEach(async () => {
    await engine?.close();
    engine = undefined;
  });

  it('runs again with a larger limit, and the start limit comes back after it', async () => {
    engine = await openWith({ GROVE_DUCKDB_MEMORY: '8MB', GROVE_DUCKDB_MEMORY_MAX: '1GB' });
    const start = await limitOf(engine);
    expect(await engine.query(NEEDS_MEMORY)).toEqual([[3000000]]);
    expect(await limitOf(engine)).toBe(start);
    // The same for a streamed result and a table.
    const streamed: number[] = [];
    await engine.streamNumbers(NEEDS_MEMORY, [], ([n]) => void streamed.push(n[0]));
    expect(streamed).toEqual([3000000]);
    const table = await engine.tempTable(`SELECT list(range) AS l FROM range(3000000)`, []);
    expect(await engine.query(`SELECT CAST(length(l) AS DOUBLE) FROM ${table.name}`)).toEqual([[3000000]]);
    await table.drop();
    expect(await limitOf(engine)).toBe(start);
  });

  it('fails with one line naming GROVE_DUCKDB_MEMORY_MAX when the most it may have is not enough', async () => {
    engine = await openWith({ GROVE_DUCKDB_MEMORY: '8MB', GROVE_DUCKDB_MEMORY_MAX: '8MB' });
    const failed = engine.query(NEEDS_MEMORY);
    await expect(failed).rejects.toThrow(GroveError);
    await expect(failed).rejects.toThrow(/^DuckDB: Out of Memory Error: .*\(GROVE_DUCKDB_MEMORY_MAX sets the most/);
    // The engine stays usable.
    expect(await engine.query('SELECT 1')).toEqual([[1]]);
  });
});

describe('DuckDB: grove’s tables live in a database file of its own, removed on close', () => {
  it('a read-only database file trains from its table; the work database goes with the engine', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'grove-duckdb-ro-'));
    try {
      const file = join(dir, 'shop.duckdb');
      const writer = await openWith({});
      // The engine opens :memory: read-write: attach the user's file to fill it.
      await writer.query(`ATTACH '${file.replaceAll("'", "''")}' AS shop`);
      await writer.query('CREATE TABLE shop.main.t AS SELECT range AS x FROM range(10)');
      await writer.query('DETACH shop');
      await writer.close();

      const engine = await DuckDBEngine.open(file);
      const table = await engine.tempTable('SELECT x * 2 AS y FROM t', []);
      expect(await engine.query(`SELECT CAST(sum(y) AS DOUBLE) FROM ${table.name}`)).toEqual([[90]]);
      const where = await engine.query(
        "SELECT database_name, CAST(temporary AS VARCHAR) FROM duckdb_tables() WHERE table_name LIKE 'grove%'",
      );
      expect(where).toHaveLength(1);
      expect(String(where[0][0])).toMatch(/^grove_work_\d+_[0-9a-f]{8}$/);
      // The user's file stays read-only.
      await expect(engine.query('CREATE TABLE t2 AS SELECT 1')).rejects.toThrow(/read-only/i);
      await table.drop();
      await engine.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
