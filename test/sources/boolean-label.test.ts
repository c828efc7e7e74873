/**
 * A boolean class label stays a boolean: from API rows, an Arrow table, Parquet and JSON Lines the
 * classes are `false`/`true`, predict returns booleans, and so does the model after a JSON round
 * trip. CSV has no types: `true`/`false` there are texts, as before.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { Bool, Float64, Table, Utf8, vectorFromArray } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DecisionTree, datasetFromArrow, datasetFromRows, fit } from '../../src/index.js';
import { readDataset } from '../../src/sources/file-source.js';
import { readSource } from '../../src/sources/index.js';

/** x decides the label; colour is noise. */
const rows = Array.from({ length: 12 }, (_, i) => ({ x: i, colour: i % 3 === 0 ? 'red' : 'blue', ok: i >= 5 }));

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'grove-boolean-label-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Fit, predict the training rows, and predict again with the model read back from JSON. */
function predictions(data: ReturnType<typeof datasetFromRows>) {
  const tree = fit(data, { minLeaf: 1 });
  const copy = DecisionTree.fromJSON(JSON.parse(JSON.stringify(tree.toJSON())));
  return { direct: tree.predict(data), reloaded: copy.predict(data), classes: copy.classes };
}

const expected = rows.map((r) => r.ok);

describe('a boolean class label stays a boolean', () => {
  it('API rows (objects, arrays, separate labels)', () => {
    for (const data of [
      datasetFromRows(rows),
      datasetFromRows(
        rows.map((r) => [r.x, r.colour, r.ok]),
        { columns: ['x', 'colour', 'ok'] },
      ),
      datasetFromRows(
        rows.map((r) => ({ x: r.x, colour: r.colour })),
        { labels: expected },
      ),
    ]) {
      expect(data.classes).toEqual([false, true]);
      const p = predictions(data);
      expect(p.classes).toEqual([false, true]);
      expect(p.direct).toEqual(expected);
      expect(p.reloaded).toEqual(expected);
    }
  });

  it('a column mixing booleans and texts is texts', () => {
    const mixed = rows.map((r, i) => ({ ...r, ok: i === 0 ? 'true' : r.ok }));
    expect(datasetFromRows(mixed).classes).toEqual(['false', 'true']);
  });

  it('an Arrow Bool target', () => {
    const table = new Table({
      x: vectorFromArray(
        rows.map((r) => r.x),
        new Float64(),
      ),
      colour: vectorFromArray(
        rows.map((r) => r.colour),
        new Utf8(),
      ),
      ok: vectorFromArray(expected, new Bool()),
    });
    const data = datasetFromArrow(table);
    expect(data).toEqual(datasetFromRows(rows));
    expect(predictions(data).reloaded).toEqual(expected);
  });

  it('Parquet BOOLEAN and JSON Lines true/false targets; a CSV file keeps texts', async () => {
    const jsonl = join(dir, 'ok.jsonl');
    writeFileSync(jsonl, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const csv = join(dir, 'ok.csv');
    writeFileSync(csv, `x,colour,ok\n${rows.map((r) => `${r.x},${r.colour},${r.ok}`).join('\n')}\n`);
    const parquet = join(dir, 'ok.parquet');
    const instance = await DuckDBInstance.create(':memory:');
    const db = await instance.connect();
    try {
      await db.run(`COPY (SELECT * FROM read_json('${jsonl}')) TO '${parquet}' (FORMAT parquet)`);
    } finally {
      db.closeSync();
      instance.closeSync();
    }
    const plain = datasetFromRows(rows);
    for (const file of [parquet, jsonl]) {
      const data = await readSource(file);
      expect({ ...data, source: undefined }, file).toEqual({ ...plain, source: undefined });
      expect(predictions(data).direct, file).toEqual(expected);
    }
    expect((await readDataset(csv)).classes).toEqual(['false', 'true']);
  });
});
