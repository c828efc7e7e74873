import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/core/random.js';
import { DuckDBEngine } from '../../src/engines/duckdb.js';
import type { ModelFile } from '../../src/model/schema.js';
import { validateModel } from '../../src/model/schema.js';
import type { FitOptions } from '../../src/options/options.js';
import { parseSourceSpec } from '../../src/sources/engine-source.js';
import { engineModel, memoryModel } from './identical.js';

let engine: DuckDBEngine;
let dir: string;
beforeAll(async () => {
  engine = await DuckDBEngine.open();
  dir = mkdtempSync(join(tmpdir(), 'grove-weighted-'));
});
afterAll(async () => {
  await engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * A small table whose classes follow two features closely (deep trees, nodes of one class) with
 * a third of noise, and weights that no binary fraction holds exactly: the sums of a child made
 * by subtraction then differ from its rows' by rounding.
 */
function weightedTable(
  seed: number,
  n: number,
  choices: readonly number[],
): { plain: string; weighted: string; weights: Float64Array } {
  const rand = mulberry32(seed);
  const weights = new Float64Array(n);
  const lines = ['a,b,noise,label'];
  const weightedLines = ['a,b,noise,label,wt'];
  for (let i = 0; i < n; i++) {
    const a = Math.floor(rand() * 40);
    const b = Math.floor(rand() * 40);
    const label = (a + 2 * b) % 7 < 2 ? 'P' : a % 5 === 0 ? 'Q' : 'R';
    weights[i] = choices[Math.floor(rand() * choices.length)];
    const line = `${a},${b},${Math.floor(rand() * 9)},${label}`;
    lines.push(line);
    weightedLines.push(`${line},${weights[i]}`);
  }
  const plain = join(dir, `plain-${seed}.csv`);
  const weighted = join(dir, `weighted-${seed}.csv`);
  writeFileSync(plain, `${lines.join('\n')}\n`);
  writeFileSync(weighted, `${weightedLines.join('\n')}\n`);
  return { plain, weighted, weights };
}

/**
 * The model's splits, and its counts apart. A sum of weights like 0.1 depends on the order of its
 * terms in the last bit, and so does a tie broken by such sums (the branch missing values take).
 */
function splitCounts(json: string): { shape: string; counts: number[][] } {
  const model = JSON.parse(json) as ModelFile;
  const counts = model.nodes.map((node) => node.counts);
  const shape = JSON.stringify(model.nodes.map(({ n, split, children }) => ({ n, split, children })));
  return { shape, counts };
}

describe('in-database training with weights that are not whole numbers', () => {
  const cases: [string, FitOptions, boolean][] = [
    ['sample weights', { prune: 'none', criterion: 'dcsm', maxDepth: 8 }, true],
    ['sample and balanced class weights', { prune: 'none', maxDepth: 8, classWeight: 'balanced' }, true],
    ['balanced class weights', { prune: 'none', criterion: 'dcsm', maxDepth: 8, classWeight: 'balanced' }, false],
  ];
  for (const [what, options, sampled] of cases)
    it(`${what}: counts never below zero, zero where memory's are, the tree memory grows`, async () => {
      for (const seed of [1, 2, 3, 4]) {
        const { plain, weighted, weights } = weightedTable(seed, 600, [0.1, 0.3, 0.7, 1.1]);
        const spec = await parseSourceSpec(sampled ? weighted : plain);
        const columns = sampled ? { weight: 'wt', target: 'label' } : { target: 'label' };
        const inDb = await engineModel(engine, spec.source, options, columns);
        // The model loads: every count passes the schema's check.
        expect(() => validateModel(JSON.parse(inDb))).not.toThrow();
        const mem = await memoryModel(plain, options, sampled ? weights : undefined);
        const a = splitCounts(inDb);
        const b = splitCounts(mem);
        expect(a.shape).toBe(b.shape);
        a.counts.forEach((counts, i) =>
          counts.forEach((c, j) => {
            const m = b.counts[i][j];
            expect(c === 0).toBe(m === 0);
            expect(Math.abs(c - m)).toBeLessThanOrEqual(1e-9 * Math.max(1, m));
          }),
        );
      }
    });

  it('weights that binary fractions hold (sums exact in any order): the model memory grows', async () => {
    const options: FitOptions = { prune: 'none', maxDepth: 8, classWeight: { P: 0.5, Q: 1.25, R: 3 } };
    for (const seed of [5, 6]) {
      const { plain, weighted, weights } = weightedTable(seed, 600, [0.25, 0.5, 1.5, 2.75]);
      const spec = await parseSourceSpec(weighted);
      const inDb = await engineModel(engine, spec.source, options, { weight: 'wt', target: 'label' });
      expect(inDb).toBe(await memoryModel(plain, options, weights));
    }
  });
});
