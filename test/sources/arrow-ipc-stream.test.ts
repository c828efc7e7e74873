/**
 * Arrow IPC files are read batch by batch: file and stream format, plain and gzip-compressed, many
 * record batches with dictionary columns and nulls give datasetFromArrow's Dataset of the whole table.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Bool, Dictionary, Float64, Int32, Table, tableToIPC, Utf8, vectorFromArray } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { datasetFromArrow } from '../../src/index.js';
import { readSource } from '../../src/sources/index.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'grove-arrow-ipc-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** One record batch of `n` rows starting at row `from` (deterministic values). */
function part(from: number, n: number): Table {
  const rows = Array.from({ length: n }, (_, k) => from + k);
  return new Table({
    x: vectorFromArray(
      rows.map((i) => (i % 7 === 0 ? null : (i % 50) / 3)),
      new Float64(),
    ),
    colour: vectorFromArray(
      rows.map((i) => (i % 9 === 0 ? null : ['red', 'blue', ' green ', '?'][i % 4])),
      new Dictionary(new Utf8(), new Int32()),
    ),
    flag: vectorFromArray(
      rows.map((i) => (i % 5 === 0 ? null : i % 2 === 0)),
      new Bool(),
    ),
    y: vectorFromArray(
      rows.map((i) => (i % 3 === 0 ? 'a' : 'b')),
      new Utf8(),
    ),
  });
}

describe('Arrow IPC read batch by batch', () => {
  it('file and stream format, plain and gzip, over 12 batches (more rows than the first capacity)', async () => {
    // The file format: 12 slices of one batch, sharing one dictionary. The stream format: 12
    // batches with a dictionary each (replacement dictionaries).
    const whole = part(0, 18_000).batches[0];
    const sliced = new Table(Array.from({ length: 12 }, (_, b) => whole.slice(b * 1500, (b + 1) * 1500)));
    let replaced = part(0, 1500);
    for (let b = 1; b < 12; b++) replaced = replaced.concat(part(b * 1500, 1500));
    expect([sliced.batches.length, replaced.batches.length]).toEqual([12, 12]);
    const expected = datasetFromArrow(sliced);
    expect(datasetFromArrow(replaced)).toEqual(expected);
    expect(expected.nRows).toBe(18_000);
    for (const format of ['file', 'stream'] as const) {
      const bytes = tableToIPC(format === 'file' ? sliced : replaced, format);
      writeFileSync(join(dir, `t-${format}.arrow`), bytes);
      writeFileSync(join(dir, `t-${format}.arrow.gz`), gzipSync(bytes));
      for (const name of [`t-${format}.arrow`, `t-${format}.arrow.gz`]) {
        const got = await readSource(join(dir, name));
        expect({ ...got, source: undefined }, name).toEqual(expected);
      }
    }
  }, 60_000);
});
