/**
 * Dates, timestamps and times in PostgreSQL and ClickHouse tables: read into memory as seconds
 * (the unit kept), and an in-database fit gives the model of those rows in memory.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fit } from '../../src/algorithms/fit.js';
import type { Dataset, NumericColumn } from '../../src/data/dataset.js';
import { ClickHouseEngine } from '../../src/engines/clickhouse.js';
import type { Engine } from '../../src/engines/engine.js';
import { PostgresEngine } from '../../src/engines/postgres.js';
import { databaseSource } from '../../src/sources/database.js';
import { parseSourceSpec } from '../../src/sources/engine-source.js';
import { type ClickHouseHandle, clickhouseUnavailable, startClickHouse } from '../helpers/servers/clickhouse.js';
import type { ServerHandle } from '../helpers/servers/common.js';
import { postgresUnavailable, startPostgres } from '../helpers/servers/postgres.js';
import { engineModel } from './identical.js';

const N = 48;
const START = 1577836800; // 2020-01-01 00:00:00 UTC
const rows = Array.from({ length: N }, (_, i) => i);
const ts = (i: number) => START + i * 262800 + 0.5;
const day = (i: number) => START + i * 86400;
const tod = (i: number) => i * 1000;

const values = (data: Dataset, name: string): number[] => {
  const col = data.features.find((f) => f.name === name) as NumericColumn | undefined;
  expect(col?.kind, name).toBe('numeric');
  return Array.from(col!.values);
};
const unit = (data: Dataset, name: string) => (data.features.find((f) => f.name === name) as NumericColumn).unit;

/** The model of the rows read into memory, and of the same fit in the database, as JSON text. */
async function bothModels(engine: Engine, url: string, table: string): Promise<[string, string]> {
  const data = await databaseSource(url, { table }).read({});
  const memory = JSON.stringify(fit(data, { bins: 255, prune: 'none' }).toJSON());
  const spec = await parseSourceSpec(url, { table });
  return [memory, await engineModel(engine, spec.source, { prune: 'none' })];
}

const pgWhy = postgresUnavailable();
if (pgWhy) console.warn(`skipping PostgreSQL date tests: ${pgWhy}`);

describe.skipIf(pgWhy !== undefined)('PostgreSQL: date, timestamp, timestamptz, time', () => {
  let server: ServerHandle;
  let engine: PostgresEngine;
  beforeAll(async () => {
    server = await startPostgres();
    engine = await PostgresEngine.open(server.url);
    await engine.query(
      `CREATE TABLE times AS SELECT
         timestamp '2020-01-01' + make_interval(secs => i * 262800 + 0.5) AS ts,
         timestamptz '2020-01-01 00:00:00+00' + make_interval(secs => i * 262800 + 0.5) AS tz,
         date '2020-01-01' + i AS dt,
         time '00:00' + make_interval(secs => i * 1000) AS tod,
         CASE WHEN i < 20 THEN 'early' ELSE 'late' END AS label
       FROM generate_series(0, ${N - 1}) AS s(i) ORDER BY i`,
    );
  }, 180_000);
  afterAll(async () => {
    await engine?.close();
    await server?.stop();
  });

  it('read as seconds with their unit; the in-database model is the in-memory one; a date target is refused', async () => {
    const data = await databaseSource(server.url, { table: 'times' }).read({});
    expect(values(data, 'ts')).toEqual(rows.map(ts));
    expect(values(data, 'tz')).toEqual(rows.map(ts));
    expect(values(data, 'dt')).toEqual(rows.map(day));
    expect(values(data, 'tod')).toEqual(rows.map(tod));
    expect([unit(data, 'ts'), unit(data, 'dt'), unit(data, 'tod')]).toEqual([
      'epoch-seconds',
      'epoch-seconds',
      'day-seconds',
    ]);
    const [memory, inDb] = await bothModels(engine, server.url, 'times');
    expect(memory).toContain('"unit":"epoch-seconds"');
    expect(inDb).toBe(memory);
    const spec = await parseSourceSpec(server.url, { table: 'times' });
    await expect(engineModel(engine, spec.source, { prune: 'none' }, { target: 'ts' })).rejects.toThrow(
      /the target column has type TIMESTAMP, which grove cannot read as class labels/,
    );
  });
});

const chWhy = clickhouseUnavailable();
if (chWhy) console.warn(`skipping ClickHouse date tests: ${chWhy}`);

// The test server may predate DateTime64 and Date32 (20.1, 21.9): Date and DateTime here.
describe.skipIf(chWhy !== undefined)('ClickHouse: Date, DateTime', () => {
  let server: ClickHouseHandle;
  let url: string;
  let engine: ClickHouseEngine;
  beforeAll(async () => {
    server = await startClickHouse();
    url = `clickhouse://${server.url.replace(/^http:\/\//, '')}/default`;
    engine = await ClickHouseEngine.open(url);
    await engine.query(
      `CREATE TABLE times ENGINE = TinyLog AS SELECT
         toDateTime(${START} + number * 262800, 'UTC') AS whole,
         toDate('2020-01-01') + number AS dt,
         if(number < 20, 'early', 'late') AS label
       FROM numbers(${N})`,
    );
  }, 180_000);
  afterAll(async () => {
    await engine?.close();
    await server?.stop();
  });

  it('read as seconds with their unit; the in-database model is the in-memory one', async () => {
    const data = await databaseSource(url, { table: 'times' }).read({});
    expect(values(data, 'whole')).toEqual(rows.map((i) => Math.floor(ts(i))));
    expect(values(data, 'dt')).toEqual(rows.map(day));
    expect([unit(data, 'whole'), unit(data, 'dt')]).toEqual(['epoch-seconds', 'epoch-seconds']);
    const [memory, inDb] = await bothModels(engine, url, 'times');
    expect(inDb).toBe(memory);
  });
});
