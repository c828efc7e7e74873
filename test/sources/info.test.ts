/** grove info: rows, column kinds, missing values, categories, class distribution and memory, as text and JSON. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, grove } from '../helpers/cli.js';

let dir: string;
beforeAll(() => {
  assertBuilt();
  dir = mkdtempSync(join(tmpdir(), 'grove-info-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('grove info', () => {
  it('--json: the figures of a small set with missing values', () => {
    const csv = join(dir, 'm.csv');
    writeFileSync(csv, 'age,colour,grade\n23,red,1\n?,blue,2\n41,,1\n35,red,3\n');
    const r = grove(['info', csv, '--json']);
    expect(r.status, r.stderr).toBe(0);
    const info = JSON.parse(r.stdout);
    expect(info).toMatchObject({
      source: csv,
      format: `CSV file ${csv}`,
      rows: 4,
      target: 'grade',
      columns: [
        { name: 'age', kind: 'numeric', missing: 1 },
        { name: 'colour', kind: 'categorical', missing: 1, categories: 2 },
        { name: 'grade', kind: 'target', missing: 0, categories: 3 },
      ],
      classes: [
        { label: 1, rows: 2 },
        { label: 2, rows: 1 },
        { label: 3, rows: 1 },
      ],
    });
    // 4 float64 + 4 int32 codes + 'red','blue' (2 bytes a character) + 4 int32 labels.
    expect(info.bytes).toBe(32 + 16 + 14 + 16);
    expect(info.readSeconds).toBeGreaterThanOrEqual(0);
  });

  it('text: a line per column and per class', () => {
    const csv = join(dir, 'm.csv');
    const r = grove(['info', csv, '--categorical', 'age']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^CSV file .*m\.csv: 4 rows, 2 features \(0 numeric, 2 categorical\), target 'grade'/);
    expect(r.stdout).toMatch(/\nage +categorical +1 +3\n/);
    expect(r.stdout).toMatch(/\n {2}1 +2 +50\.0%\n {2}2 +1 +25\.0%\n {2}3 +1 +25\.0%\n/);
  });
});
