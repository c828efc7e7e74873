/** `grove show --format importances` (a sorted table) and `fit --help` defaults (BUILT binary; `npm run build` first). */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, grove, lines, repoRoot } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'grove-show-'));
const MODEL = join(dir, 'iris.json');
const FOREST = join(dir, 'forest.json');

beforeAll(() => {
  assertBuilt();
  const iris = join(repoRoot, 'data/iris.csv');
  expect(grove(['fit', iris, '--out', MODEL]).status).toBe(0);
  expect(grove(['fit', iris, '--forest', 'random-forest', '--trees', '5', '--out', FOREST]).status).toBe(0);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('grove show --format importances', () => {
  it("a table of the stats' importances, largest first, 3 significant digits", () => {
    const stats = JSON.parse(grove(['show', MODEL, '--format', 'stats']).stdout) as {
      importances: Record<string, number>;
    };
    const expected = Object.entries(stats.importances)
      .sort((a, b) => b[1] - a[1])
      .map(([name, v]) => [name, v === 0 ? '0' : String(Number(v.toPrecision(3)))]);
    const r = grove(['show', MODEL, '--format', 'importances']);
    expect(r.status).toBe(0);
    const [header, ...rows] = lines(r.stdout);
    expect(header).toMatch(/^feature\s+importance$/);
    expect(rows.map((l) => l.trim().split(/\s+/)).map(([n, v]) => [n, String(Number(v))])).toEqual(expected);
    expect(rows.every((l) => !/\d{5}/.test(l))).toBe(true);
  });

  it("a forest's importances too", () => {
    const r = grove(['show', FOREST, '--format', 'importances']);
    expect(r.status).toBe(0);
    const values = lines(r.stdout)
      .slice(1)
      .map((l) => Number(l.trim().split(/\s+/)[1]));
    expect(values).toHaveLength(4);
    expect([...values].sort((a, b) => b - a)).toEqual(values);
  });
});

describe('fit --help', () => {
  it("gives the default preset's value where it sets an option (CART prunes), then the plain default", () => {
    const help = grove(['fit', '--help']).stdout.replace(/\s+/g, ' ');
    expect(help).toContain(
      'cost-complexity (default cost-complexity with the default --algorithm cart; none unless a preset sets it)',
    );
    expect(help).toMatch(/--min-leaf <n> .*? \(default 1\)/);
  });
});
