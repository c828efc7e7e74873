/** `drop` and `features` in every reader, the identifier-like columns `idLikeColumns` finds, the sniffed delimiter. */

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GroveError } from '../../src/core/errors.js';
import { parseArff } from '../../src/data/arff.js';
import { createDelimitedReader } from '../../src/data/delimited.js';
import { sniffDelimiter } from '../../src/data/delimiter-sniff.js';
import { idLikeColumns } from '../../src/data/describe.js';
import { datasetFromRows } from '../../src/data/encode.js';
import { readDataset } from '../../src/sources/index.js';

const dir = mkdtempSync(join(tmpdir(), 'grove-select-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ROWS = [
  { id: 1, x: 0.5, c: 'a', y: 'p' },
  { id: 2, x: 1.5, c: 'b', y: 'q' },
  { id: 3, x: 2.5, c: 'a', y: 'p' },
];
const CSV = 'id,x,c,y\n1,0.5,a,p\n2,1.5,b,q\n3,2.5,a,p\n';
const names = (d: { features: Array<{ name: string }> }) => d.features.map((f) => f.name);

function thrown(f: () => unknown): GroveError {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(GroveError);
    return err as GroveError;
  }
  throw new Error('expected a GroveError');
}

describe('drop and features', () => {
  it('datasetFromRows leaves the dropped columns out and keeps the listed features (the target always)', () => {
    expect(names(datasetFromRows(ROWS, { drop: ['id'] }))).toEqual(['x', 'c']);
    expect(names(datasetFromRows(ROWS, { features: ['c', 'y'] }))).toEqual(['c']);
    expect(names(datasetFromRows(ROWS, { features: ['x', 'c'], drop: ['c'] }))).toEqual(['x']);
    const d = datasetFromRows(ROWS, { drop: ['id'] });
    expect(d.targetName).toBe('y');
    expect(d.classes).toEqual(['p', 'q']);
  });

  it('every file reader applies them alike (CSV, TSV, JSON Lines, ARFF)', async () => {
    const files: Array<[string, string]> = [
      ['d.csv', CSV],
      ['d.tsv', CSV.replaceAll(',', '\t')],
      ['d.jsonl', `${ROWS.map((r) => JSON.stringify(r)).join('\n')}\n`],
    ];
    for (const [name, text] of files) {
      writeFileSync(join(dir, name), text);
      expect(names(await readDataset(join(dir, name), { drop: ['id'] })), name).toEqual(['x', 'c']);
      expect(names(await readDataset(join(dir, name), { features: ['id'] })), name).toEqual(['id']);
    }
    const arff = '@relation r\n@attribute id numeric\n@attribute x numeric\n@attribute y {p,q}\n@data\n1,2,p\n2,3,q\n';
    expect(names(parseArff(arff, { drop: ['x'] }))).toEqual(['id']);
  });

  it('an unknown name is refused naming the columns there are; so are the target and an empty result', () => {
    const unknown = thrown(() => datasetFromRows(ROWS, { drop: ['ID'] }));
    expect(unknown.message).toBe("column 'ID': unknown column 'ID' to drop (columns: id, x, c, y)");
    expect(thrown(() => datasetFromRows(ROWS, { features: ['z'] })).message).toMatch(
      /unknown column 'z' among the features to keep \(columns: id, x, c, y\)/,
    );
    expect(thrown(() => datasetFromRows(ROWS, { drop: ['y'] })).message).toMatch(/cannot drop the target column 'y'/);
    expect(thrown(() => datasetFromRows(ROWS, { drop: ['id', 'x', 'c'] })).message).toMatch(/no feature columns left/);
    expect(thrown(() => datasetFromRows(ROWS, { drop: 'id' as never })).message).toMatch(
      /option drop has the wrong type/,
    );
  });
});

describe('idLikeColumns', () => {
  const rows = (n: number, row: (i: number) => Record<string, unknown>) => Array.from({ length: n }, (_, i) => row(i));

  it('finds an increasing integer, an integer or text column with a value per row; not measurements or few rows', () => {
    const data = datasetFromRows(
      rows(40, (i) => ({
        row: 100 + 3 * i,
        shuffled: (i * 17) % 41,
        name: `n${(i * 7) % 40}`,
        x: i / 7,
        few: i % 3,
        y: i % 2 ? 'p' : 'q',
      })),
    );
    expect(idLikeColumns(data)).toEqual([
      { name: 'row', reason: 'an integer that increases on every row' },
      { name: 'shuffled', reason: '40 distinct integers in 40 rows' },
      { name: 'name', reason: '40 distinct values in 40 rows' },
    ]);
    const small = datasetFromRows(rows(10, (i) => ({ row: i, y: i % 2 ? 'p' : 'q' })));
    expect(idLikeColumns(small)).toEqual([]);
  });

  it('text: distinct values at 90 % of the rows, missing values not counted; integers: a different one on every row', () => {
    // 36 distinct texts in 40 rows is 90 %; 35 (five rows missing) is not.
    const text = (i: number) => `k${2 * i}`;
    const at90 = datasetFromRows(rows(40, (i) => ({ k: i < 36 ? text(i) : 'k0', y: i % 2 ? 'p' : 'q' })));
    expect(idLikeColumns(at90).map((c) => c.name)).toEqual(['k']);
    const missing = datasetFromRows(rows(40, (i) => ({ k: i < 5 ? null : text(i), y: i % 2 ? 'p' : 'q' })));
    expect(idLikeColumns(missing).map((c) => c.name)).toEqual([]);
    // An amount in whole units with a few repeats (39 distinct in 40 rows) is a measurement, not a key.
    const amount = datasetFromRows(rows(40, (i) => ({ k: ((i * 7919) % 40) * 37 + (i === 39 ? -37 : 0), y: 'p' })));
    expect(idLikeColumns(amount).map((c) => c.name)).toEqual([]);
  });
});

describe('delimiter sniffing', () => {
  it('a comma unless the first line has none outside quotes; then the most frequent of ; tab |', () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    expect(sniffDelimiter(enc('a,b;c;d\n'))).toBe(',');
    expect(sniffDelimiter(enc('"a,b";c;d\n1,5;2;3\n'))).toBe(';');
    expect(sniffDelimiter(enc('\n  \na\tb|c\td\n'))).toBe('\t');
    expect(sniffDelimiter(enc('a b c\n'))).toBe(',');
  });

  it('readDataset sniffs a CSV file and says so; createDelimitedReader with a delimiter does not', async () => {
    const p = join(dir, 'semi.csv');
    writeFileSync(p, 'x;c;y\n1,5;a;p\n2,5;b;q\n');
    const warnings: string[] = [];
    const d = await readDataset(p, { onWarning: (m) => warnings.push(m) });
    expect(names(d)).toEqual(['x', 'c']);
    expect(d.features[0]).toMatchObject({ kind: 'categorical', categories: ['1,5', '2,5'] });
    expect(warnings).toEqual([
      `${p}: no comma in the header: read with ';' as the delimiter (sniffed; --delimiter sets it)`,
    ]);
    await expect(readDataset(p, { delimiter: '|' })).rejects.toThrow(/only one column 'x;c;y' .*split on '\|'/);
    const reader = createDelimitedReader({ delimiter: ',' });
    expect(() => reader.push(new TextEncoder().encode('x;c;y\n1;a;p\n'))).toThrow(
      /only one column 'x;c;y' .*split on ','/,
    );
  });
});
