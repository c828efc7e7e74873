/**
 * The C4.5 preset inside DuckDB: J48's thresholds at training values, its collapse, and error-based
 * pruning give the model of the same options in memory (histogram mode, the same bins).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBEngine } from '../../src/engines/duckdb.js';
import { fitInEngine } from '../../src/engines/fit.js';
import type { FitOptions } from '../../src/options/options.js';
import { parseSourceSpec } from '../../src/sources/engine-source.js';
import { corpus, haveCorpus } from '../helpers/paths.js';
import { engineModel, memoryModel } from './identical.js';

let engine: DuckDBEngine;
let dir: string;
beforeAll(async () => {
  engine = await DuckDBEngine.open();
  dir = mkdtempSync(join(tmpdir(), 'grove-c45db-'));
});
afterAll(async () => {
  await engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

const noRaising: FitOptions = { algorithm: 'c45', subtreeRaising: false };

describe.skipIf(!haveCorpus)('C4.5 with J48 thresholds inside DuckDB gives the in-memory histogram tree', () => {
  for (const name of ['iris', 'glass', 'car', 'vehicle']) {
    it(`${name} ${JSON.stringify(noRaising)}`, async () => {
      const spec = await parseSourceSpec(corpus(name));
      expect(await engineModel(engine, spec.source, noRaising)).toBe(await memoryModel(corpus(name), noRaising));
    });
  }
});

describe('C4.5 inside DuckDB', () => {
  it('training values within 1e-6 below a threshold: J48 scans them in row order, as in memory', async () => {
    const xs = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10.0000006, 10.0000003, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20];
    const csv = join(dir, 'cluster.csv');
    writeFileSync(csv, `x,y\n${xs.map((x) => `${x},${x < 10.5 ? 'a' : 'b'}`).join('\n')}\n`);
    const spec = await parseSourceSpec(csv);
    const model = await engineModel(engine, spec.source, noRaising);
    expect(model).toBe(await memoryModel(csv, noRaising));
    // The largest value below the midpoint is 10.0000006, but J48 kept 10 before it and skips it.
    expect(JSON.parse(model).nodes[0].split.thresholds).toEqual([10]);
  });

  it('fractional missing values on rows with a missing value are refused, naming the column and the option', async () => {
    const csv = join(dir, 'missing.csv');
    writeFileSync(csv, 'a,b,y\n1,x,p\n2,?,q\n3,y,p\n');
    const spec = await parseSourceSpec(csv);
    await expect(fitInEngine(engine, { source: spec.source }, noRaising)).rejects.toThrow(
      /missing fractional .* column 'b' has missing values; use --engine memory, or missing majority or learned/,
    );
  });
});
