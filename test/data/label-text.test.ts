/**
 * Class labels keep their text in every reader: a target column is numeric only when every label
 * is the canonical text of its number, so `01` and `1`, or `1.0` and `1`, are never one class.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Dictionary, Float64, Int32, Table, tableToIPC, Utf8, vectorFromArray } from 'apache-arrow';
import { afterAll, describe, expect, it } from 'vitest';
import { isCanonicalNumber, orderClasses } from '../../src/data/class-order.js';
import type { Dataset } from '../../src/data/dataset.js';
import { datasetFromRows } from '../../src/data/encode.js';
import { readDataset, writeParquetFile } from '../../src/sources/index.js';

const dir = mkdtempSync(join(tmpdir(), 'grove-label-text-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const X = [1, 2, 3, 4, 5, 6];
const LABELS = ['01', '1', '1.0', '2', '1', '01'];
/** Sorted with `<` as strings: every label kept as written. */
const CLASSES = ['01', '1', '1.0', '2'];

function labelsOf(d: Dataset): unknown[] {
  return Array.from(d.labels, (c) => d.classes[c]);
}

function expectKept(d: Dataset): void {
  expect(d.classes).toEqual(CLASSES);
  expect(labelsOf(d)).toEqual(LABELS);
}

describe('labels keep their text', () => {
  it('the rule: canonical number texts only', () => {
    for (const s of ['1', '-2', '0.5', '10', '1e+21']) expect(isCanonicalNumber(s), s).toBe(true);
    for (const s of ['01', '1.0', '+1', '1e3', '-0', '.5', '9007199254740993', 'x', ''])
      expect(isCanonicalNumber(s), s).toBe(false);
    expect(orderClasses(['10', '2', '-1']).classes).toEqual([-1, 2, 10]);
    expect(orderClasses(['1', '+1']).classes).toEqual(['+1', '1']);
  });

  it('CSV, TSV and CSV.gz', async () => {
    const csv = `x,y\n${X.map((x, i) => `${x},${LABELS[i]}`).join('\n')}\n`;
    writeFileSync(join(dir, 'a.csv'), csv);
    writeFileSync(join(dir, 'a.tsv'), csv.replace(/,/g, '\t'));
    const { gzipSync } = await import('node:zlib');
    writeFileSync(join(dir, 'a.csv.gz'), gzipSync(csv));
    for (const f of ['a.csv', 'a.tsv', 'a.csv.gz']) expectKept(await readDataset(join(dir, f)));
  });

  it('JSON Lines (labels as JSON strings)', async () => {
    const text = X.map((x, i) => JSON.stringify({ x, y: LABELS[i] })).join('\n');
    writeFileSync(join(dir, 'a.jsonl'), `${text}\n`);
    expectKept(await readDataset(join(dir, 'a.jsonl')));
  });

  it('ARFF (a nominal class declared with those values)', async () => {
    const arff = `@relation r\n@attribute x numeric\n@attribute y {01,1,1.0,2}\n@data\n${X.map((x, i) => `${x},${LABELS[i]}`).join('\n')}\n`;
    writeFileSync(join(dir, 'a.arff'), arff);
    expectKept(await readDataset(join(dir, 'a.arff')));
  });

  it('Parquet and Arrow IPC (a string column)', async () => {
    await writeParquetFile(
      join(dir, 'a.parquet'),
      [
        { name: 'x', type: 'DOUBLE', value: (i) => X[i] },
        { name: 'y', type: 'VARCHAR', value: (i) => LABELS[i] },
      ],
      X.length,
    );
    expectKept(await readDataset(join(dir, 'a.parquet')));
    const table = new Table({
      x: vectorFromArray(X, new Float64()),
      y: vectorFromArray(LABELS, new Dictionary(new Utf8(), new Int32())),
    });
    writeFileSync(join(dir, 'a.arrow'), tableToIPC(table, 'file'));
    expectKept(await readDataset(join(dir, 'a.arrow')));
  });

  it('rows in memory (datasetFromRows)', () => {
    expectKept(
      datasetFromRows(
        X.map((x, i) => ({ x, y: LABELS[i] })),
        { target: 'y' },
      ),
    );
    // Canonical texts and numbers are numbers, and 1 and '1' are one class.
    const d = datasetFromRows(
      [
        { x: 1, y: 1 },
        { x: 2, y: '1' },
        { x: 3, y: '10' },
      ],
      { target: 'y' },
    );
    expect(d.classes).toEqual([1, 10]);
  });
});
