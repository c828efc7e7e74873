/**
 * Every entry of DATA_FORMATS, under every extension it claims (and gzip-compressed where it
 * allows), read by every entry point: `readDataset`, `readSource`, `grove fit` in memory and, where
 * the format names DuckDB's table function, `grove fit --engine duckdb`; each gives what the CSV
 * file of the same data gives. A format added to the table without a writer here fails the first test
 * (docs/architecture.md, "Add a data file format").
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/core/random.js';
import type { Dataset } from '../../src/data/dataset.js';
import { readDataset } from '../../src/sources/file-source.js';
import { DATA_FORMATS } from '../../src/sources/formats.js';
import { readSource } from '../../src/sources/index.js';
import { assertBuilt, grove } from '../helpers/cli.js';
import { convertCsv } from './convert.js';

let dir: string;
let csv: string;
/** A file of the data in each format, by format name. */
const written = new Map<string, string>();

/** 40 rows: a numeric feature with missing values, a categorical one, a class that follows x. */
function csvText(): string {
  const rand = mulberry32(7);
  const lines = ['x,colour,label'];
  for (let i = 0; i < 40; i++) {
    const x = Math.round(rand() * 1000) / 10;
    const colour = ['red', 'green', 'blue'][Math.floor(rand() * 3)];
    lines.push(`${i % 9 === 4 ? '' : x},${colour},${x > 50 === rand() < 0.85 ? 'high' : 'low'}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The same rows as ARFF, nominal values declared in the order they first appear. */
function arffText(text: string): string {
  const rows = text
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split(','));
  const values = (j: number) => [...new Set(rows.map((r) => r[j]))].join(',');
  const data = rows.map((r) => r.map((v) => (v === '' ? '?' : v)).join(','));
  return [
    '@relation formats',
    '@attribute x numeric',
    `@attribute colour {${values(1)}}`,
    `@attribute label {${values(2)}}`,
    '@data',
    ...data,
    '',
  ].join('\n');
}

/** A Dataset with its source dropped (it names the file). */
const content = (d: Dataset) => ({ ...d, source: undefined });

beforeAll(async () => {
  assertBuilt();
  dir = mkdtempSync(join(tmpdir(), 'grove-formats-'));
  csv = join(dir, 'base.csv');
  const text = csvText();
  writeFileSync(csv, text);
  const converted = await convertCsv(csv, dir, 'converted');
  written.set('CSV', csv);
  written.set('TSV', converted.tsv);
  written.set('JSON Lines', converted.jsonl);
  written.set('Parquet', converted.parquet);
  written.set('Arrow IPC', converted.arrow);
  writeFileSync(join(dir, 'converted.arff'), arffText(text));
  written.set('ARFF', join(dir, 'converted.arff'));
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every (format, file name) pair the table claims: each extension, and `.gz` where allowed. */
const cases = DATA_FORMATS.flatMap((format) =>
  format.extensions.flatMap((ext) => [
    { format: format.name, ext, gzip: false },
    ...(format.gzip ? [{ format: format.name, ext, gzip: true }] : []),
  ]),
);

/** The data as `format` under extension `ext` (gzip-compressed when asked). */
function fileFor(c: (typeof cases)[number]): string {
  const path = join(dir, `as-${c.format.replace(/\W/g, '')}${c.ext}${c.gzip ? '.gz' : ''}`);
  const source = written.get(c.format)!;
  if (c.gzip) writeFileSync(path, gzipSync(readFileSync(source)));
  else copyFileSync(source, path);
  return path;
}

describe('DATA_FORMATS: every format through every entry point', () => {
  it('has a writer here for every format in the table', () => {
    expect(DATA_FORMATS.map((f) => f.name).filter((name) => !written.has(name))).toEqual([]);
  });

  it('lists every extension in the CLI help', () => {
    const help = grove(['fit', '--help']).stdout + grove(['--help']).stdout;
    for (const format of DATA_FORMATS) for (const ext of format.extensions) expect(help).toContain(ext);
  });

  it.each(cases)('$format as *$ext (gzip: $gzip): readDataset and readSource give the CSV data', async (c) => {
    const path = fileFor(c);
    const expected = content(await readDataset(csv));
    expect(content(await readDataset(path))).toEqual(expected);
    expect(content(await readSource(path))).toEqual(expected);
  });

  it.each(cases)('$format as *$ext (gzip: $gzip): grove fit grows the CSV model', (c) => {
    const path = fileFor(c);
    const fitted = (file: string, extra: string[] = []) => {
      const out = join(dir, `m-${Math.random().toString(36).slice(2)}.json`);
      const r = grove(['fit', file, '--prune', 'none', '--out', out, ...extra]);
      expect(r.status, r.stderr).toBe(0);
      return (JSON.parse(readFileSync(out, 'utf8')) as { nodes: unknown }).nodes;
    };
    expect(fitted(path)).toEqual(fitted(csv));
    const format = DATA_FORMATS.find((f) => f.name === c.format)!;
    if (format.duckdb && !c.gzip) {
      const engine = ['--engine', 'duckdb', '--bins', '16'];
      expect(fitted(path, engine)).toEqual(fitted(csv, engine));
    }
  });
});
