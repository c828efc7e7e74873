import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { GroveError } from '../../src/core/errors.js';
import { parseArff, parseArffDocument } from '../../src/data/arff.js';
import type { CategoricalColumn, Column, Dataset, NumericColumn } from '../../src/data/dataset.js';
import { parseCsvText } from '../../src/data/delimited.js';
import { datasetFromRows, encodeTable } from '../../src/data/encode.js';
import { isNumericToken } from '../../src/data/tokens.js';
import { readDataset } from '../../src/sources/file-source.js';

const here = dirname(fileURLToPath(import.meta.url));
const fixtures = resolve(here, '../fixtures');
const fx = (name: string): string => join(fixtures, name);

function col(ds: Dataset, name: string): Column {
  const c = ds.features.find((f) => f.name === name);
  if (!c) throw new Error(`no column ${name}`);
  return c;
}
function num(ds: Dataset, name: string): NumericColumn {
  const c = col(ds, name);
  expect(c.kind).toBe('numeric');
  return c as NumericColumn;
}
function cat(ds: Dataset, name: string): CategoricalColumn {
  const c = col(ds, name);
  expect(c.kind).toBe('categorical');
  return c as CategoricalColumn;
}
/** Decoded values of a categorical column (null = missing). */
function decode(c: CategoricalColumn): (string | null)[] {
  return Array.from(c.codes, (k) => (k < 0 ? null : c.categories[k]));
}
function labelsOf(ds: Dataset): (string | number)[] {
  return Array.from(ds.labels, (k) => ds.classes[k]);
}

/** Run `fn`, expect a GroveError, and return it. */
function groveError(fn: () => unknown): GroveError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(GroveError);
    return e as GroveError;
  }
  throw new Error('expected a GroveError');
}

/** The GroveError `promise` rejects with. */
async function groveRejection(promise: Promise<unknown>): Promise<GroveError> {
  try {
    await promise;
  } catch (e) {
    expect(e).toBeInstanceOf(GroveError);
    return e as GroveError;
  }
  throw new Error('expected a GroveError');
}

describe('isNumericToken', () => {
  it('accepts decimal and scientific numbers only', () => {
    for (const s of ['0', '-3', '+2', '1.5', '.5', '5.', '1e3', '-2.5E-7', '1e+21'])
      expect(isNumericToken(s)).toBe(true);
    for (const s of ['', '0x10', '1_000', 'Infinity', 'NaN', '1e', '1,5', '- 1', '1e400', 'abc', '.']) {
      expect(isNumericToken(s)).toBe(false);
    }
  });
});

describe('CSV parsing', () => {
  it('handles quoted fields with commas, quotes and newlines', () => {
    const text = 'name,note,class\n"Smith, J.","said ""hi""",a\n"multi\nline",plain,b\n';
    const ds = parseCsvText(text, { source: 'q.csv' });
    expect(decode(cat(ds, 'name'))).toEqual(['Smith, J.', 'multi\nline']);
    expect(decode(cat(ds, 'note'))).toEqual(['said "hi"', 'plain']);
    expect(ds.classes).toEqual(['a', 'b']);
    expect(ds.source).toBe('q.csv');
  });

  it('handles CRLF line ends and a UTF-8 BOM', () => {
    const ds = parseCsvText('\uFEFFx,y,class\r\n1,a,p\r\n2,b,q\r\n', {});
    expect(ds.features.map((f) => f.name)).toEqual(['x', 'y']);
    expect(Array.from(num(ds, 'x').values)).toEqual([1, 2]);
    expect(decode(cat(ds, 'y'))).toEqual(['a', 'b']);
    expect(ds.classes).toEqual(['p', 'q']);
  });

  it('skips blank lines and reports true line numbers after them and after multi-line fields', () => {
    const text = 'x,class\n1,a\n\n\n"2\n",b\nzz,c\n';
    expect(parseCsvText(text).nRows).toBe(3);
    const e = groveError(() => parseCsvText(`${text}3,?\n`, { source: 'f.csv' }));
    expect(e.row).toBe(8);
    expect(e.column).toBe('class');
    expect(e.message).toMatch(/^f\.csv, row 8, column 'class': .*missing/);
    const warnings: string[] = [];
    parseCsvText(text, { source: 'f.csv', numeric: ['x'], onWarning: (m) => warnings.push(m) });
    expect(warnings).toEqual(["f.csv: column 'x': 1 cell that is not a number read as missing (first 'zz' on row 7)"]);
  });

  it('treats empty fields and ? as missing (NaN / -1)', () => {
    const ds = parseCsvText('x,c,class\n1,a,p\n,?,q\n?, ,p\n4,b,q\n', {});
    const x = num(ds, 'x').values;
    expect(x[0]).toBe(1);
    expect(Number.isNaN(x[1]) && Number.isNaN(x[2])).toBe(true);
    expect(Array.from(cat(ds, 'c').codes)).toEqual([0, -1, -1, 1]);
  });

  it('trims cells (adult-style leading spaces)', () => {
    const ds = parseCsvText('x,c,class\n 1, a, p\n2 ,a ,q\n', {});
    expect(Array.from(num(ds, 'x').values)).toEqual([1, 2]);
    expect(cat(ds, 'c').categories).toEqual(['a']);
    expect(ds.classes).toEqual(['p', 'q']);
  });
});

describe('type inference and overrides', () => {
  const text = 'n,code,s,empty,class\n1.5,3,u,,x\n2,1,v,?,y\n-1e2,2,u,,x\n';

  it('infers numeric vs categorical', () => {
    const ds = parseCsvText(text);
    expect(Array.from(num(ds, 'n').values)).toEqual([1.5, 2, -100]);
    num(ds, 'code');
    expect(cat(ds, 's').categories).toEqual(['u', 'v']);
    const empty = cat(ds, 'empty');
    expect(empty.categories).toEqual([]);
    expect(Array.from(empty.codes)).toEqual([-1, -1, -1]);
  });

  it('0x10 and the like make a column categorical', () => {
    const ds = parseCsvText('a,class\n0x10,x\n3,y\n');
    expect(cat(ds, 'a').categories).toEqual(['0x10', '3']);
  });

  it('forced categorical numeric codes are sorted numerically', () => {
    const ds = parseCsvText(text, { categorical: ['code', 'n'] });
    const code = cat(ds, 'code');
    expect(code.categories).toEqual(['1', '2', '3']);
    expect(decode(code)).toEqual(['3', '1', '2']);
    expect(cat(ds, 'n').categories).toEqual(['-1e2', '1.5', '2']);
  });

  it('non-numeric categories keep first-appearance order', () => {
    const ds = parseCsvText('c,class\nz,p\na,q\nm,p\na,q\n');
    expect(cat(ds, 'c').categories).toEqual(['z', 'a', 'm']);
  });

  it('forced numeric reads a non-numeric value as missing, with a warning naming file, row, column and value', async () => {
    const warnings: string[] = [];
    const ds = await readDataset(fx('bad-nonnumeric.csv'), { numeric: ['x'], onWarning: (m) => warnings.push(m) });
    expect(Number.isNaN(num(ds, 'x').values[3])).toBe(true);
    expect(warnings).toEqual([
      `${fx('bad-nonnumeric.csv')}: column 'x': 1 cell that is not a number read as missing (first 'abc' on row 5)`,
    ]);
    // Without the override the column is just categorical.
    expect((await readDataset(fx('bad-nonnumeric.csv'))).features[0].kind).toBe('categorical');
  });

  it('rejects unknown and conflicting override names', () => {
    let e = groveError(() => parseCsvText(text, { source: 'f.csv', categorical: ['nope'] }));
    expect(e.message).toContain("unknown categorical column 'nope'");
    expect(e.file).toBe('f.csv');
    e = groveError(() => parseCsvText(text, { source: 'f.csv', numeric: ['nope'] }));
    expect(e.message).toContain("unknown numeric column 'nope'");
    e = groveError(() => parseCsvText(text, { source: 'f.csv', numeric: ['n'], categorical: ['n'] }));
    expect(e.message).toContain('both categorical and numeric');
    expect(e.column).toBe('n');
    e = groveError(() => parseCsvText(text, { numeric: ['class'] }));
    expect(e.message).toContain('cannot be numeric');
  });
});

describe('target and class labels', () => {
  it('defaults to the last column, or takes one by name', () => {
    const text = 'a,b,c\nx,1,p\ny,2,q\n';
    const last = parseCsvText(text);
    expect(last.targetName).toBe('c');
    expect(last.features.map((f) => f.name)).toEqual(['a', 'b']);
    const byName = parseCsvText(text, { target: 'a' });
    expect(byName.targetName).toBe('a');
    expect(byName.features.map((f) => f.name)).toEqual(['b', 'c']);
    expect(byName.classes).toEqual(['x', 'y']);
  });

  it('unknown target lists the columns and names the file', async () => {
    const e = await groveRejection(readDataset(fx('play-tennis.csv'), { target: 'x' }));
    expect(e.file).toBe(fx('play-tennis.csv'));
    expect(e.message).toContain("unknown target column 'x' (columns: Outlook, Temperature, Humidity, Wind, Play)");
  });

  it("numeric labels become sorted JS numbers when each is its number's canonical text", () => {
    const ds = parseCsvText('a,class\nx,10\ny,2\nz,1\nw,-0.5\n');
    expect(ds.classes).toEqual([-0.5, 1, 2, 10]);
    expect(Array.from(ds.labels)).toEqual([3, 2, 1, 0]);
  });

  it('labels keep their text otherwise: 2 and 2.0 are two classes, all strings', () => {
    const ds = parseCsvText('a,class\nx,10\ny,2\nz,1\nw,2.0\n');
    expect(ds.classes).toEqual(['1', '10', '2', '2.0']);
    expect(labelsOf(ds)).toEqual(['10', '2', '1', '2.0']);
  });

  it('string labels are sorted with <', () => {
    const ds = parseCsvText('a,class\nx,b\ny,B\nz,a\nw,b\n');
    expect(ds.classes).toEqual(['B', 'a', 'b']);
    expect(labelsOf(ds)).toEqual(['b', 'B', 'a', 'b']);
  });

  it('a missing class label is an error naming the row and column', () => {
    const e = groveError(() => parseCsvText('a,class\nx,p\ny,?\n', { source: 'f.csv' }));
    expect(e.row).toBe(3);
    expect(e.column).toBe('class');
    expect(e.message).toMatch(/^f\.csv, row 3, column 'class': .*missing/);
  });

  it('one class only is fine', async () => {
    const ds = await readDataset(fx('one-class.csv'));
    expect(ds.classes).toEqual(['yes']);
    expect(ds.nRows).toBe(5);
  });
});

describe('CSV file errors', () => {
  it('missing file', async () => {
    const p = fx('does-not-exist.csv');
    const e = await groveRejection(readDataset(p));
    expect(e.file).toBe(p);
    expect(e.message).toBe(`${p}: cannot read file: no such file`);
  });

  it('empty file', async () => {
    const e = await groveRejection(readDataset(fx('bad-empty.csv')));
    expect(e.message).toBe(`${fx('bad-empty.csv')}: empty file`);
    expect(groveError(() => parseCsvText('\n\n  \n', { source: 's' })).message).toBe('s: empty file');
  });

  it('header but no data rows', async () => {
    const e = await groveRejection(readDataset(fx('bad-header-only.csv')));
    expect(e.file).toBe(fx('bad-header-only.csv'));
    expect(e.message).toContain('no data rows');
  });

  it('ragged row: line number and field counts', async () => {
    const e = await groveRejection(readDataset(fx('bad-ragged.csv')));
    expect(e.file).toBe(fx('bad-ragged.csv'));
    expect(e.row).toBe(4);
    expect(e.message).toBe(`${fx('bad-ragged.csv')}, row 4: expected 3 fields, found 2`);
    const long = groveError(() => parseCsvText('a,b\r\n1,2\r\n1,2,3\r\n'));
    expect(long.row).toBe(3);
    expect(long.message).toContain('expected 2 fields, found 3');
  });

  it('malformed quoting reports the line', () => {
    let e = groveError(() => parseCsvText('a,b\n1,2\n3,"4\n', { source: 'f.csv' }));
    expect(e.row).toBe(3);
    expect(e.message).toMatch(/^f\.csv, row 3: malformed CSV: Quote Not Closed/);
    e = groveError(() => parseCsvText('a,b\n1,"2"x\n', { source: 'f.csv' }));
    expect(e.row).toBe(2);
    expect(e.message).toContain('malformed CSV');
  });

  it('duplicate and empty header names', () => {
    let e = groveError(() => parseCsvText('a,b,a\n1,2,3\n', { source: 'f.csv' }));
    expect(e.message).toBe("f.csv, row 1, column 'a': duplicate column name 'a' in the header");
    e = groveError(() => parseCsvText('a,,c\n1,2,3\n', { source: 'f.csv' }));
    expect(e.row).toBe(1);
    expect(e.message).toContain('empty column name');
  });

  it('a single-column file hints at the delimiter', () => {
    const e = groveError(() => parseCsvText('a b class\n1 2 x\n', { source: 'f.csv' }));
    expect(e.message).toContain("no comma, and none of ';', tab, '|'; give the delimiter with --delimiter");
  });
});

describe('paper fixtures', () => {
  it('play-tennis', async () => {
    const ds = await readDataset(fx('play-tennis.csv'));
    expect(ds.nRows).toBe(14);
    expect(ds.targetName).toBe('Play');
    expect(ds.classes).toEqual(['No', 'Yes']);
    expect(labelsOf(ds).filter((l) => l === 'Yes').length).toBe(9);
    expect(cat(ds, 'Outlook').categories).toEqual(['Sunny', 'Overcast', 'Rain']);
  });

  it('taxable-income has a numeric income column', async () => {
    const ds = await readDataset(fx('taxable-income.csv'));
    expect(Array.from(num(ds, 'TaxableIncome').values)).toEqual([125, 100, 70, 120, 95, 60, 220, 85, 75, 90]);
    expect(labelsOf(ds).filter((l) => l === 'Yes').length).toBe(3);
  });

  it("sepal-length-discretized has Zaki's counts", async () => {
    const ds = await readDataset(fx('sepal-length-discretized.csv'));
    expect(ds.nRows).toBe(150);
    const c = cat(ds, 'sepal-length');
    const counts: Record<string, number> = {};
    for (let i = 0; i < ds.nRows; i++) {
      const key = `${c.categories[c.codes[i]]}/${ds.classes[ds.labels[i]]}`;
      counts[key] = (counts[key] ?? 0) + 1;
    }
    expect(counts).toEqual({
      'a1/iris-setosa': 39,
      'a1/other': 6,
      'a2/iris-setosa': 11,
      'a2/other': 39,
      'a3/other': 43,
      'a4/other': 12,
    });
  });

  it('tutorial-30 has the 17/13 split with 14/16 classes', async () => {
    const ds = await readDataset(fx('tutorial-30.csv'));
    expect(ds.nRows).toBe(30);
    const a = cat(ds, 'A');
    const counts: Record<string, number> = {};
    for (let i = 0; i < 30; i++) {
      const key = `${a.categories[a.codes[i]]}/${ds.classes[ds.labels[i]]}`;
      counts[key] = (counts[key] ?? 0) + 1;
    }
    expect(counts).toEqual({ 'a1/c1': 13, 'a1/c2': 4, 'a2/c1': 1, 'a2/c2': 12 });
  });

  it('weather.arff equals play-tennis.csv', async () => {
    const a = await readDataset(fx('weather.arff'));
    const c = await readDataset(fx('play-tennis.csv'));
    expect(a.classes).toEqual(c.classes);
    expect(Array.from(a.labels)).toEqual(Array.from(c.labels));
    for (const f of c.features) expect(decode(cat(a, f.name))).toEqual(decode(f as CategoricalColumn));
    expect(cat(a, 'Temperature').categories).toEqual(['Hot', 'Mild', 'Cool']);
    expect((await readDataset(fx('weather.arff'))).nRows).toBe(14);
    expect((await readDataset(fx('play-tennis.csv'))).nRows).toBe(14);
  });
});

describe('ARFF', () => {
  const arff = [
    '% a comment',
    "@RELATION 'test rel'",
    '',
    '@attribute num numeric',
    '@attribute int INTEGER % trailing comment',
    "@attribute 'quoted name' {a, 'b c', \"d,e\"}",
    '@attribute s string',
    '@attribute class {yes,no}',
    '@data',
    '% comment in data',
    "1.5, 2, a, 'hello world', yes",
    "?, 3, 'b c', x, no",
    '',
    '2,?,"d,e",?,yes % comment after data',
  ].join('\r\n');

  it('parses declarations, quotes, missing values and comments', () => {
    const doc = parseArffDocument(arff, 't.arff');
    expect(doc.relation).toBe('test rel');
    expect(doc.attributes.map((a) => a.name)).toEqual(['num', 'int', 'quoted name', 's', 'class']);
    expect(doc.attributes[2].type).toEqual({ kind: 'categorical', categories: ['a', 'b c', 'd,e'] });
    expect(Array.from(doc.rowNumbers)).toEqual([11, 12, 14]);

    const ds = parseArff(arff, { source: 't.arff' });
    expect(ds.nRows).toBe(3);
    const n = num(ds, 'num').values;
    expect(n[0]).toBe(1.5);
    expect(Number.isNaN(n[1])).toBe(true);
    expect(Number.isNaN(num(ds, 'int').values[2])).toBe(true);
    expect(decode(cat(ds, 'quoted name'))).toEqual(['a', 'b c', 'd,e']);
    expect(decode(cat(ds, 's'))).toEqual(['hello world', 'x', null]);
    expect(ds.classes).toEqual(['no', 'yes']);
    expect(labelsOf(ds)).toEqual(['yes', 'no', 'yes']);
    expect(ds.weights).toBeUndefined();
  });

  it('keeps declared nominal order, including unused values', () => {
    const ds = parseArff('@relation r\n@attribute c {z,y,x}\n@attribute k {1,2}\n@data\ny,2\nz,1\n');
    expect(cat(ds, 'c').categories).toEqual(['z', 'y', 'x']);
    expect(ds.classes).toEqual([1, 2]);
  });

  it('reads instance weights {w}', () => {
    const ds = parseArff('@relation r\n@attribute a numeric\n@attribute c {p,q}\n@data\n1,p,{2.5}\n2,q\n');
    expect(Array.from(ds.weights!)).toEqual([2.5, 1]);
  });

  it('unknown nominal value names line and attribute', () => {
    const e = groveError(() =>
      parseArff('@relation r\n@attribute c {a,b}\n@attribute k {p,q}\n@data\na,p\nzz,q\n', { source: 'x.arff' }),
    );
    expect(e.row).toBe(6);
    expect(e.column).toBe('c');
    expect(e.message).toContain("value 'zz' is not one of the declared values {a, b}");
    const e2 = groveError(() =>
      parseArff('@relation r\n@attribute c {a,b}\n@attribute k {p,q}\n@data\na,r\n', { source: 'x.arff' }),
    );
    expect(e2.row).toBe(5);
    expect(e2.column).toBe('k');
  });

  it('refuses sparse data, dates and relational attributes', () => {
    let e = groveError(() =>
      parseArff('@relation r\n@attribute a numeric\n@attribute c {p,q}\n@data\n{0 1, 1 p}\n', { source: 's.arff' }),
    );
    expect(e.message).toContain('sparse ARFF is not supported');
    expect(e.row).toBe(5);
    e = groveError(() =>
      parseArff('@relation r\n@attribute d date "yyyy-MM-dd"\n@attribute c {p,q}\n@data\n', { source: 's.arff' }),
    );
    expect(e.message).toContain('date attributes are not supported');
    expect(e.row).toBe(2);
    e = groveError(() => parseArff('@relation r\n@attribute bag relational\n@end bag\n@data\n'));
    expect(e.message).toContain('relational');
  });

  it('reports other malformed input with the line', () => {
    let e = groveError(() =>
      parseArff('@relation r\n@attribute a numeric\n@attribute c {p,q}\n@data\n1,p,3\n', { source: 'f' }),
    );
    expect(e.message).toBe('f, row 5: expected 2 fields, found 3');
    e = groveError(() =>
      parseArff('@relation r\n@attribute a numeric\n@attribute c {p,q}\n@data\nabc,p\n', { source: 'f' }),
    );
    expect(e.message).toBe("f, row 5, column 'a': expected a number, found 'abc'");
    e = groveError(() => parseArff('@relation r\n@attribute a numeric\n@attribute a {p,q}\n@data\n', { source: 'f' }));
    expect(e.message).toContain("duplicate attribute name 'a'");
    e = groveError(() => parseArff('@relation r\n@attribute a numeric\n', { source: 'f' }));
    expect(e.message).toBe('f: no @data section');
    e = groveError(() => parseArff('@relation r\n@attribute a numeric\n@attribute c {p,q}\n@data\n', { source: 'f' }));
    expect(e.message).toContain('no data rows');
    e = groveError(() => parseArff('@relation r\n@attribute a foo\n'));
    expect(e.message).toContain("unknown type 'foo'");
  });
});

describe('datasetFromRows', () => {
  it('object rows: keys in first-row order, target by name', () => {
    const ds = datasetFromRows(
      [
        { x: 1.5, color: 'red', y: 'a' },
        { x: null, color: 'blue', y: 'b' },
        { x: NaN, y: 'a' },
        { x: 3, color: undefined, y: 'b' },
      ],
      { target: 'y' },
    );
    expect(ds.features.map((f) => f.name)).toEqual(['x', 'color']);
    const x = num(ds, 'x').values;
    expect([x[0], x[3]]).toEqual([1.5, 3]);
    expect(Number.isNaN(x[1]) && Number.isNaN(x[2])).toBe(true);
    expect(decode(cat(ds, 'color'))).toEqual(['red', 'blue', null, null]);
    expect(labelsOf(ds)).toEqual(['a', 'b', 'a', 'b']);
  });

  it('a key named like an Object.prototype member, absent from a later row, is a missing value', () => {
    const ds = datasetFromRows([{ toString: 1, y: 'a' }, { y: 'b' }]);
    const x = num(ds, 'toString').values;
    expect(x[0]).toBe(1);
    expect(Number.isNaN(x[1])).toBe(true);
  });

  it('array rows with separate numeric labels and exact number round-trip', () => {
    const v = [0.1 + 0.2, 1e-300, -123456.789, 5e21];
    const ds = datasetFromRows(
      v.map((a, i) => [a, i % 2 ? 'u' : 'v']),
      { labels: [2, 1, 2, 1] },
    );
    expect(ds.features.map((f) => f.name)).toEqual(['x0', 'x1']);
    expect(Array.from(num(ds, 'x0').values)).toEqual(v);
    expect(ds.targetName).toBe('class');
    expect(ds.classes).toEqual([1, 2]);
    expect(Array.from(ds.labels)).toEqual([1, 0, 1, 0]);
  });

  it('array rows with column names, last column is the target', () => {
    const ds = datasetFromRows(
      [
        [1, 'p'],
        [2, 'q'],
      ],
      { columns: ['size', 'kind'] },
    );
    expect(ds.targetName).toBe('kind');
    expect(ds.features.map((f) => f.name)).toEqual(['size']);
  });

  it('errors give 1-based row indexes', () => {
    let e = groveError(() => datasetFromRows([[1, 'a'], [2]]));
    expect(e.message).toBe('row 2: expected 2 fields, found 1');
    e = groveError(() =>
      datasetFromRows([
        { a: 1, c: 'x' },
        { a: 2, b: 3, c: 'y' },
      ]),
    );
    expect(e.row).toBe(2);
    expect(e.column).toBe('b');
    e = groveError(() =>
      datasetFromRows([
        [1, 'a'],
        [Infinity, 'b'],
      ]),
    );
    expect(e.row).toBe(2);
    e = groveError(() => datasetFromRows([[1], [2]], { labels: ['a'] }));
    expect(e.message).toContain('1 labels for 2 rows');
    e = groveError(() => datasetFromRows([]));
    expect(e.message).toContain('no data rows');
    e = groveError(() =>
      datasetFromRows([
        [1, 'a'],
        [2, null],
      ]),
    );
    expect(e.message).toContain('missing');
  });
});

describe('encodeTable', () => {
  it('uses firstDataRow for messages', () => {
    const e = groveError(() => encodeTable(['a', 'c'], [['1', 'x'], ['2']], { firstDataRow: 10, source: 'f' }));
    expect(e.message).toBe('f, row 11: expected 2 fields, found 1');
  });
});

// ---- The shared benchmark corpus ----------------------------------------------------------------

const dataDir = process.env.GROVE_DATA_DIR ?? resolve(here, '../../../shared/datasets');
const manifestPath = join(dataDir, 'MANIFEST.md');
const haveCorpus = existsSync(manifestPath);
if (!haveCorpus) console.warn(`skipping the dataset corpus tests: ${manifestPath} not found (set GROVE_DATA_DIR)`);

interface ManifestRow {
  file: string;
  rows: number;
  features: number;
  classes: number;
  missingCells: number;
  missingRows: number;
}

/** Summary-table rows of MANIFEST.md: `| name (`file.csv`) | rows | F (n/c) | classes | missing | ...`. */
function readManifest(): ManifestRow[] {
  const re =
    /^\|\s*\**[\w-]+\**\s*\(`([^`]+\.csv)`\)\s*\|\s*(\d+)\s*\|\s*(\d+) \(\d+\/\d+\)\s*\|\s*(\d+)\s*\|\s*(no|yes \((\d+) \/ (\d+)\))\s*\|/;
  const out: ManifestRow[] = [];
  for (const line of readFileSync(manifestPath, 'utf8').split('\n')) {
    const m = re.exec(line);
    if (!m) continue;
    out.push({
      file: m[1],
      rows: Number(m[2]),
      features: Number(m[3]),
      classes: Number(m[4]),
      missingCells: m[5] === 'no' ? 0 : Number(m[6]),
      missingRows: m[5] === 'no' ? 0 : Number(m[7]),
    });
  }
  return out;
}

describe.skipIf(!haveCorpus)('shared dataset corpus', () => {
  const manifest = haveCorpus ? readManifest() : [];

  it('the MANIFEST lists every CSV in the folder (28)', () => {
    expect(manifest.length).toBe(28);
    const files = readdirSync(dataDir)
      .filter((f) => f.endsWith('.csv'))
      .sort();
    expect(manifest.map((m) => m.file).sort()).toEqual(files);
  });

  it.each(manifest.map((m) => [m.file, m] as const))('%s matches the MANIFEST', async (file, m) => {
    const ds = await readDataset(join(dataDir, file));
    // Read speed is a benchmark's business (bench/read-csv.mjs), not a test's.
    if (file === 'adult.csv') {
      expect(ds.classes).toEqual(['<=50K', '>50K']);
      expect(ds.features.filter((f) => f.kind === 'numeric').length).toBe(6);
    }
    expect(ds.nRows).toBe(m.rows);
    expect(ds.features.length).toBe(m.features);
    expect(ds.classes.length).toBe(m.classes);
    expect(ds.targetName).toBe('class');
    // Missing cells and rows with a missing cell (the class is never missing: that would throw).
    let cells = 0;
    const rowHasMissing = new Uint8Array(ds.nRows);
    for (const f of ds.features) {
      for (let i = 0; i < ds.nRows; i++) {
        const missing = f.kind === 'numeric' ? Number.isNaN(f.values[i]) : f.codes[i] < 0;
        if (missing) {
          cells++;
          rowHasMissing[i] = 1;
        }
      }
    }
    expect(cells).toBe(m.missingCells);
    expect(rowHasMissing.reduce((a, b) => a + b, 0)).toBe(m.missingRows);
  });

  it('only adult, breast-cancer-wisconsin-original, house-votes-84, mushroom and soybean have missing values', () => {
    expect(
      manifest
        .filter((m) => m.missingCells > 0)
        .map((m) => m.file)
        .sort(),
    ).toEqual([
      'adult.csv',
      'breast-cancer-wisconsin-original.csv',
      'house-votes-84.csv',
      'mushroom.csv',
      'soybean.csv',
    ]);
  });
});
