/** datasetFromArrow (browser-safe API) and typed Parquet columns follow the CSV reader's rules. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { Bool, Dictionary, Field, Float64, Int32, Int64, List, Table, Type, Utf8, vectorFromArray } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARROW_TYPE_ID } from '../../src/data/arrow.js';
import { datasetFromArrow, datasetFromRows, GroveError } from '../../src/index.js';
import { readDataset } from '../../src/sources/file-source.js';
import { readSource } from '../../src/sources/index.js';

const rows = [
  { n: 1.5, big: 10n, s: 'b', d: 'x', flag: true, y: 'no' },
  { n: null, big: 20n, s: ' a ', d: null, flag: false, y: 'yes' },
  { n: 3, big: null, s: '?', d: 'z', flag: null, y: 'no' },
  { n: -2, big: 10n, s: 'b', d: 'x', flag: true, y: 'yes' },
];

function table(): Table {
  const col = <T>(key: keyof (typeof rows)[0]) => rows.map((r) => r[key]) as T[];
  return new Table({
    n: vectorFromArray(col<number | null>('n'), new Float64()),
    big: vectorFromArray(col<bigint | null>('big'), new Int64()),
    s: vectorFromArray(col<string | null>('s'), new Utf8()),
    d: vectorFromArray(col<string | null>('d'), new Dictionary(new Utf8(), new Int32())),
    flag: vectorFromArray(col<boolean | null>('flag'), new Bool()),
    y: vectorFromArray(col<string>('y'), new Utf8()),
  });
}

describe('datasetFromArrow', () => {
  it("knows Arrow's type ids as apache-arrow numbers them (it imports only the library's types)", () => {
    for (const [name, id] of Object.entries(ARROW_TYPE_ID)) expect(id, name).toBe(Type[name as keyof typeof Type]);
  });

  it('gives the Dataset datasetFromRows gives for the same values', () => {
    const plain = rows.map((r) => ({ ...r, big: r.big === null ? null : Number(r.big) }));
    expect(datasetFromArrow(table())).toEqual(datasetFromRows(plain));
    const d = datasetFromArrow(table());
    expect(d.features.map((f) => f.kind)).toEqual(['numeric', 'numeric', 'categorical', 'categorical', 'categorical']);
    expect(d.features[2]).toMatchObject({ categories: ['b', 'a'] });
    expect(Array.from((d.features[2] as { codes: Int32Array }).codes)).toEqual([0, 1, -1, 0]);
    expect(d.features[4]).toMatchObject({ categories: ['true', 'false'] });
    expect(d.classes).toEqual(['no', 'yes']);
  });

  it('options: target, categorical, numeric, float32', () => {
    expect(() => datasetFromArrow(table(), { target: 'd' })).toThrow(
      /row 2, column 'd': the target \(class\) value is missing/,
    );
    const d = datasetFromArrow(table().slice(0, 2), { target: 's', categorical: ['big'], float32: true });
    expect(d.targetName).toBe('s');
    expect(d.features.find((f) => f.name === 'big')).toMatchObject({ kind: 'categorical', categories: ['10', '20'] });
    expect(d.features[0]).toMatchObject({ kind: 'numeric' });
    expect((d.features[0] as { values: unknown }).values).toBeInstanceOf(Float32Array);
    expect(() => datasetFromArrow(table(), { numeric: ['s'], target: 'y' })).toThrow(
      /row 1, column 's': expected a number, found 'b'/,
    );
  });

  it('a list column is skipped with a warning, refused as the target; a missing label names its row', () => {
    const lists = vectorFromArray([[1], [2, 3], [], [4]], new List(new Field('item', new Int32())));
    const t = new Table({
      x: vectorFromArray([1, 2, 3, 4], new Float64()),
      l: lists,
      y: vectorFromArray(['a', 'b', 'a', 'b'], new Utf8()),
    });
    const warnings: string[] = [];
    const d = datasetFromArrow(t, { onWarning: (m) => warnings.push(m) });
    expect(d.features.map((f) => f.name)).toEqual(['x']);
    expect(warnings).toEqual([expect.stringMatching(/column 'l' of type List<Int32> is skipped/)]);
    expect(() => datasetFromArrow(t, { target: 'l' })).toThrow(GroveError);
    const noLabel = new Table({
      x: vectorFromArray([1, 2], new Float64()),
      y: vectorFromArray(['a', null], new Utf8()),
    });
    expect(() => datasetFromArrow(noLabel)).toThrow(/row 2, column 'y': the target \(class\) value is missing/);
    expect(() => datasetFromArrow({} as Table)).toThrow(/expected an Apache Arrow Table/);
  });
});

describe('Parquet decimals and integers', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'grove-decimal-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('DECIMAL, INTEGER and HUGEINT columns read as the CSV text of the same numbers does', async () => {
    const csv = join(dir, 'd.csv');
    writeFileSync(csv, 'price,qty,big,y\n1.23,3,12345678901,a\n0.1,,7,b\n-4.56,5,0,a\n');
    const instance = await DuckDBInstance.create(':memory:');
    const db = await instance.connect();
    const parquet = join(dir, 'd.parquet');
    await db.run(
      `COPY (SELECT CAST(price AS DECIMAL(10, 2)) AS price, CAST(qty AS INTEGER) AS qty, CAST(big AS HUGEINT) AS big, y FROM read_csv('${csv}')) TO '${parquet}' (FORMAT parquet)`,
    );
    db.closeSync();
    instance.closeSync();
    const got = await readSource(parquet);
    expect({ ...got, source: undefined }).toEqual({ ...(await readDataset(csv)), source: undefined });
  });
});
