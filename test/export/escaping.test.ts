/**
 * Names and labels that need quoting or escaping — a feature name that is no SQL identifier, class
 * labels and categories with ', ", \ and a newline — scored by ONNX Runtime and by each SQL
 * dialect (DuckDB embedded; PostgreSQL and ClickHouse started here, skipped only when absent).
 */
import { describe, expect, it } from 'vitest';
import { treeToOnnx } from '../../src/export/onnx/model.js';
import { treeToSql } from '../../src/export/sql/query.js';
import type { SqlDialect } from '../../src/index.js';
import {
  duckdb,
  scoreClickhouse,
  scoreDuckdb,
  scoreOnnx,
  scorePostgres,
  useClickHouse,
  usePostgres,
} from './engines.js';
import { handModel, leaf } from './models.js';
import type { PlainColumn, Scored } from './rows.js';

const CATEGORIES = ["o'neil", 'say "hi"', 'back\\slash\\', 'two\nlines', 'plain'];
const CLASSES = ["it's", '"quoted"', 'C:\\dir', 'line\nbreak'];
const NUMERIC = 'select "weird" name';
const CATEGORICAL = "it's a\\category";

const tree = handModel(
  [
    { name: NUMERIC, kind: 'numeric' },
    { name: CATEGORICAL, kind: 'categorical', categories: CATEGORIES },
  ],
  CLASSES,
  [
    {
      counts: [2, 2, 2, 2],
      n: 8,
      depth: 0,
      split: { kind: 'numeric', feature: 0, thresholds: [0.5] },
      children: [1, 2],
      missingBranch: 1,
    },
    leaf([3, 1, 0, 0]),
    {
      counts: [0, 2, 2, 2],
      n: 6,
      depth: 1,
      split: { kind: 'multiway', feature: 1, values: [0, 1, 2, 3] },
      children: [3, 4, 5, 6],
      missingBranch: 3,
    },
    leaf([0, 2, 0, 0], 2),
    leaf([0, 0, 2, 0], 2),
    leaf([0, 0, 0, 2], 2),
    leaf([0, 1, 1, 2], 2),
  ],
);

const numbers = [0, 1, 1, 1, 1, 1, 1, null];
const strings = ['plain', ...CATEGORIES.slice(0, 4), 'plain', 'unknown', null];
const columns: PlainColumn[] = [
  { name: NUMERIC, kind: 'number', values: numbers },
  { name: CATEGORICAL, kind: 'string', values: strings },
];
const n = numbers.length;
const expected = tree.predict(numbers.map((x, i) => [x, strings[i]])).map(String);
const sql = (dialect: SqlDialect): string => treeToSql(tree, { dialect, table: 'odd "table"', proba: true }).sql;

function expectGrove(got: Scored): void {
  expect(got.labels).toEqual(expected);
  const proba = tree.predictProbaFlat(numbers.map((x, i) => [x, strings[i]]));
  got.proba.forEach((p, i) => {
    expect(Math.abs(p - proba[i])).toBeLessThanOrEqual(1e-6);
  });
}

it('the rows reach every leaf', () => {
  expect(new Set(expected).size).toBe(CLASSES.length);
});

it('ONNX Runtime', async () => {
  expectGrove(await scoreOnnx(treeToOnnx(tree).bytes, columns, n));
});

it('DuckDB', async () => {
  const db = await duckdb();
  try {
    expectGrove(await scoreDuckdb(db.connection, 'odd "table"', sql('duckdb'), columns, n, CLASSES));
  } finally {
    db.close();
  }
});

describe('PostgreSQL', () => {
  const { unavailable, client } = usePostgres('the PostgreSQL checks');
  it.skipIf(unavailable !== undefined)('scores as grove', async () => {
    expectGrove(await scorePostgres(client(), 'odd "table"', sql('postgres'), columns, n, CLASSES));
  });
  // With the setting off, a '…' literal reads backslash escapes: a value ending in a backslash
  // would end its literal early and the rest of the query would run as SQL.
  it.skipIf(unavailable !== undefined)('scores as grove with standard_conforming_strings off', async () => {
    await client().query('SET standard_conforming_strings = off');
    try {
      expectGrove(await scorePostgres(client(), 'odd "table"', sql('postgres'), columns, n, CLASSES));
    } finally {
      await client().query('SET standard_conforming_strings = on');
    }
  });
});

describe('ClickHouse', () => {
  const { unavailable, url } = useClickHouse('the ClickHouse checks');
  it.skipIf(unavailable !== undefined)('scores as grove', async () => {
    expectGrove(await scoreClickhouse(url(), 'odd "table"', sql('clickhouse'), columns, n, CLASSES));
  });
});
