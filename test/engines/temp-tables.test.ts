import { describe, expect, it } from 'vitest';
import { GroveError } from '../../src/core/errors.js';
import { TempTables } from '../../src/engines/temp-tables.js';
import { duckdbDialect, postgresDialect } from '../../src/sql/index.js';
import { FakeEngine } from './fake-engine.js';

describe('TempTables', () => {
  it('drops each table once, by its own drop or by dropAll', async () => {
    const engine = new FakeEngine(duckdbDialect);
    const tables = new TempTables(engine);
    const a = await tables.make('SELECT 1', [], 'of a');
    const b = await tables.make('SELECT 2', [], 'of b');
    expect(tables.size).toBe(2);
    await a.drop();
    await a.drop();
    expect(tables.size).toBe(1);
    await tables.dropAll();
    await b.drop();
    await tables.dropAll();
    expect(tables.size).toBe(0);
    expect(engine.log).toEqual(['CREATE t1 SELECT 1', 'CREATE t2 SELECT 2', 'DROP t1', 'DROP t2']);
  });

  it('tryMake gives null where the engine keeps the rows in place; make names the table it missed', async () => {
    const engine = new FakeEngine(postgresDialect);
    engine.refuse = () => true;
    const tables = new TempTables(engine);
    expect(await tables.tryMake('SELECT 1', [])).toBeNull();
    const made = tables.make('SELECT 1', [], 'of counts');
    await expect(made).rejects.toThrow(GroveError);
    await expect(made).rejects.toThrow('postgres made no temporary table of counts');
    expect(tables.size).toBe(0);
  });

  it('dropAll tries every table when one drop fails, then reports that failure', async () => {
    const engine = new FakeEngine(duckdbDialect);
    const tables = new TempTables(engine);
    const base = engine.tempTable.bind(engine);
    engine.tempTable = async (select) => {
      const t = (await base(select))!;
      if (select === 'SELECT bad') return { name: t.name, drop: () => Promise.reject(new Error('lost connection')) };
      return t;
    };
    await tables.make('SELECT 1', [], 'of a');
    await tables.make('SELECT bad', [], 'of b');
    await tables.make('SELECT 3', [], 'of c');
    await expect(tables.dropAll()).rejects.toThrow('lost connection');
    expect(engine.log.filter((s) => s.startsWith('DROP'))).toEqual(['DROP t1', 'DROP t3']);
    expect(tables.size).toBe(0);
  });
});
