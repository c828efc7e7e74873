/**
 * JSON Lines stream into typed columns with datasetFromRows's rules: a column that starts numeric
 * and meets a string later, numeric strings, absent keys, nulls, booleans, more rows than the first
 * column capacity, gzip; errors name the line (blank lines counted).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { datasetFromRows } from '../../src/index.js';
import { readSource } from '../../src/sources/index.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'grove-jsonl-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** 20,000 rows (over the first capacity of 16,384): deterministic mixed values. */
function rows(): Array<Record<string, unknown>> {
  return Array.from({ length: 20_000 }, (_, i) => {
    const r: Record<string, unknown> = {
      n: i % 10 === 3 ? null : (i % 101) / 4,
      // Numbers until row 18,000, then a text: the column turns categorical late.
      late: i === 18_000 ? 'odd' : i % 7,
      numText: i % 9 === 0 ? '?' : String(i % 13),
      flag: i % 5 === 0 ? null : i % 2 === 0,
      colour: ['red', ' blue ', 'green', ''][i % 4],
      y: i % 3 === 0 ? 'a' : 'b',
    };
    if (i % 11 === 5) delete r.n; // an absent key is missing
    return r;
  });
}

const content = (d: { source?: string }) => ({ ...d, source: undefined });

describe('JSON Lines stream into typed columns', () => {
  it('gives datasetFromRows’s Dataset, plain and gzip-compressed', async () => {
    const data = rows();
    const text = `${data.map((r) => JSON.stringify(r)).join('\n')}\n`;
    writeFileSync(join(dir, 'mixed.jsonl'), text);
    writeFileSync(join(dir, 'mixed.jsonl.gz'), gzipSync(text));
    const expected = datasetFromRows(data);
    expect(expected.features.map((f) => f.kind)).toEqual([
      'numeric',
      'categorical',
      'numeric',
      'categorical',
      'categorical',
    ]);
    for (const name of ['mixed.jsonl', 'mixed.jsonl.gz'])
      expect(content(await readSource(join(dir, name))), name).toEqual(content(expected));
    const float32 = { float32: true, categorical: ['numText'] };
    expect(content(await readSource(join(dir, 'mixed.jsonl'), float32))).toEqual(
      content(datasetFromRows(data, float32)),
    );
  }, 60_000);

  it('errors name the line, counting blank lines', async () => {
    const at = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return readSource(join(dir, name));
    };
    await expect(at('a.jsonl', '{"x":1,"y":"a"}\n\n{"x":2,"z":3}\n')).rejects.toThrow(
      /row 3, column 'z': key 'z' is not a column of the first row \(columns: x, y\)/,
    );
    await expect(at('b.jsonl', '{"x":1,"y":"a"}\n{"x":[1],"y":"b"}\n')).rejects.toThrow(
      /row 2, column 'x': unsupported value of type object/,
    );
    await expect(at('c.jsonl', '{"x":1,"y":"a"}\n{"x":1e999,"y":"b"}\n')).rejects.toThrow(
      /row 2, column 'x': value Infinity is not a finite number/,
    );
    await expect(at('d.jsonl', '{"x":1,"y":"a"}\n\n\n{"x":2,"y":null}\n')).rejects.toThrow(
      /row 4, column 'y': the target \(class\) value is missing/,
    );
    await expect(at('e.jsonl', '\n\n')).rejects.toThrow(/no data rows/);
  });
});
