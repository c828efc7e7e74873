/**
 * The C4.5 preset inside DuckDB: J48's thresholds at training values, its collapse, and error-based
 * pruning with subtree raising give the model of the same options in memory (histogram mode, the
 * same bins).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fit } from '../../src/algorithms/fit.js';
import { DuckDBEngine } from '../../src/engines/duckdb.js';
import type { FitOptions } from '../../src/options/options.js';
import { parseSourceSpec } from '../../src/sources/engine-source.js';
import { readDataset } from '../../src/sources/file-source.js';
import { corpus, haveCorpus } from '../helpers/paths.js';
import { engineModel, memoryModel } from './identical.js';
import { CLUSTER_THRESHOLD, writeClusterCsv } from './j48-cluster.js';

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

const c45: FitOptions = { algorithm: 'c45' };
const noRaising: FitOptions = { algorithm: 'c45', subtreeRaising: false };

describe.skipIf(!haveCorpus)('C4.5 inside DuckDB gives the in-memory histogram tree', () => {
  const cases: [string, FitOptions][] = [
    ['iris', c45],
    ['glass', c45],
    ['car', c45],
    ['vehicle', c45],
    ['vehicle', noRaising],
    ['pima-indians-diabetes', { ...c45, bins: 32 }],
    // Categorical and numeric features: J48's average gain counts a categorical feature unless it
    // declares at least 0.3 × the training rows' values, which the database's grower must know.
    ['credit-g', c45],
    // Missing values under the policies that keep one node a row (the groups of subtree raising
    // with a missing value follow the node's missing-value branch).
    ['house-votes-84', { ...c45, missing: 'majority' }],
    ['breast-cancer-wisconsin-original', { ...c45, missing: 'learned' }],
    // C4.5's own policy, fractional: a row whose split value is missing goes down every branch
    // with its share of the weight (a level's rows are (node, weight) entries), and subtree
    // raising recounts such rows one by one, in the engine's scan order.
    ['house-votes-84', c45],
    ['breast-cancer-wisconsin-original', c45],
    ['soybean', c45],
    ['soybean', { ...c45, prune: 'none' }],
    // The policy outside the preset: binary subset splits (a share per side, sides swapped by the
    // split's order) and balanced class weights.
    ['soybean', { missing: 'fractional', prune: 'none', categoricalSplit: 'binary', criterion: 'gini' }],
    [
      'breast-cancer-wisconsin-original',
      { missing: 'fractional', prune: 'none', classWeight: 'balanced', maxDepth: 6 },
    ],
  ];
  for (const [name, options] of cases) {
    it(`${name} ${JSON.stringify(options)}`, async () => {
      const spec = await parseSourceSpec(corpus(name));
      expect(await engineModel(engine, spec.source, options)).toBe(await memoryModel(corpus(name), options));
    });
  }

  it('subtree raising with a sample-weight column (whole numbers, zeros among them): the tree of sampleWeight', async () => {
    const text = readFileSync(corpus('vehicle'), 'utf8').trimEnd().split('\n');
    const weights = new Float64Array(text.length - 1);
    const lines = text.map((line, i) => {
      if (i === 0) return `${line},wt`;
      weights[i - 1] = (i * 7) % 4;
      return `${line},${weights[i - 1]}`;
    });
    const file = join(dir, 'vehicle-weighted.csv');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const data = await readDataset(corpus('vehicle'));
    const mem = JSON.stringify(fit(data, { ...c45, bins: 255, sampleWeight: weights }).toJSON());
    const spec = await parseSourceSpec(file);
    expect(await engineModel(engine, spec.source, c45, { weight: 'wt', target: data.targetName })).toBe(mem);
  });
});

describe('C4.5 inside DuckDB', () => {
  it('training values within 1e-6 below a threshold: J48 scans them in row order, as in memory', async () => {
    const csv = writeClusterCsv(dir);
    const spec = await parseSourceSpec(csv);
    const model = await engineModel(engine, spec.source, c45);
    expect(model).toBe(await memoryModel(csv, c45));
    expect(JSON.parse(model).nodes[0].split.thresholds).toEqual([CLUSTER_THRESHOLD]);
  });

  it('fractional missing values: rows missing at a split in every child, by share, as memory grows them', async () => {
    const csv = join(dir, 'missing.csv');
    const lines = ['a,b,y'];
    for (let i = 0; i < 90; i++) {
      const a = i % 9;
      const b = 'xyz'[(i * 7) % 3];
      const y = a < 4 !== (b === 'z' && i % 5 === 0) ? 'p' : 'q';
      lines.push(`${i % 7 === 0 ? '?' : a},${i % 11 === 0 ? '?' : b},${y}`);
    }
    writeFileSync(csv, `${lines.join('\n')}\n`);
    const spec = await parseSourceSpec(csv);
    const model = await engineModel(engine, spec.source, { ...c45, prune: 'none' });
    expect(model).toBe(await memoryModel(csv, { ...c45, prune: 'none' }));
    // The root splits on a, which 13 rows miss: both children hold them.
    const nodes = JSON.parse(model).nodes;
    expect(nodes[0].split.feature).toBe(0);
    const [left, right] = nodes[0].children.map((c: number) => nodes[c]);
    expect(left.n + right.n).toBe(90 + 13);
    expect(await engineModel(engine, spec.source, c45)).toBe(await memoryModel(csv, c45));
  });
});
