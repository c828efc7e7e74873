/**
 * Exported models against `grove predict` at the thresholds: random small numeric tables fitted by
 * every preset whose thresholds can be training values (J48's rules: c45, and the others with
 * them added), scored by the ONNX export in onnxruntime-web and by the SQL export in DuckDB on
 * the training rows and on rows whose value equals each threshold or is a float32 neighbour of it.
 * Property: every row gets grove's label from both.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/core/random.js';
import { treeToOnnx } from '../../src/export/onnx/model.js';
import { treeToSql } from '../../src/export/sql/query.js';
import { datasetFromRows, fit } from '../../src/node.js';
import { PRESETS } from '../../src/options/presets.js';
import { duckdb, scoreDuckdb, scoreOnnx } from '../export/engines.js';
import { type PlainColumn, rowsAtThresholds } from '../export/rows.js';
import { FUZZ_TIMEOUT, fuzzParams } from './config.js';

/** As test/export/onnx-thresholds.test.ts: J48's rules set or added; not C-MBSV nor optimal trees. */
const ALGORITHMS = Object.keys(PRESETS).filter((a) => a !== 'cmbsv' && a !== 'optimal');

let db: Awaited<ReturnType<typeof duckdb>>;
beforeAll(async () => {
  db = await duckdb();
});
afterAll(() => db?.close());

/**
 * A random table of `features` numeric columns on a grid of tenths (so that distinct values stay
 * distinct in float32 and thresholds at training values are common) and a label of 2 or 3 classes.
 */
function table(seed: number, n: number, features: number, classes: number): (number | string)[][] {
  const rand = mulberry32(seed);
  const scale = Array.from({ length: features }, () => 1 + Math.floor(rand() * 60));
  const rows: (number | string)[][] = [];
  for (let i = 0; i < n; i++) {
    const x = scale.map((s) => Math.floor(rand() * s) / 10 - 1);
    const score = x.reduce((a, v, j) => a + (j % 2 === 0 ? v : -v), 0) + (rand() - 0.5);
    rows.push([...x, 'ABC'[Math.abs(Math.floor(score * 2)) % classes]]);
  }
  return rows;
}

const drawn = fc.record({
  seed: fc.nat(),
  n: fc.integer({ min: 15, max: 160 }),
  features: fc.integer({ min: 1, max: 4 }),
  classes: fc.integer({ min: 2, max: 3 }),
  algorithm: fc.constantFrom(...ALGORITHMS),
});

describe('exports against grove predict at the thresholds', () => {
  it(
    'ONNX (onnxruntime-web) and SQL (DuckDB) give grove’s label on every row, thresholds included',
    async () => {
      let runs = 0;
      let withThresholds = 0;
      await fc.assert(
        fc.asyncProperty(drawn, async (d) => {
          const train = table(d.seed, d.n, d.features, d.classes);
          const names = [...Array.from({ length: d.features }, (_, j) => `x${j}`), 'label'];
          const data = datasetFromRows(train, { columns: names });
          const j48Rules = PRESETS[d.algorithm].options.j48Rules ? {} : { j48Rules: true };
          const tree = fit(data, { algorithm: d.algorithm, ...j48Rules, threads: 1 });
          const numbers = train.map((r) => r.slice(0, d.features) as number[]);
          const rows = rowsAtThresholds(tree, numbers, [0, Math.floor(d.n / 2), d.n - 1]);
          runs++;
          if (rows.length > numbers.length) withThresholds++;
          const columns: PlainColumn[] = tree.features.map((f) => {
            const j = names.indexOf(f.name);
            return { name: f.name, kind: 'number', values: rows.map((r) => r[j]) };
          });
          const expected = tree.predict(rows).map(String);
          const onnx = await scoreOnnx(treeToOnnx(tree).bytes, columns, rows.length);
          expect(onnx.labels, 'ONNX').toEqual(expected);
          const sql = treeToSql(tree, { dialect: 'duckdb', table: 'grove_rows' }).sql;
          const classes = tree.classes.map(String);
          const inDb = await scoreDuckdb(db.connection, 'grove_rows', sql, columns, rows.length, classes);
          expect(inDb.labels, 'SQL in DuckDB').toEqual(expected);
        }),
        fuzzParams(40, 0.2),
      );
      // Most drawn trees split on numbers, so rows at thresholds were scored.
      expect(withThresholds).toBeGreaterThan(runs / 2);
    },
    FUZZ_TIMEOUT * 3,
  );
});
