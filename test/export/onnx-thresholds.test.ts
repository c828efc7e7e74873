/**
 * ONNX thresholds of models whose thresholds are training values (J48's rules): a float64 row fed
 * as float32 (rounded to nearest, as any float32 tensor is filled) must route as grove routes the
 * float64 row, the rows equal to a threshold included.
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { treeToOnnx } from '../../src/export/onnx/model.js';
import { fit, readDataset } from '../../src/node.js';
import { PRESETS } from '../../src/options/presets.js';
import { repoRoot } from '../helpers/cli.js';
import { scoreOnnx } from './engines.js';
import { plainColumns, rowsAtThresholds } from './rows.js';

/**
 * Presets whose thresholds are training values: those setting J48's rules, and every other with
 * them added, except C-MBSV (its thresholds come from its SVMs, not from J48's rules) and optimal
 * trees (searched over midpoints, not grown by J48's rules).
 */
const CASES: { algorithm: string; j48Rules?: true }[] = Object.keys(PRESETS)
  .filter((algorithm) => algorithm !== 'cmbsv' && algorithm !== 'optimal')
  .map((algorithm) => (PRESETS[algorithm].options.j48Rules ? { algorithm } : { algorithm, j48Rules: true }));
const FILES = ['iris', 'glass', 'wine'];

describe('ONNX thresholds at training values', () => {
  for (const file of FILES) {
    for (const opts of CASES) {
      it(`${file}, ${JSON.stringify(opts)}: every row routes as in grove`, async () => {
        const data = await readDataset(resolve(repoRoot, `data/${file}.csv`));
        const tree = fit(data, { ...opts, missing: 'majority' });
        const train = plainColumns(tree, data);
        expect(train.every((c) => c.kind === 'number')).toBe(true);
        const asRows = Array.from({ length: data.nRows }, (_, i) => train.map((c) => c.values[i] as number | null));
        const rows = rowsAtThresholds(tree, asRows);
        const columns = train.map((c, j) => ({ ...c, values: rows.map((r) => r[j]) }));
        const got = await scoreOnnx(treeToOnnx(tree).bytes, columns, rows.length);
        expect(got.labels).toEqual(tree.predict(rows).map(String));
      });
    }
  }
});
