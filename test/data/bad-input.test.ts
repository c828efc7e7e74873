/**
 * What bad input gets from the text readers (issue 16): encodings, missing tokens, odd cells in
 * numeric columns, `numeric` forcing, float32 overflow, class-label round trips, ARFF's quoted
 * `'?'` and numeric class attributes; and the CLI's one-line messages and warnings.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GroveError } from '../../src/core/errors.js';
import { parseArff } from '../../src/data/arff.js';
import type { CategoricalColumn, Dataset, NumericColumn } from '../../src/data/dataset.js';
import { createDelimitedReader, type DelimitedReadOptions, parseCsvText } from '../../src/data/delimited.js';
import { datasetFromRows } from '../../src/data/encode.js';
import { TypedTableBuilder } from '../../src/data/typed-columns.js';
import { readDataset } from '../../src/sources/file-source.js';
import { assertBuilt, grove } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'grove-bad-input-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, bytes: Uint8Array | string): string {
  const p = join(dir, name);
  writeFileSync(p, bytes);
  return p;
}

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

function read(bytes: Uint8Array, options: DelimitedReadOptions = {}): Dataset {
  const r = createDelimitedReader(options);
  r.push(bytes);
  return r.finish();
}

const feature = (d: Dataset, name: string) => d.features.find((f) => f.name === name)!;
const cats = (d: Dataset, name: string) => (feature(d, name) as CategoricalColumn).categories;
const nums = (d: Dataset, name: string) => Array.from((feature(d, name) as NumericColumn).values);

/** Latin-1 bytes of a string whose characters are all below U+0100. */
const latin1 = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

describe('encodings', () => {
  const text = 'word,n,class\ncafé,1,a\ncafè,2,b\nthé,3,a\n';

  it('invalid UTF-8 is an error naming the line and column and suggesting --encoding latin1', () => {
    const e = groveError(() => read(latin1(text), { source: 'l.csv' }));
    expect(e.code).toBe('E_DATA');
    expect(e.row).toBe(2);
    expect(e.column).toBe('word');
    expect(e.message).toContain('invalid UTF-8');
    expect(e.message).toContain('--encoding latin1');
    expect(e.message).not.toContain('\n');
  });

  it('latin1 and windows-1252 keep café and cafè apart', () => {
    for (const encoding of ['latin1', 'windows-1252'] as const) {
      const d = read(latin1(text), { encoding });
      expect(cats(d, 'word')).toEqual(['café', 'cafè', 'thé']);
    }
    // 0x80 is the euro sign in windows-1252 and a C1 control in ISO-8859-1.
    const euro = read(Uint8Array.from([...latin1('p,class\n'), 0x80, ...latin1(',a\nx,b\n')]), {
      encoding: 'windows-1252',
    });
    expect(cats(euro, 'p')).toEqual(['€', 'x']);
  });

  it('UTF-16 with a BOM (either byte order) reads like UTF-8', () => {
    const utf8 = parseCsvText(text);
    const le = new Uint8Array(2 + text.length * 2);
    const be = new Uint8Array(2 + text.length * 2);
    le.set([0xff, 0xfe]);
    be.set([0xfe, 0xff]);
    for (let k = 0; k < text.length; k++) {
      const c = text.charCodeAt(k);
      le[2 + 2 * k] = c & 0xff;
      le[3 + 2 * k] = c >> 8;
      be[2 + 2 * k] = c >> 8;
      be[3 + 2 * k] = c & 0xff;
    }
    for (const bytes of [le, be]) {
      expect(read(bytes)).toEqual(utf8);
      // In odd-sized chunks too (a character split between chunks).
      const r = createDelimitedReader({ encoding: 'utf16' });
      for (let p = 0; p < bytes.length; p += 3) r.push(bytes.slice(p, p + 3));
      expect(r.finish()).toEqual(utf8);
    }
  });

  it('UTF-16 without a BOM is refused with a hint about --encoding (CSV and ARFF), and reads with it (little-endian)', async () => {
    const csv = 'x,class\n1,a\n2,b\n3,a\n4,b\n';
    const utf16 = (s: string, big: boolean) => {
      const out = new Uint8Array(s.length * 2);
      for (let k = 0; k < s.length; k++) out[2 * k + (big ? 1 : 0)] = s.charCodeAt(k);
      return out;
    };
    const le = file('le.csv', utf16(csv, false));
    const be = file('be.csv', utf16(csv, true));
    expect((await groveRejection(readDataset(le))).message).toMatch(
      /le\.csv.*looks like UTF-16 \(little-endian\) without a byte order mark; read it with --encoding utf16/,
    );
    expect((await groveRejection(readDataset(be))).message).toMatch(/looks like UTF-16 \(big-endian\).*iconv/);
    const [fromUtf16, plain] = [
      await readDataset(le, { encoding: 'utf16' }),
      await readDataset(file('p.csv', latin1(csv))),
    ];
    expect([fromUtf16.features, fromUtf16.labels, fromUtf16.classes]).toEqual([
      plain.features,
      plain.labels,
      plain.classes,
    ]);
    const arff = file('le.arff', utf16('@relation r\n@attribute x numeric\n@attribute c {a,b}\n@data\n1,a\n', false));
    expect((await groveRejection(readDataset(arff))).message).toMatch(/le\.arff: .*looks like UTF-16/);
  });

  it('readCsv and readArff take the encoding; a multi-byte character split across chunks is fine', async () => {
    const p = file('latin.csv', latin1(text));
    expect(cats(await readDataset(p, { encoding: 'latin1' }), 'word')).toEqual(['café', 'cafè', 'thé']);
    expect((await groveRejection(readDataset(p))).message).toMatch(/latin\.csv, row 2, column 'word': invalid UTF-8/);
    const arff = file(
      'latin.arff',
      latin1('@relation r\n@attribute w {café,cafè}\n@attribute c {a,b}\n@data\ncafé,a\n'),
    );
    expect((await groveRejection(readDataset(arff))).message).toMatch(/latin\.arff, row 2: invalid UTF-8/);
    expect(cats(await readDataset(arff, { encoding: 'latin1' }), 'w')).toEqual(['café', 'cafè']);
    const bytes = new TextEncoder().encode(text);
    const r = createDelimitedReader();
    for (let p = 0; p < bytes.length; p++) r.push(bytes.slice(p, p + 1));
    expect(r.finish()).toEqual(parseCsvText(text));
  });
});

describe('missing tokens', () => {
  it('NA, N/A, NaN, null, empty and ? are missing by default: the column stays numeric', () => {
    const d = parseCsvText('x,s,class\n1,u,a\nNA,NA,b\nN/A,N/A,a\nNaN,null,b\nnull,?,a\n,,b\n?, v ,a\n');
    const x = nums(d, 'x');
    expect(x[0]).toBe(1);
    expect(x.slice(1).every(Number.isNaN)).toBe(true);
    expect(cats(d, 's')).toEqual(['u', 'v']);
    expect(Array.from((feature(d, 's') as CategoricalColumn).codes)).toEqual([0, -1, -1, -1, -1, -1, 1]);
  });

  it('naTokens replaces the set (a number-looking token like -999 too)', () => {
    const d = parseCsvText('x,class\n1,a\n-999,b\nNA,a\n', {
      naTokens: ['', '-999'],
      onWarning: () => {},
    });
    // NA is no longer missing: the column is categorical; -999 is.
    expect(cats(d, 'x')).toEqual(['1', 'NA']);
    expect(Array.from((feature(d, 'x') as CategoricalColumn).codes)).toEqual([0, -1, 1]);
    const n = parseCsvText('x,class\n1,a\n-999,b\n2,a\n', { naTokens: ['-999'] });
    expect(nums(n, 'x').map((v) => (Number.isNaN(v) ? 'NaN' : v))).toEqual([1, 'NaN', 2]);
  });

  it('a class label that is a missing token is an error naming row and column', () => {
    const e = groveError(() => parseCsvText('x,class\n1,a\n2,NA\n', { source: 'f.csv' }));
    expect(e.message).toBe(
      "f.csv, row 3, column 'class': the target (class) value is missing; every row needs a class label",
    );
  });
});

describe('odd cells in a numeric column', () => {
  const rows = Array.from({ length: 30 }, (_, i) => `${i},${i % 2 ? 'a' : 'b'}`);
  const text = `x,class\n${rows.slice(0, 12).join('\n')}\nn/a,a\n${rows.slice(12).join('\n')}\n1e309,b\n"1,5",a\n`;

  it('a mostly numeric column turned categorical warns naming the column and the first odd row', () => {
    const warnings: string[] = [];
    const d = parseCsvText(text, { source: 'f.csv', onWarning: (m) => warnings.push(m) });
    expect(feature(d, 'x').kind).toBe('categorical');
    expect(cats(d, 'x').slice(0, 3)).toEqual(['0', '1', '2']);
    expect(cats(d, 'x')).toContain('1e309');
    expect(cats(d, 'x')).toContain('1,5');
    expect(warnings).toEqual([
      "f.csv: column 'x' is read as categorical: 3 of 33 cells are not numbers (first 'n/a' on row 14); to read them as missing, make it numeric (--numeric x)",
    ]);
  });

  it('numeric forces it: odd cells become missing, counted in the warning', () => {
    const warnings: string[] = [];
    const d = parseCsvText(text, { source: 'f.csv', numeric: ['x'], onWarning: (m) => warnings.push(m) });
    const x = nums(d, 'x');
    expect(x.filter(Number.isNaN).length).toBe(3);
    expect(x[0]).toBe(0);
    expect(x[29 + 1]).toBe(29);
    expect(warnings).toEqual([
      "f.csv: column 'x': 3 cells that are not numbers read as missing (first 'n/a' on row 14)",
    ]);
  });

  it('a mostly categorical column does not warn; 0x10 is not the number 16', () => {
    const warnings: string[] = [];
    const d = parseCsvText('x,class\n0x10,a\n3,b\nfoo,a\n', { onWarning: (m) => warnings.push(m) });
    expect(cats(d, 'x')).toEqual(['0x10', '3', 'foo']);
    expect(warnings).toEqual([]);
  });

  it('texts re-decoded on conversion are exactly the source texts', () => {
    const d = parseCsvText('x,class\n1.50,a\n007,b\n1e3,a\n-0,b\n0.0000001,a\n12345678901234567890,b\n1.5,a\nz,b\n', {
      float32: true,
    });
    expect(cats(d, 'x')).toEqual(['1.50', '007', '1e3', '-0', '0.0000001', '12345678901234567890', '1.5', 'z']);
  });
});

describe('float32', () => {
  it('a value beyond float32 is an error naming row and column, not a type change', () => {
    for (const big of ['1e39', '-3.5e38', '400000000000000000000000000000000000000']) {
      const e = groveError(() => parseCsvText(`x,class\n1,a\n${big},b\n`, { source: 'f.csv', float32: true }));
      expect(e.row).toBe(3);
      expect(e.column).toBe('x');
      expect(e.message).toContain('too large for float32');
    }
    expect(nums(parseCsvText('x,class\n1,a\n1e39,b\n'), 'x')).toEqual([1, 1e39]);
  });

  it('every entry point follows the reader: datasetFromRows (numbers, texts, objects) and typed columns refuse', () => {
    const labels = ['a', 'b', 'a', 'b'];
    for (const rows of [
      [[1], [2], [1e40], [3]],
      [['1'], ['2'], ['1e40'], ['3']],
    ]) {
      const e = groveError(() => datasetFromRows(rows, { labels, float32: true }));
      expect(e.code).toBe('E_DATA');
      expect(e.row).toBe(3);
      expect(e.column).toBe('x0');
      expect(e.message).toContain('too large for float32');
    }
    const objects = [{ v: 1 }, { v: -1e39 }, { v: 2 }, { v: 3 }];
    const o = groveError(() => datasetFromRows(objects, { labels, float32: true }));
    expect([o.row, o.column]).toEqual([2, 'v']);
    // Without float32 the same rows are numbers, as the CSV reader reads them.
    const d = datasetFromRows([[1], [2], [1e40], [3]], { labels });
    expect(d.features[0].kind).toBe('numeric');
    // A typed source's text column (Parquet strings, database text) follows the same rule.
    const builder = new TypedTableBuilder(
      [
        { name: 'x', kind: 'text', type: 'text' },
        { name: 'class', kind: 'text', type: 'text' },
      ],
      3,
      {
        float32: true,
        source: 't.parquet',
      },
    );
    ['1', '5e38', '2'].forEach((v, i) => builder.sink(0)!.set(i, v));
    ['a', 'b', 'a'].forEach((v, i) => builder.sink(1)!.set(i, v));
    const t = groveError(() => builder.finish());
    expect(t.column).toBe('x');
    expect(t.message).toContain("'5e38' is too large for float32");
  });
});

describe('class labels round-trip', () => {
  it('numeric only if every label is a number (pandas rule); otherwise strings as written', () => {
    expect(parseCsvText('x,class\n1,10\n2,2\n3,1\n').classes).toEqual([1, 2, 10]);
    expect(parseCsvText('x,class\n1,10\n2,2\n3,x\n').classes).toEqual(['10', '2', 'x']);
  });

  it('integer labels beyond 2^53 keep their exact text', () => {
    const d = parseCsvText('x,class\n1,9007199254740993\n2,9007199254740995\n3,9007199254740993\n');
    expect(d.classes).toEqual(['9007199254740993', '9007199254740995']);
    expect(Array.from(d.labels)).toEqual([0, 1, 0]);
    expect(parseCsvText('x,class\n1,9007199254740991\n2,1\n').classes).toEqual([1, 9007199254740991]);
  });
});

describe('ARFF', () => {
  it("a quoted '?' is the category ?, an unquoted ? is missing", () => {
    const d = parseArff("@relation r\n@attribute q {'?',yes}\n@attribute c {a,b}\n@data\n'?',a\n?,b\nyes,a\n");
    const q = feature(d, 'q') as CategoricalColumn;
    expect(q.categories).toEqual(['?', 'yes']);
    expect(Array.from(q.codes)).toEqual([0, -1, 1]);
  });

  it('a numeric class attribute is refused with a message saying what to do', () => {
    const text = '@relation r\n@attribute a {x,y}\n@attribute price numeric\n@data\nx,1.5\ny,2\n';
    const e = groveError(() => parseArff(text, { source: 'p.arff' }));
    expect(e.code).toBe('E_DATA');
    expect(e.row).toBe(3);
    expect(e.column).toBe('price');
    expect(e.message).toContain("the class attribute 'price' is numeric");
    expect(e.message).toContain('Discretize');
    expect(e.message).toContain('(a)');
    // Listing it as categorical makes each value a class; naming another target works.
    expect(parseArff(text, { categorical: ['price'] }).classes).toEqual([1.5, 2]);
    expect(parseArff(text, { target: 'a' }).classes).toEqual(['x', 'y']);
  });
});

describe('other delimiters and no header', () => {
  it('TSV and header: false', async () => {
    const d = read(new TextEncoder().encode('1\tu\ta\n2\tv\tb\n'), { delimiter: '\t', header: false });
    expect(d.features.map((f) => f.name)).toEqual(['x0', 'x1']);
    expect(nums(d, 'x0')).toEqual([1, 2]);
    expect(d.classes).toEqual(['a', 'b']);
    // Without a delimiter a tab-separated header is sniffed; with a comma named, one column is refused.
    expect(parseCsvText('a\tb\n1\t2\n', { source: 'f.tsv' }).features.map((f) => f.name)).toEqual(['a']);
    const e = groveError(() => parseCsvText('a\tb\n1\t2\n', { source: 'f.tsv', delimiter: ',' }));
    expect(e.message).toContain("split on ','; is that the file's delimiter?");
    const tsv = file('t.tsv', 'x\ts\tclass\n1\t"a,b"\tp\n2\tc\tq\n');
    const t = await readDataset(tsv);
    expect(nums(t, 'x')).toEqual([1, 2]);
    expect(cats(t, 's')).toEqual(['a,b', 'c']);
  });
});

describe('CLI', () => {
  it('invalid UTF-8: exit 2, one line naming file, row and column; --encoding latin1 reads it', () => {
    assertBuilt();
    const p = file('cli-latin.csv', latin1('word,n,class\ncafé,1,a\ncafè,2,b\nthé,3,a\ncafé,4,b\n'));
    const out = join(dir, 'm.json');
    let r = grove(['fit', p, '--out', out]);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      `grove: ${p}, row 2, column 'word': invalid UTF-8 (is the file in another encoding? try --encoding latin1 or windows-1252)\n`,
    );
    r = grove(['fit', p, '--encoding', 'latin1', '--out', out]);
    expect(r.status).toBe(0);
    r = grove(['fit', p, '--encoding', 'ebcdic', '--out', out]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--encoding');
  });

  it('odd cells: a warning on stderr; --numeric and --na change how they read', () => {
    // x repeats its values: a column of one value per row would be warned about as an identifier.
    const rows = Array.from({ length: 20 }, (_, i) => `${i % 7},${i % 2 ? 'a' : 'b'}`);
    const p = file('cli-odd.csv', `x,class\n${rows.join('\n')}\nn/a,a\n`);
    const out = join(dir, 'm2.json');
    let r = grove(['fit', p, '--out', out]);
    expect(r.status).toBe(0);
    expect(r.stderr).toContain(
      `grove: warning: ${p}: column 'x' is read as categorical: 1 of 21 cells is not a number (first 'n/a' on row 22)`,
    );
    r = grove(['fit', p, '--numeric', 'x', '--out', out]);
    expect(r.stderr).toContain(`grove: warning: ${p}: column 'x': 1 cell that is not a number read as missing`);
    r = grove(['fit', p, '--na', 'n/a', '--out', out]);
    expect(r.status).toBe(0);
    expect(r.stderr).not.toContain('warning');
  });
});
