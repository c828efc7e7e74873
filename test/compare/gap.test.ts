/**
 * The gap experiment in `grove compare`: an optimal configuration beside greedy ones, each greedy
 * configuration's training-error gap to the optimal tree of its depth, fold by fold, computed
 * here directly from fit and fitOptimal; a configuration with no optimal partner gets no gap and
 * says why; the CLI on worker threads writes the same gaps to the table, results.json, gaps.csv
 * and the report.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fit } from '../../src/algorithms/fit.js';
import { runComparison } from '../../src/compare/compare.js';
import { stratifiedFolds } from '../../src/core/folds.js';
import type { Dataset } from '../../src/data/dataset.js';
import { subsetRows } from '../../src/data/subset.js';
import { parseConfigs } from '../../src/eval/configs.js';
import { gapText } from '../../src/eval/gap-table.js';
import { optimalGaps, spearman } from '../../src/eval/optimal-gap.js';
import type { CompareResults } from '../../src/eval/results.js';
import type { DecisionTree } from '../../src/model/decision-tree.js';
import { readDataset } from '../../src/node.js';
import { fitOptimal } from '../../src/optimal/fit-optimal.js';
import { assertBuilt, cliPath, parseCsv, repoRoot } from '../helpers/cli.js';

const data = (name: string) => resolve(repoRoot, 'data', `${name}.csv`);
const FILES = [data('iris'), data('house-votes-84')];
const SPEC =
  'opt2:optimal=true,maxDepth=2,bins=8;' +
  'gini2:criterion=gini,maxDepth=2,bins=8,prune=none,missing=learned;' +
  'gr2:criterion=gain-ratio,max-depth=2,bins=8,prune=none,missing=learned;' +
  'ig3:criterion=info-gain,maxDepth=3,bins=8,prune=none;' +
  'deep:criterion=gini,prune=none';
const FOLDS = 3;
const SEED = 7;

/** Misclassified share of `data`'s rows by `tree`, counted here. */
function trainingError(tree: DecisionTree, d: Dataset): number {
  const predicted = tree.predictCodes(d);
  let wrong = 0;
  for (let i = 0; i < d.nRows; i++) if (predicted[i] !== d.labels[i]) wrong++;
  return wrong / d.nRows;
}

/** Per fold of `d`: greedy training error minus the optimal tree's (as fitOptimal reports it). */
function directGaps(d: Dataset, greedy: Record<string, unknown>): number[] {
  const assignment = stratifiedFolds(d.labels, d.classes.length, FOLDS, SEED);
  const gaps: number[] = [];
  for (let f = 0; f < FOLDS; f++) {
    const train = subsetRows(
      d,
      Array.from(assignment.keys()).filter((i) => assignment[i] !== f),
    );
    const optimal = fitOptimal(train, { maxDepth: 2, bins: 8 });
    expect(optimal.optimality?.proven).toBe(true);
    gaps.push(trainingError(fit(train, greedy), train) - optimal.optimality!.trainingError);
  }
  return gaps;
}

let results: CompareResults;

beforeAll(async () => {
  const outcome = await runComparison({
    files: FILES,
    configs: parseConfigs(SPEC),
    folds: FOLDS,
    repeats: 1,
    seed: SEED,
    jobs: 1,
    models: false,
    progress: false,
    warn: () => {},
  });
  results = outcome.results;
}, 120_000);

describe('the gap to the optimal tree in compare', () => {
  it('equals greedy training error minus optimal training error, fold by fold, computed directly', async () => {
    const gaps = optimalGaps(results);
    for (const file of FILES) {
      const d = await readDataset(file);
      const name = file.endsWith('iris.csv') ? 'iris' : 'house-votes-84';
      for (const [config, options] of [
        ['gini2', { criterion: 'gini', maxDepth: 2, bins: 8, prune: 'none', missing: 'learned' }],
        ['gr2', { criterion: 'gain-ratio', maxDepth: 2, bins: 8, prune: 'none', missing: 'learned' }],
      ] as const) {
        const direct = directGaps(d, options);
        const cell = gaps.cells.find((c) => c.dataset === name && c.config === config)!;
        expect(cell.optimal).toBe('opt2');
        expect(cell.folds).toBe(FOLDS);
        expect(cell.unproven).toBe(0);
        expect(cell.gap.mean).toBeCloseTo(direct.reduce((s, g) => s + g, 0) / FOLDS, 12);
        // The optimal tree is never worse in training error than a greedy tree over the same tests.
        for (const g of direct) expect(g).toBeGreaterThanOrEqual(-1e-12);
      }
    }
  }, 120_000);

  it('gives a configuration with no optimal partner no gap, and says why', () => {
    const gaps = optimalGaps(results);
    const why = new Map(gaps.pairings.map((p) => [p.config, p.reason]));
    expect(why.get('ig3')).toBe('no optimal configuration of depth 3');
    expect(why.get('deep')).toMatch(/no depth limit/);
    expect(why.get('gini2')).toBeUndefined();
    expect(gaps.cells.some((c) => c.config === 'ig3' || c.config === 'deep')).toBe(false);
    const text = gapText(results, gaps, []).join('\n');
    expect(text).toContain('ig3 (no optimal configuration of depth 3)');
    expect(text).toMatch(/Gap to opt2 \(depth 2\)/);
  });

  it("Spearman's ρ: ±1 for monotone pairs, tie-averaged ranks, NaN when undefined", () => {
    expect(spearman([1, 2, 3, 4], [10, 20, 30, 40])).toBeCloseTo(1, 12);
    expect(spearman([1, 2, 3, 4], [4, 3, 2, 1])).toBeCloseTo(-1, 12);
    // Ranks [1, 2.5, 2.5, 4] against [1, 2, 3, 4]: r = 4.5 / √(4.5 × 5).
    expect(spearman([1, 2, 2, 3], [1, 2, 3, 4])).toBeCloseTo(4.5 / Math.sqrt(4.5 * 5), 12);
    expect(spearman([1, 1, 1], [1, 2, 3])).toBeNaN();
    expect(spearman([1, 2], [1, 2])).toBeNaN();
  });
});

describe('grove compare with an optimal configuration (built CLI, worker threads)', () => {
  beforeAll(assertBuilt);

  it('writes the gap table, results.json gaps, gaps.csv and the report section, as on one thread', () => {
    const out = mkdtempSync(join(tmpdir(), 'grove-gap-'));
    const r = spawnSync(
      process.execPath,
      [
        cliPath,
        'compare',
        '--data',
        ...FILES,
        '--configs',
        SPEC,
        '--folds',
        String(FOLDS),
        '--seed',
        String(SEED),
        '--jobs',
        '2',
        '--out',
        out,
        '--no-progress',
      ],
      { cwd: repoRoot, encoding: 'utf8', timeout: 120_000 },
    );
    expect(r.stderr).not.toMatch(/Error|at /);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/Gap to opt2 \(depth 2\)/);
    expect(r.stdout).toContain('No gap to an optimal tree: ig3 (no optimal configuration of depth 3)');
    const written = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'));
    const here = optimalGaps(results);
    expect(written.gaps.cells.map((c: { gap: { mean: number } }) => c.gap.mean)).toEqual(
      here.cells.map((c) => c.gap.mean),
    );
    expect(written.folds.find((f: { config: string }) => f.config === 'opt2').optimal.proven).toBe(true);
    const csv = parseCsv(readFileSync(join(out, 'gaps.csv'), 'utf8'));
    expect(csv[0].slice(0, 6)).toEqual(['dataset', 'config', 'optimal_config', 'depth', 'folds', 'train_error_gap']);
    expect(csv.slice(1).map((row) => `${row[0]}/${row[1]}`)).toEqual(here.cells.map((c) => `${c.dataset}/${c.config}`));
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain('<section id="gap">');
    expect(html).toContain('href="#gap"');
    expect(html).toContain('ig3 (no optimal configuration of depth 3)');
    expect(existsSync(join(out, 'gaps.csv'))).toBe(true);
  }, 120_000);
});
