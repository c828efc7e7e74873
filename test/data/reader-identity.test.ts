/**
 * The streaming CSV reader gives the same Dataset as grove's previous reader (csv-parse + encodeTable,
 * kept in test/helpers/reference-csv.ts) on every corpus data set and every CSV fixture: same
 * columns, kinds, values bit for bit (-0 and NaN included), dictionaries in the same order, same
 * classes and labels. Also whatever the chunk boundaries are.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/core/random.js';
import type { Dataset } from '../../src/data/dataset.js';
import { createDelimitedReader, parseCsvText } from '../../src/data/delimited.js';
import { readDataset } from '../../src/sources/file-source.js';
import { repoRoot } from '../helpers/cli.js';
import { corpus, dataDir, fixture, fixtures, haveCorpus } from '../helpers/paths.js';
import { referenceParseCsv } from '../helpers/reference-csv.js';

/** A comparable description of a Dataset: numbers as their bytes so -0/NaN payloads count. */
function snapshot(d: Dataset): unknown {
  return {
    nRows: d.nRows,
    targetName: d.targetName,
    classes: d.classes,
    classTypes: d.classes.map((c) => typeof c),
    labels: Buffer.from(d.labels.buffer, d.labels.byteOffset, d.labels.byteLength).toString('base64'),
    features: d.features.map((f) =>
      f.kind === 'numeric'
        ? {
            kind: f.kind,
            name: f.name,
            type: f.values.constructor.name,
            bytes: Buffer.from(f.values.buffer, f.values.byteOffset, f.values.byteLength).toString('base64'),
          }
        : {
            kind: f.kind,
            name: f.name,
            categories: f.categories,
            codes: Buffer.from(f.codes.buffer, f.codes.byteOffset, f.codes.byteLength).toString('base64'),
          },
    ),
  };
}

const corpusFiles = haveCorpus
  ? readdirSync(dataDir)
      .filter((f) => f.endsWith('.csv'))
      .map((f) => join(dataDir, f))
  : [];
const fixtureFiles = readdirSync(fixtures)
  .filter((f) => f.endsWith('.csv') && !f.startsWith('bad-'))
  .map((f) => fixture(f));
const repoData = readdirSync(join(repoRoot, 'data'))
  .filter((f) => f.endsWith('.csv'))
  .map((f) => join(repoRoot, 'data', f));

describe('streaming reader = previous reader', () => {
  it('has the 28 corpus data sets (or skips them)', () => {
    if (haveCorpus) expect(corpusFiles.length).toBe(28);
  });

  for (const file of [...corpusFiles, ...fixtureFiles, ...repoData]) {
    it(file.slice(file.lastIndexOf('/') + 1), async () => {
      const text = readFileSync(file, 'utf8');
      expect(snapshot(await readDataset(file))).toEqual(snapshot(referenceParseCsv(text, { source: file })));
      expect(snapshot(await readDataset(file, { float32: true }))).toEqual(
        snapshot(referenceParseCsv(text, { source: file, float32: true })),
      );
    });
  }

  it('soybean with every column forced categorical (numeric dictionaries sorted by value)', async () => {
    if (!haveCorpus) return;
    const file = corpus('soybean');
    const names = readFileSync(file, 'utf8').split('\n')[0].split(',').slice(0, -1);
    const text = readFileSync(file, 'utf8');
    expect(snapshot(await readDataset(file, { categorical: names }))).toEqual(
      snapshot(referenceParseCsv(text, { source: file, categorical: names })),
    );
  });
});

/** Texts that exercise the tokenizer's corners. */
const CORNER_TEXTS = [
  'name,note,class\n"Smith, J.","said ""hi""",a\n"multi\nline",plain,b\n',
  '\uFEFFx,y,class\r\n1,a,p\r\n2,b,q\r\n',
  'x,class\r1,a\r\r2,b\r',
  'x,c,class\n1,a,p\n,?,q\n?, ,p\n4,b,q\n',
  'x,c,class\n 1, a, p\n2 ,a ,q\n',
  'n,code,s,empty,class\n1.5,3,u,,x\n2,1,v,?,y\n-1e2,2,u,,x\n',
  'a,class\n0x10,x\n3,y\n',
  // Numbers whose text is not the number's canonical form, then a word: the column turns categorical.
  'a,class\n1.50,x\n007,y\n1e3,x\n-0,y\n0.0000001,x\n12345678901234567890,y\n.5,x\n5.,y\n+2,x\nword,y\n1.50,x\n',
  'a,b,class\n1,2,x\n\n  \n3,4,y\n""\n5,6,x\n',
  'a,class\n1,"x"\n"2",y\n" 3 ",z\n',
  'a,class\n-0,1\n1e-320,2\n4.9e-324,1.0\n1.7976931348623157e308,2\n',
  'x,y,class\n1,2,a\n3,,b',
  'x,y,class\n1,2,a\n3,"4",b',
  'café,x,class\nnaïve,1,é\n',
  // A long quoted field over many chunks, with doubled quotes and line breaks of each kind.
  `a,class\n"${'x""y\r\nz\r'.repeat(300)}",p\n1,q\n`,
];

describe('chunk boundaries do not matter', () => {
  for (const text of CORNER_TEXTS) {
    it(JSON.stringify(text.slice(0, 40)), () => {
      const whole = parseCsvText(text);
      expect(snapshot(whole)).toEqual(snapshot(referenceParseCsv(text)));
      const bytes = new TextEncoder().encode(text);
      for (const size of [1, 2, 3, 5, 7]) {
        const reader = createDelimitedReader();
        for (let p = 0; p < bytes.length; p += size) reader.push(bytes.slice(p, p + size));
        expect(snapshot(reader.finish())).toEqual(snapshot(whole));
      }
    });
  }
});

describe('line numbers after fields cut by chunk ends', () => {
  it('are the same for any chunk size', () => {
    const text = `a,class\n"${'x\r\ny\rz\n'.repeat(200)}",p\n1,q\n2\n`;
    const lineOf = (size: number): number | undefined => {
      const bytes = new TextEncoder().encode(text);
      const reader = createDelimitedReader();
      try {
        for (let p = 0; p < bytes.length; p += size) reader.push(bytes.slice(p, p + size));
        reader.finish();
      } catch (e) {
        return (e as { row?: number }).row;
      }
      return undefined;
    };
    expect(lineOf(text.length)).toBe(604);
    for (const size of [1, 3, 64, 1000]) expect(lineOf(size)).toBe(604);
  });
});

describe('numbers re-decoded when a column turns categorical', () => {
  /** Seeded number texts in many spellings: fixed, precision, exponent, signs, zeros, tiny and huge. */
  function numberTexts(seed: number, count: number): string[] {
    const random = mulberry32(seed);
    const out: string[] = [];
    for (let i = 0; i < count; i++) {
      const x = (random() - 0.5) * 10 ** Math.floor(random() * 16 - 8);
      const k = 1 + Math.floor(random() * 17);
      const form = Math.floor(random() * 7);
      out.push(
        form === 0
          ? x.toFixed(Math.min(k, 12))
          : form === 1
            ? x.toPrecision(k)
            : form === 2
              ? x.toExponential(k - 1)
              : form === 3
                ? String(x)
                : form === 4
                  ? String(Math.round(x * 1000))
                  : form === 5
                    ? `0${Math.abs(Math.round(x))}`
                    : String(Math.fround(x)),
      );
    }
    return out;
  }

  for (const float32 of [false, true]) {
    it(`give back the exact source texts${float32 ? ' (float32)' : ''}`, () => {
      const texts = numberTexts(float32 ? 7 : 3, 3000);
      const text = `a,class\n${texts.map((t, i) => `${t},c${i % 3}`).join('\n')}\nword,c0\n`;
      const d = parseCsvText(text, { float32 });
      expect(d.features[0].kind).toBe('categorical');
      expect(snapshot(d)).toEqual(snapshot(referenceParseCsv(text, { float32 })));
      // Without the word: numeric, the same values bit for bit as Number(text).
      const numeric = text.replace('word,c0\n', '');
      expect(parseCsvText(numeric, { float32 }).features[0].kind).toBe('numeric');
      expect(snapshot(parseCsvText(numeric, { float32 }))).toEqual(snapshot(referenceParseCsv(numeric, { float32 })));
    });
  }
});

describe('numbers printed in full (16 to 19 significant digits)', () => {
  it('parse to Number(text) bit for bit and come back as their texts when the column turns categorical', () => {
    const random = mulberry32(99);
    const texts: string[] = ['0.10000000000000001', '0.30000000000000004', '9.9999999999999999', '1234567890123456789'];
    for (let i = 0; i < 4000; i++) {
      const x = (random() - 0.5) * 10 ** Math.floor(random() * 14 - 5);
      const form = i % 4;
      texts.push(
        form === 0
          ? String(x)
          : form === 1
            ? x.toPrecision(16 + Math.floor(random() * 4))
            : form === 2
              ? x.toFixed(Math.min(19, 16 + Math.floor(random() * 4)))
              : `${x.toPrecision(17).replace(/e.*$/, '')}5`,
      );
    }
    const numeric = `a,class\n${texts.map((t, i) => `${t},c${i % 2}`).join('\n')}\n`;
    const d = parseCsvText(numeric);
    expect(d.features[0].kind).toBe('numeric');
    const values = (d.features[0] as { values: Float64Array }).values;
    for (let i = 0; i < texts.length; i++) expect(Object.is(values[i], Number(texts[i]))).toBe(true);
    const text = `${numeric}word,c0\n`;
    expect(snapshot(parseCsvText(text))).toEqual(snapshot(referenceParseCsv(text)));
  });
});

describe('numbers printed in full in columns read as numeric (no text kept)', () => {
  it('parse to Number(text) bit for bit: random doubles in full, in every length from 16 to 19 digits', () => {
    const random = mulberry32(2026);
    const texts: string[] = [
      '0.10000000000000001',
      '-9.9999999999999999',
      '1234567890123456789',
      '0.0000000000000000001',
    ];
    for (let i = 0; i < 6000; i++) {
      // Random bits as a double (finite), and random decimals near rounding boundaries.
      const bits = new Float64Array(1);
      const words = new Uint32Array(bits.buffer);
      words[0] = Math.floor(random() * 2 ** 32);
      words[1] = (Math.floor(random() * 2 ** 20) | ((0x3c0 + Math.floor(random() * 0x80)) << 20)) >>> 0;
      const x = (random() < 0.5 ? -1 : 1) * bits[0];
      const form = i % 4;
      texts.push(
        form === 0
          ? String(x)
          : form === 1
            ? x.toPrecision(16 + Math.floor(random() * 4))
            : form === 2
              ? x.toFixed(Math.min(20, 16 + Math.floor(random() * 5)))
              : `${x.toPrecision(17).replace(/e.*$/, '')}5`,
      );
    }
    const text = `a,b\n${texts.map((t, i) => `${t},${texts[(i + 1) % texts.length]}`).join('\n')}\n`;
    const d = parseCsvText(text, { noTarget: true, numeric: ['a', 'b'] });
    for (const f of d.features) expect(f.kind).toBe('numeric');
    const [a, b] = d.features.map((f) => (f as { values: Float64Array }).values);
    for (let i = 0; i < texts.length; i++) {
      expect(Object.is(a[i], Number(texts[i]))).toBe(true);
      expect(Object.is(b[i], Number(texts[(i + 1) % texts.length]))).toBe(true);
    }
    // The same values as a column read without the option (which keeps texts that are not canonical).
    const inferred = parseCsvText(text, { noTarget: true });
    expect(snapshot(inferred).features).toEqual(snapshot(d).features);
  });
});
