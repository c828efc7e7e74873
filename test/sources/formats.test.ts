/**
 * The same data from CSV, Parquet, Arrow IPC, JSON Lines, TSV and gzip CSV give identical Datasets
 * (same columns, kinds, values, category dictionaries, class order) and identical models.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dataset } from '../../src/data/dataset.js';
import { readDataset } from '../../src/sources/file-source.js';
import { datasetHash, readSource } from '../../src/sources/index.js';
import { assertBuilt, grove } from '../helpers/cli.js';
import { corpus, fixture, haveCorpus } from '../helpers/paths.js';
import { convertCsv, FORMATS } from './convert.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'grove-formats-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The Dataset without where it came from. */
const content = (d: Dataset) => ({ ...d, source: undefined });

/** A small set with missing values in numeric, categorical and boolean columns, and numeric class labels. */
const MISSING_CSV = `age,colour,smoker,income,grade
23,red,true,1200.5,1
?,blue,false,,2
41,,true,830,1
35,red,,?,3
29,green,false,990.25,2
52,blue,true,1500,3
`;

async function checkSameEverywhere(csv: string, name: string, booleans: string[] = []): Promise<Dataset> {
  const expected = await readDataset(csv);
  const files = await convertCsv(csv, dir, name, booleans);
  for (const format of FORMATS) {
    const got = await readSource(files[format], { onWarning: (m) => expect.fail(m) });
    expect(content(got), `${name}.${format}`).toEqual(content(expected));
    expect(datasetHash(got), `${name}.${format}`).toBe(datasetHash(expected));
  }
  return expected;
}

describe('every format gives the CSV reader’s Dataset', () => {
  it('fixtures: categorical (play-tennis), mixed (taxable-income), a set with missing values and numeric labels', async () => {
    await checkSameEverywhere(fixture('play-tennis.csv'), 'play-tennis');
    await checkSameEverywhere(fixture('taxable-income.csv'), 'taxable-income');
    const missing = join(dir, 'missing.csv');
    writeFileSync(missing, MISSING_CSV);
    const d = await checkSameEverywhere(missing, 'missing', ['smoker']);
    expect(d.classes).toEqual([1, 2, 3]);
    expect(d.features.map((f) => f.kind)).toEqual(['numeric', 'categorical', 'categorical', 'numeric']);
  });

  it.skipIf(!haveCorpus)(
    'corpus: iris, mushroom, soybean, breast-cancer-wisconsin-original, house-votes-84, credit-g',
    async () => {
      for (const name of [
        'iris',
        'mushroom',
        'soybean',
        'breast-cancer-wisconsin-original',
        'house-votes-84',
        'credit-g',
      ])
        await checkSameEverywhere(corpus(name), name);
    },
    120_000,
  );
});

describe('grove fit gives the same model from every format', () => {
  beforeAll(assertBuilt);
  it('the missing-values set and iris (when the corpus is present)', async () => {
    const sets: Array<[string, string]> = [[join(dir, 'missing.csv'), 'fit-missing']];
    writeFileSync(join(dir, 'missing.csv'), MISSING_CSV);
    if (haveCorpus) sets.push([corpus('iris'), 'fit-iris']);
    for (const [csv, name] of sets) {
      const files = await convertCsv(csv, dir, name, name === 'fit-missing' ? ['smoker'] : []);
      const fitOf = (path: string) => {
        const out = join(dir, `${name}-${Math.random().toString(36).slice(2)}.json`);
        const r = grove(['fit', path, '--out', out, '--min-leaf', '1']);
        expect(r.status, r.stderr).toBe(0);
        return readFileSync(out, 'utf8');
      };
      const expected = fitOf(csv);
      for (const format of FORMATS) expect(fitOf(files[format]), `${name}.${format}`).toBe(expected);
    }
  }, 120_000);
});
