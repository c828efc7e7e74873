/** grove fit --optimal and grove compare with an optimal configuration (the built CLI). */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertBuilt, grove, repoRoot } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'grove-optimal-cli-'));
const iris = resolve(repoRoot, 'data/iris.csv');
const glass = resolve(repoRoot, 'data/glass.csv');

describe('grove fit --optimal', () => {
  it('writes an optimal model and says it is proven', () => {
    assertBuilt();
    const out = join(dir, 'iris.json');
    const r = grove(['fit', iris, '--optimal', '--max-depth', '3', '--out', out]);
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('Optimal tree: proven optimal (misclassification 0.667%)');
    const model = JSON.parse(readFileSync(out, 'utf8'));
    expect(model.options.algorithm).toBe('optimal');
    expect(model.optimality.proven).toBe(true);
    const shown = grove(['show', out]);
    expect(shown.stdout).toContain('Optimal tree: proven optimal');
  });

  it('--max-leaves, --objective sparse --alpha and --time-limit reach the search', () => {
    const out = join(dir, 'sparse.json');
    const args = ['--max-leaves', '3', '--objective', 'sparse', '--alpha', '0.02', '--time-limit', '30'];
    const r = grove(['fit', iris, '--algorithm', 'optimal', ...args, '--out', out]);
    expect(r.status).toBe(0);
    const model = JSON.parse(readFileSync(out, 'utf8'));
    expect(model.options.optimal).toEqual({ maxLeaves: 3, objective: 'sparse', alpha: 0.02, timeLimit: 30 });
    expect(model.nodes.filter((n: { split?: unknown }) => !n.split).length).toBeLessThanOrEqual(3);
  });

  it('refuses in one line: no depth, a depth out of range, a greedy flag, training in a database', () => {
    const cases: [string[], RegExp][] = [
      [['--optimal'], /^grove: optimal trees need --max-depth between 1 and 10, got Infinity$/],
      [['--optimal', '--max-depth', '11'], /^grove: optimal trees need --max-depth between 1 and 10, got 11$/],
      [['--optimal', '--max-depth', '2', '--criterion', 'dcsm'], /^grove: optimal trees take no --criterion/],
      [['--optimal', '--max-depth', '2', '--engine', 'duckdb'], /^grove: an optimal tree is searched in memory/],
      [['--max-leaves', '4'], /^grove: --max-leaves applies to optimal trees only \(--optimal\)$/],
    ];
    for (const [args, message] of cases) {
      const r = grove(['fit', iris, ...args, '--out', join(dir, 'bad.json')]);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr.trim()).toMatch(message);
    }
  });

  it('a --memory-limit below what Node itself needs: one line, exit 2', () => {
    const r = grove([
      'fit',
      iris,
      '--optimal',
      '--max-depth',
      '3',
      '--memory-limit',
      '64',
      '--out',
      join(dir, 'm.json'),
    ]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toMatch(/^grove: option --memory-limit expects an integer ≥ 128, got '64'$/);
  });
});

describe('grove compare with an optimal configuration', () => {
  it('puts the optimal tree beside a greedy one: never more training error', () => {
    const out = join(dir, 'compare');
    const configs = 'opt:algorithm=optimal,max-depth=2;gini:algorithm=cart,max-depth=2,prune=none';
    const r = grove(['compare', '--data', glass, '--configs', configs, '--folds', '3', '--out', out, '--no-progress']);
    expect(r.status).toBe(0);
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'));
    const fold = (config: string, f: number) =>
      results.folds.find((x: { config: string; fold: number }) => x.config === config && x.fold === f);
    for (let f = 0; f < 3; f++)
      expect(fold('opt', f).trainAccuracy).toBeGreaterThanOrEqual(fold('gini', f).trainAccuracy);
  });
});
