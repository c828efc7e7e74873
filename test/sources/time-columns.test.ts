/**
 * Dates, timestamps and times of day in typed files (Parquet, Arrow IPC, a DuckDB database) are
 * numeric features in seconds (since 1970-01-01, or since midnight), the unit recorded in the
 * Dataset, `grove info` and the model; refused as the target. Wide decimals are doubles, with a
 * warning naming the column when a value has more digits than a double holds. In-database fits
 * give the in-memory model.
 */

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import * as A from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fit } from '../../src/algorithms/fit.js';
import type { Dataset, NumericColumn } from '../../src/data/dataset.js';
import { DuckDBEngine } from '../../src/engines/duckdb.js';
import { rulesToText } from '../../src/export/rules.js';
import { treeToText } from '../../src/export/text.js';
import { parseSourceSpec } from '../../src/sources/engine-source.js';
import { readDataset } from '../../src/sources/file-source.js';
import { openSource } from '../../src/sources/index.js';
import { engineModel } from '../engines/identical.js';
import { assertBuilt, grove, parseCsv } from '../helpers/cli.js';

const N = 60;
const START = 1577836800; // 2020-01-01 00:00:00 UTC
const rows = Array.from({ length: N }, (_, i) => i);
/** Row i's timestamp, date and time of day, in seconds. */
const ts = (i: number) => START + i * 262800 + 0.5;
const day = (i: number) => START + i * 86400;
const tod = (i: number) => i * 1000;
const label = (i: number) => (i < 25 ? 'early' : 'late');

let dir: string;
const at = (name: string) => join(dir, name);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'grove-times-'));
  const instance = await DuckDBInstance.create();
  const db = await instance.connect();
  try {
    await db.run("SET TimeZone = 'UTC'");
    await db.run(
      `CREATE TABLE t AS SELECT i, make_timestamp(CAST((${START} + i * 262800) * 1000000 + 500000 AS BIGINT)) AS ts,
         CAST(DATE '2020-01-01' + CAST(i AS INTEGER) AS DATE) AS dt,
         make_time(CAST(i * 1000 // 3600 AS BIGINT), CAST(i * 1000 % 3600 // 60 AS BIGINT), i * 1000 % 60) AS tod,
         CAST('12345678901234567890.12' AS DECIMAL(38,2)) + i AS wide,
         CAST(i / 4 AS DECIMAL(38,2)) AS narrow,
         CASE WHEN i < 25 THEN 'early' ELSE 'late' END AS label
       FROM range(${N}) AS r(i)`,
    );
    await db.run(
      `COPY (SELECT ts, CAST(ts AS TIMESTAMP_MS) AS ms, CAST(ts AS TIMESTAMP_NS) AS ns, CAST(ts AS TIMESTAMPTZ) AS tz,
         dt, tod, wide, narrow, label FROM t ORDER BY i) TO '${at('times.parquet')}' (FORMAT PARQUET)`,
    );
    await db.run(`ATTACH '${at('times.duckdb')}' AS f`);
    await db.run('CREATE TABLE f.times AS SELECT ts, dt, tod, label FROM t ORDER BY i');
    await db.run('DETACH f');
  } finally {
    db.closeSync();
    instance.closeSync();
  }
  const vector = <T extends A.DataType>(type: T, data: Int32Array | BigInt64Array) =>
    A.makeVector(A.makeData({ type, length: N, data } as never));
  const table = new A.Table({
    d32: vector(
      new A.DateDay(),
      Int32Array.from(rows, (i) => (day(i) - START) / 86400 + 18262),
    ),
    d64: vector(
      new A.DateMillisecond(),
      BigInt64Array.from(rows, (i) => BigInt(day(i) * 1000)),
    ),
    s: vector(
      new A.TimestampSecond(),
      BigInt64Array.from(rows, (i) => BigInt(Math.floor(ts(i)))),
    ),
    us: vector(
      new A.TimestampMicrosecond('UTC'),
      BigInt64Array.from(rows, (i) => BigInt(ts(i) * 1e6)),
    ),
    ns: vector(
      new A.TimestampNanosecond(),
      BigInt64Array.from(rows, (i) => BigInt(ts(i) * 1e6) * 1000n),
    ),
    tod: vector(
      new A.TimeMillisecond(),
      Int32Array.from(rows, (i) => tod(i) * 1000),
    ),
    label: A.vectorFromArray(rows.map(label), new A.Utf8()),
  });
  writeFileSync(at('times.arrow'), A.tableToIPC(table, 'file'));
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const numeric = (data: Dataset, name: string): NumericColumn => {
  const col = data.features.find((f) => f.name === name);
  expect(col?.kind, name).toBe('numeric');
  return col as NumericColumn;
};

describe('dates and times as numeric features in seconds', () => {
  it('Parquet: DATE, TIMESTAMP (micros, millis, nanos, UTC-adjusted) and TIME, each with its unit', async () => {
    const warnings: string[] = [];
    const data = await readDataset(at('times.parquet'), { onWarning: (m) => warnings.push(m) });
    for (const name of ['ts', 'ms', 'ns', 'tz']) {
      const col = numeric(data, name);
      expect(col.unit, name).toBe('epoch-seconds');
      expect(Array.from(col.values), name).toEqual(rows.map(ts));
    }
    expect(Array.from(numeric(data, 'dt').values)).toEqual(rows.map(day));
    expect(numeric(data, 'dt').unit).toBe('epoch-seconds');
    expect(Array.from(numeric(data, 'tod').values)).toEqual(rows.map(tod));
    expect(numeric(data, 'tod').unit).toBe('day-seconds');
    expect(data.classes).toEqual(['early', 'late']);
    // Wide decimals are doubles; digits beyond a double's are said, once, naming the column.
    expect(numeric(data, 'wide').values[0]).toBe(Number('12345678901234567890.12'));
    expect(Array.from(numeric(data, 'narrow').values)).toEqual(rows.map((i) => Math.round((i / 4) * 100) / 100));
    expect(warnings).toEqual([
      `${at('times.parquet')}: column 'wide' of type DECIMAL(38,2): 60 values have more digits than a double holds ` +
        '(first at row 1); read as the nearest doubles',
    ]);
  });

  it('Arrow IPC: Date32, Date64, Timestamp in every unit and Time', async () => {
    const data = await readDataset(at('times.arrow'));
    expect(Array.from(numeric(data, 'd32').values)).toEqual(rows.map(day));
    expect(Array.from(numeric(data, 'd64').values)).toEqual(rows.map(day));
    expect(Array.from(numeric(data, 's').values)).toEqual(rows.map((i) => Math.floor(ts(i))));
    for (const name of ['us', 'ns']) expect(Array.from(numeric(data, name).values), name).toEqual(rows.map(ts));
    expect(numeric(data, 'ns').unit).toBe('epoch-seconds');
    expect(Array.from(numeric(data, 'tod').values)).toEqual(rows.map(tod));
    expect(numeric(data, 'tod').unit).toBe('day-seconds');
  });

  it('a DuckDB table: DATE, TIMESTAMP and TIME read as the Parquet file reads them', async () => {
    const data = await openSource(`duckdb:${at('times.duckdb')}#table=times`).read({});
    const file = await readDataset(at('times.parquet'), { onWarning: () => {} });
    for (const name of ['ts', 'dt', 'tod']) {
      expect(Array.from(numeric(data, name).values), name).toEqual(Array.from(numeric(file, name).values));
      expect(numeric(data, name).unit, name).toBe(numeric(file, name).unit);
    }
  });

  it('a date or time column as the target is refused, in every reader', async () => {
    await expect(readDataset(at('times.parquet'), { target: 'ts' })).rejects.toThrow(
      /column 'ts'.*the target column has type TIMESTAMP, which grove cannot read as class labels/,
    );
    await expect(readDataset(at('times.arrow'), { target: 'd32' })).rejects.toThrow(
      /the target column has type Date32<DAY>, which grove cannot read as class labels/,
    );
    await expect(openSource(`duckdb:${at('times.duckdb')}#table=times`).read({ target: 'tod' })).rejects.toThrow(
      /the target column has type TIME, which grove cannot read as class labels/,
    );
  });

  it('the model records the unit; a tree grown on the timestamps predicts from the same file', async () => {
    const data = await readDataset(at('times.parquet'), { features: ['ts'], onWarning: () => {} });
    const tree = fit(data, { prune: 'none' });
    const json = tree.toJSON();
    expect(json.features).toEqual([{ name: 'ts', kind: 'numeric', unit: 'epoch-seconds' }]);
    expect(tree.predict(data)).toEqual(rows.map(label));
    // Thresholds read as the dates they are: midway between row 24's (03-14 00:00) and row 25's (03-16 01:00).
    expect(treeToText(tree)).toMatch(/^ts <= 2020-03-15 12:30:00\.500: early/m);
    expect(rulesToText(tree)).toMatch(/IF ts > 2020-03-15 12:30:00\.500 THEN/);
  });
});

describe('in-database training on dates and times (DuckDB)', () => {
  let engine: DuckDBEngine;
  beforeAll(async () => {
    engine = await DuckDBEngine.open();
  });
  afterAll(async () => engine?.close());

  it('a Parquet file and a DuckDB table with timestamps give the in-memory model, unit and all', async () => {
    const memory = async (spec: string) => {
      const data = await openSource(spec).read({ onWarning: () => {} });
      return JSON.stringify(fit(data, { bins: 255, prune: 'none' }).toJSON());
    };
    const parquet = await memory(at('times.parquet'));
    expect(parquet).toContain('"unit":"day-seconds"');
    const file = await parseSourceSpec(at('times.parquet'));
    expect(await engineModel(engine, file.source, { prune: 'none' })).toBe(parquet);
    const table = await parseSourceSpec(`duckdb:${at('times.duckdb')}`, { table: 'times' });
    const inDb = await DuckDBEngine.open(at('times.duckdb'));
    try {
      expect(await engineModel(inDb, table.source, { prune: 'none' })).toBe(
        (await memory(`duckdb:${at('times.duckdb')}#table=times`)).replace(
          JSON.stringify(`duckdb:${at('times.duckdb')}#table=times`),
          JSON.stringify(table.source.label),
        ),
      );
    } finally {
      await inDb.close();
    }
    const spec = await parseSourceSpec(at('times.parquet'));
    await expect(engineModel(engine, spec.source, { prune: 'none' }, { target: 'dt' })).rejects.toThrow(
      /the target column has type DATE, which grove cannot read as class labels/,
    );
  });
});

describe('grove info, fit and predict on dates and times', () => {
  beforeAll(() => assertBuilt());

  it('info shows the unit and the dates; fit records it; predict reads the same file; a date target exits 2', () => {
    const info = grove(['info', at('times.parquet')]);
    expect(info.status, info.stderr).toBe(0);
    expect(info.stdout).toMatch(
      /^ts\s+numeric\s+0\s+60\s+1577840000 … 1593340000 seconds since 1970-01-01 \(2020-01-01 00:00:00\.500 … 2020-06-28 11:00:00\.500\)$/m,
    );
    expect(info.stdout).toMatch(/^tod\s+numeric\s+0\s+60\s+0 … 59000 seconds since midnight \(00:00:00 … 16:23:20\)$/m);
    expect(info.stderr).toMatch(/column 'wide' of type DECIMAL\(38,2\): 60 values have more digits than a double/);
    const json = JSON.parse(grove(['info', at('times.arrow'), '--json']).stdout);
    expect(json.columns.find((c: { name: string }) => c.name === 'us')).toMatchObject({
      kind: 'numeric',
      unit: 'epoch-seconds',
      min: ts(0),
    });
    const model = at('ts.json');
    const fitted = grove(['fit', at('times.parquet'), '--features', 'ts', '--prune', 'none', '--out', model]);
    expect(fitted.status, fitted.stderr).toBe(0);
    expect(JSON.parse(readFileSync(model, 'utf8')).features).toEqual([
      { name: 'ts', kind: 'numeric', unit: 'epoch-seconds' },
    ]);
    expect(grove(['show', model]).stdout).toMatch(/^ts <= 2020-03-15 12:30:00\.500: early/m);
    const predicted = grove(['predict', '--model', model, at('times.parquet')]);
    expect(predicted.status, predicted.stderr).toBe(0);
    expect(
      parseCsv(predicted.stdout)
        .slice(1)
        .map((r) => r[0]),
    ).toEqual(rows.map(label));
    const target = grove(['fit', at('times.parquet'), '--target', 'dt']);
    expect(target.status).toBe(2);
    expect(target.stderr.trim()).toMatch(/the target column has type DATE, which grove cannot read as class labels$/);
  });
});
