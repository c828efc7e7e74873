/**
 * Hostile Parquet files made from a good one, each read by `grove info` through the source table:
 * one line naming what is wrong, never an internal error, never the memory or time the file
 * claims. Cut short (truncated, not "not a Parquet file"); a declared row count of 2^40, and one of
 * 2^31 - 1 that the pages do not bear out; a footer
 * nesting lists 100,000 deep in a field grove skips; every column chunk pointing at the same bytes.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GroveError } from '../../src/core/errors.js';
import { readSource } from '../../src/sources/index.js';
import { editFooter, readFooterTree, withFooterBytes } from './parquet-page-v2.js';

let dir: string;
let good: Uint8Array;
const at = (name: string) => join(dir, name);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'grove-parquet-hostile-'));
  const instance = await DuckDBInstance.create(':memory:');
  const db = await instance.connect();
  try {
    // 40 numeric columns, so that chunks pointing at one chunk's bytes would decode it 40 times.
    const cols = Array.from({ length: 40 }, (_, j) => `CAST(i * ${j + 1} % 97 AS DOUBLE) AS c${j}`).join(', ');
    await db.run(
      `COPY (SELECT ${cols}, CASE WHEN i % 2 = 0 THEN 'x' ELSE 'y' END AS class FROM range(3000) r(i)) ` +
        `TO '${at('good.parquet')}' (FORMAT parquet)`,
    );
  } finally {
    db.closeSync();
    instance.closeSync();
  }
  good = new Uint8Array(readFileSync(at('good.parquet')));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The GroveError reading `bytes` as a Parquet file gives. */
async function refusal(name: string, bytes: Uint8Array): Promise<GroveError> {
  writeFileSync(at(name), bytes);
  let error: unknown;
  try {
    await readSource(at(name));
  } catch (e) {
    error = e;
  }
  expect(error, name).toBeInstanceOf(GroveError);
  expect((error as GroveError).message).not.toMatch(/internal error/);
  return error as GroveError;
}

describe('hostile Parquet files', () => {
  it('a file cut short is called truncated', async () => {
    for (const keep of [good.length - 1, good.length - 9, Math.floor(good.length / 2), 100]) {
      const e = await refusal(`cut-${keep}.parquet`, good.subarray(0, keep));
      expect(e.message).toMatch(/truncated/);
      expect(e.message).not.toMatch(/not a Parquet file/);
    }
  });

  it('a declared row count of 2^40 is a clear error, before any memory is taken for it', async () => {
    const big = 2 ** 40;
    const bytes = editFooter(good, (footer, get, set) => {
      set(footer, 3, big);
      for (const group of (get(footer, 4) as { items: never[][] }).items) {
        set(group, 3, big);
        for (const chunk of (get(group, 1) as { items: never[][] }).items) set(get(chunk, 3) as never[], 5, big);
      }
    });
    const e = await refusal('rows.parquet', bytes);
    expect(e.message).toMatch(/declares 1,099,511,627,776 rows, more than grove holds/);
  });

  it('a declared row count of 2^31 - 1 over 3,000 rows of pages: refused when the pages run out, before memory is taken for it', async () => {
    const most = 2 ** 31 - 1;
    const bytes = editFooter(good, (footer, get, set) => {
      set(footer, 3, most);
      const groups = (get(footer, 4) as { items: never[][] }).items;
      expect(groups.length).toBe(1);
      set(groups[0], 3, most);
      for (const chunk of (get(groups[0], 1) as { items: never[][] }).items) set(get(chunk, 3) as never[], 5, most);
    });
    const before = process.memoryUsage().arrayBuffers;
    const e = await refusal('most-rows.parquet', bytes);
    expect(e.message).toMatch(/fewer values than its row group has rows/);
    expect((process.memoryUsage().arrayBuffers - before) / 2 ** 20).toBeLessThan(256);
  });

  it('lists nested 100,000 deep in a footer field grove skips: nested too deep', async () => {
    const { start } = readFooterTree(good);
    const footer = good.subarray(start, good.length - 8);
    const depth = 100_000;
    // Replace the footer's final stop byte by field 99 (long form: type LIST, id as zigzag i16), a
    // list of one list of one list … of an empty list, and the stop byte.
    const nested = new Uint8Array(footer.length - 1 + 3 + depth + 2);
    nested.set(footer.subarray(0, footer.length - 1));
    nested.set([0x09, 0xc6, 0x01], footer.length - 1);
    nested.fill(0x19, footer.length + 2, footer.length + 2 + depth);
    nested.set([0x09, 0x00], footer.length + 2 + depth);
    const e = await refusal('nested.parquet', withFooterBytes(good, nested));
    expect(e.message).toMatch(/nested too deep/);
  });

  it('column chunks that all point at the same bytes are refused as overlapping', async () => {
    const bytes = editFooter(good, (footer, get, set) => {
      for (const group of (get(footer, 4) as { items: never[][] }).items) {
        const chunks = (get(group, 1) as { items: never[][] }).items;
        const first = get(chunks[0], 3) as never[];
        const [data, size] = [get(first, 9) as number, get(first, 7) as number];
        const dict = (first as Array<{ id: number; value: number }>).find((f) => f.id === 11)?.value;
        for (const chunk of chunks.slice(0, -1)) {
          const meta = get(chunk, 3) as never[];
          set(meta, 9, data);
          set(meta, 7, size);
          if (dict !== undefined) set(meta, 11, dict);
        }
      }
    });
    const e = await refusal('overlap.parquet', bytes);
    expect(e.message).toMatch(/column chunks overlap/);
  });
});
