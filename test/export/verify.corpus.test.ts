/**
 * The verification harness: every corpus data set × preset (cases.ts), exported to ONNX and to SQL
 * in each dialect, scored by ONNX Runtime, DuckDB, PostgreSQL and ClickHouse, must equal
 * `grove predict`: labels identical, probabilities within 1e-6. ONNX Runtime reads float32
 * inputs: a model whose thresholds lie between training values is compared with grove on the
 * values rounded to float32 (exact for every float32 input); one whose thresholds are training
 * values (J48's rules) with grove on the data itself, as a user running both on one file sees. A C4.5
 * (fractional) model is compared with the documented approximation (cases.ts `asExported`).
 */
import { describe, expect, it } from 'vitest';
import { treeToOnnx } from '../../src/export/onnx/model.js';
import { treeToSql } from '../../src/export/sql/query.js';
import type { SqlDialect } from '../../src/index.js';
import type { Dataset } from '../../src/node.js';
import { haveCorpus } from '../helpers/paths.js';
import { buildCases, type Case } from './cases.js';
import {
  duckdb,
  scoreClickhouse,
  scoreDuckdb,
  scoreOnnx,
  scorePostgres,
  useClickHouse,
  usePostgres,
} from './engines.js';
import { firstMismatch, groveScores, plainColumns, type Scored } from './rows.js';

const cases: Case[] = buildCases();

function float32Rows(data: Dataset): Dataset {
  return {
    ...data,
    features: data.features.map((c) => (c.kind === 'numeric' ? { ...c, values: Float32Array.from(c.values) } : c)),
  };
}

/** Check every case with `score`, collecting mismatches so one failure lists them all. */
async function checkAll(
  engine: string,
  score: (c: Case, sql: (d: SqlDialect) => string) => Promise<{ got: Scored; rows: Dataset }>,
  dialect?: SqlDialect,
): Promise<void> {
  const failures: string[] = [];
  for (const c of cases) {
    const sql = (d: SqlDialect) => treeToSql(c.tree, { dialect: d, table: 'grove_rows', proba: true }).sql;
    const { got, rows } = await score(c, sql);
    const expected = groveScores(c.exported, rows);
    const mismatch = firstMismatch(expected, got, c.tree.classes.length);
    if (mismatch) failures.push(`${c.name} (${engine}${dialect ? ` ${dialect}` : ''}): ${mismatch}`);
  }
  expect(failures).toEqual([]);
}

describe.skipIf(!haveCorpus)('exports equal grove predict on every corpus data set and preset', () => {
  it('has the whole grid', () => {
    expect(cases.length).toBeGreaterThanOrEqual(28 * 6);
  });

  it('ONNX Runtime (onnxruntime-web, WebAssembly)', async () => {
    await checkAll('onnx', async (c) => {
      const atTrainingValues = c.tree.options.j48Rules === true && c.tree.options.cmbsv === undefined;
      const rows = atTrainingValues ? c.rows : float32Rows(c.rows);
      const columns = plainColumns(c.tree, rows);
      const got = await scoreOnnx(treeToOnnx(c.tree).bytes, columns, rows.nRows);
      // ONNX reports an unclassified row's probabilities as zeros, grove predict as empty cells.
      const expected = groveScores(c.exported, rows);
      expected.labels.forEach((l, i) => {
        if (l === 'unclassified') got.proba.fill(NaN, i * c.tree.classes.length, (i + 1) * c.tree.classes.length);
      });
      return { got, rows };
    });
  }, 120_000);

  it('DuckDB', async () => {
    const db = await duckdb();
    try {
      await checkAll(
        'duckdb',
        async (c, sql) => {
          const columns = plainColumns(c.tree, c.rows);
          const classes = c.tree.classes.map(String);
          return {
            got: await scoreDuckdb(db.connection, 'grove_rows', sql('duckdb'), columns, c.rows.nRows, classes),
            rows: c.rows,
          };
        },
        'duckdb',
      );
    } finally {
      db.close();
    }
  }, 120_000);

  describe('PostgreSQL 15', () => {
    const { unavailable, client } = usePostgres('the PostgreSQL export checks');
    it.skipIf(unavailable !== undefined)(
      'scores every case',
      async () => {
        await checkAll(
          'postgres',
          async (c, sql) => {
            const columns = plainColumns(c.tree, c.rows);
            const classes = c.tree.classes.map(String);
            return {
              got: await scorePostgres(client(), 'grove_rows', sql('postgres'), columns, c.rows.nRows, classes),
              rows: c.rows,
            };
          },
          'postgres',
        );
      },
      180_000,
    );
  });

  describe('ClickHouse', () => {
    const { unavailable, url } = useClickHouse('the ClickHouse export checks');
    it.skipIf(unavailable !== undefined)(
      'scores every case',
      async () => {
        await checkAll(
          'clickhouse',
          async (c, sql) => {
            const columns = plainColumns(c.tree, c.rows);
            const classes = c.tree.classes.map(String);
            return {
              got: await scoreClickhouse(url(), 'grove_rows', sql('clickhouse'), columns, c.rows.nRows, classes),
              rows: c.rows,
            };
          },
          'clickhouse',
        );
      },
      180_000,
    );
  });
});
