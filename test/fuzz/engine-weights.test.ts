/**
 * In-database fits with random sample and class weights against memory's, on small random tables
 * in DuckDB (in-process), unpruned trees of every measure and the c45 preset, with and without
 * missing values. Property: with weights that binary fractions hold (sums exact in any
 * order) the model file is memory's byte for byte, for every measure; with decimal or balanced
 * class weights (sums that depend on their order in the last bit) the model still loads — no count below zero —
 * and its root holds memory's weighted class totals.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/core/random.js';
import { DuckDBEngine } from '../../src/engines/duckdb.js';
import { type ModelFile, validateModel } from '../../src/model/schema.js';
import type { FitOptions } from '../../src/options/options.js';
import { parseSourceSpec } from '../../src/sources/engine-source.js';
import { engineModel, memoryModel } from '../engines/identical.js';
import { FUZZ_TIMEOUT, fuzzParams } from './config.js';

let engine: DuckDBEngine;
let dir: string;
let made = 0;
beforeAll(async () => {
  engine = await DuckDBEngine.open();
  dir = mkdtempSync(join(tmpdir(), 'grove-fuzz-weights-'));
});
afterAll(async () => {
  await engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

const MEASURES = ['gini', 'info-gain', 'gain-ratio', 'dcsm', 'twoing', 'chi-square', 'g-statistic'] as const;
const EXACT_WEIGHTS = [0.25, 0.5, 1, 1.5, 2.75, 4];
const DECIMAL_WEIGHTS = [0.1, 0.3, 0.7, 1.1, 2.2];

/** A random table: a few integer features (one categorical as text), three classes, a weight column. */
function table(
  seed: number,
  n: number,
  weights: readonly number[],
  missing: boolean,
): { plain: string; weighted: string; w: Float64Array } {
  const rand = mulberry32(seed);
  const w = new Float64Array(n);
  const lines = ['a,b,colour,label'];
  const weighted = ['a,b,colour,label,wt'];
  for (let i = 0; i < n; i++) {
    const a = Math.floor(rand() * 30);
    const b = Math.floor(rand() * 12);
    const colour = ['red', 'green', 'blue', 'grey'][Math.floor(rand() * 4)];
    // Mostly a function of the features, with some noise, so trees are neither trivial nor flat.
    const label = rand() < 0.15 ? 'Z' : (a + 3 * b) % 5 < 2 ? 'X' : colour === 'red' ? 'Z' : 'Y';
    w[i] = weights[Math.floor(rand() * weights.length)];
    // With `missing`, about one cell in twelve of `a` and of `colour` is empty.
    const cells = `${missing && rand() < 0.08 ? '' : a},${b},${missing && rand() < 0.08 ? '' : colour},${label}`;
    lines.push(cells);
    weighted.push(`${cells},${w[i]}`);
  }
  const id = made++;
  const plain = join(dir, `plain-${id}.csv`);
  const withWeights = join(dir, `weighted-${id}.csv`);
  writeFileSync(plain, `${lines.join('\n')}\n`);
  writeFileSync(withWeights, `${weighted.join('\n')}\n`);
  return { plain, weighted: withWeights, w };
}

/**
 * Drawn fits: the table's seed and size, missing cells or not, the measure and depth of an unpruned
 * tree or the c45 preset (pruned, subtrees raised), the weights used.
 */
function settings(...classWeights: FitOptions['classWeight'][]) {
  return fc.record({
    seed: fc.nat(),
    n: fc.integer({ min: 30, max: 250 }),
    criterion: fc.constantFrom(...MEASURES),
    maxDepth: fc.integer({ min: 1, max: 7 }),
    sampled: fc.boolean(),
    classWeight: fc.constantFrom(...classWeights),
    algorithm: fc.constantFrom('cart', 'c45'),
    missing: fc.boolean(),
  });
}
type Settings = fc.RecordValue<ReturnType<typeof settings>>;

/** Fit `table` in DuckDB and in memory with the drawn settings; both model files. */
async function both(s: Settings, weights: readonly number[]): Promise<{ inDb: string; mem: string }> {
  const { plain, weighted, w } = table(s.seed, s.n, weights, s.missing);
  const options: FitOptions =
    s.algorithm === 'c45'
      ? // With missing values, C4.5's own fractional policy (rows spread over every branch).
        { algorithm: 'c45', maxDepth: s.maxDepth }
      : { prune: 'none', criterion: s.criterion, maxDepth: s.maxDepth };
  if (s.classWeight) options.classWeight = s.classWeight;
  const spec = await parseSourceSpec(s.sampled ? weighted : plain);
  const columns = s.sampled ? { weight: 'wt', target: 'label' } : { target: 'label' };
  const inDb = await engineModel(engine, spec.source, options, columns);
  const mem = await memoryModel(plain, options, s.sampled ? w : undefined);
  return { inDb, mem };
}

describe('in-database fits with random weights against memory', () => {
  it(
    'weights binary fractions hold: the model file memory writes',
    async () => {
      await fc.assert(
        fc.asyncProperty(settings(undefined, { X: 0.5, Y: 1.25, Z: 3 }), async (s) => {
          const { inDb, mem } = await both(s, EXACT_WEIGHTS);
          expect(inDb).toBe(mem);
        }),
        fuzzParams(25, 0.1),
      );
    },
    FUZZ_TIMEOUT * 3,
  );

  it(
    'decimal weights: the model loads (no count below zero) and its root holds memory’s totals',
    async () => {
      await fc.assert(
        fc.asyncProperty(settings(undefined, 'balanced', { X: 0.3, Y: 1.1, Z: 2.2 }), async (s) => {
          const { inDb, mem } = await both(s, DECIMAL_WEIGHTS);
          const model = JSON.parse(inDb) as ModelFile;
          expect(() => validateModel(model)).not.toThrow();
          for (const node of model.nodes) for (const c of node.counts) expect(c).toBeGreaterThanOrEqual(0);
          const root = (JSON.parse(mem) as ModelFile).nodes[0].counts;
          model.nodes[0].counts.forEach((c, j) => {
            expect(Math.abs(c - root[j])).toBeLessThanOrEqual(1e-9 * Math.max(1, root[j]));
          });
        }),
        fuzzParams(25, 0.1),
      );
    },
    FUZZ_TIMEOUT * 3,
  );
});
