/**
 * `grove explain --permutation` through the built CLI: the table the API's permutationImportance
 * gives for the same model, rows and seed, largest mean decrease first; and its refusals.
 * Run `npm run build` first (`npm test` does).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { significant } from '../../src/core/text-table.js';
import { permutationImportance } from '../../src/explain/permutation.js';
import { loadModel } from '../../src/io/model-file.js';
import { readDataset } from '../../src/sources/file-source.js';
import { assertBuilt, grove, lines } from '../helpers/cli.js';
import { rowsOf, synthetic } from './synthetic.js';

const dir = mkdtempSync(join(tmpdir(), 'grove-permutation-'));
const DATA = join(dir, 'data.csv');
const RENAMED = join(dir, 'renamed.csv');
const MODEL = join(dir, 'model.json');

beforeAll(() => {
  assertBuilt();
  const data = synthetic(300, 5, 0.05);
  const names = data.features.map((f) => f.name);
  const body = rowsOf(data).map((r, i) =>
    [...names.map((n) => (r[n] === null ? '' : String(r[n]))), data.classes[data.labels[i]]].join(','),
  );
  writeFileSync(DATA, `${[[...names, 'y'].join(','), ...body].join('\n')}\n`);
  writeFileSync(RENAMED, `${[[...names, 'label'].join(','), ...body].join('\n')}\n`);
  const fitted = grove(['fit', DATA, '--algorithm', 'cart', '--out', MODEL]);
  expect(fitted.status, fitted.stderr).toBe(0);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('grove explain --permutation', () => {
  it("prints the API's importances, largest mean decrease first, 3 significant digits", async () => {
    const r = grove(['explain', '--model', MODEL, DATA, '--permutation', '--repeats', '4', '--seed', '3']);
    expect(r.status, r.stderr).toBe(0);
    const pi = permutationImportance(loadModel(MODEL), await readDataset(DATA, { target: 'y' }), {
      repeats: 4,
      seed: 3,
    });
    const [head, columns, ...rows] = lines(r.stdout);
    expect(head).toBe(
      `accuracy ${significant(pi.baseline, 4)} on 300 rows; decrease when a feature is shuffled, over 4 shuffles (seed 3)`,
    );
    expect(columns.split(/\s{2,}/)).toEqual(['feature', 'mean decrease', 'std']);
    const cells = rows.map((l) => l.trim().split(/\s+/));
    expect(cells.map((c) => c[0]).sort()).toEqual([...pi.features].sort());
    for (const [name, mean, sd] of cells) {
      const j = pi.features.indexOf(name);
      expect([mean, sd]).toEqual([significant(pi.mean[j]), significant(pi.sd[j])]);
    }
    const means = cells.map(([name]) => pi.mean[pi.features.indexOf(name)]);
    expect(means).toEqual([...means].sort((a, b) => b - a));
    // The informative feature matters most; shuffling does change the accuracy.
    expect(cells[0][0]).toBe('x0');
    expect(pi.mean[pi.features.indexOf('x0')]).toBeGreaterThan(0.1);
  });

  it('the default seed and repeats are 0 and 5; --target names another class column', () => {
    const r = grove(['explain', '--model', MODEL, RENAMED, '--permutation', '--target', 'label']);
    expect(r.status, r.stderr).toBe(0);
    expect(lines(r.stdout)[0]).toMatch(/ on 300 rows; .* over 5 shuffles \(seed 0\)$/);
    const same = grove(['explain', '--model', MODEL, DATA, '--permutation']);
    expect(r.stdout).toBe(same.stdout);
  });

  it.each([
    [['--permutation', '--partial', 'x0'], '--permutation prints a table: leave out --partial'],
    [['--permutation', '--summary'], '--permutation prints a table: leave out --summary'],
    [['--permutation', '--format', 'long'], '--permutation prints a table: leave out --format long'],
    [['--repeats', '3'], '--repeats applies to --permutation'],
    [['--target', 'y'], '--target applies to --permutation'],
    [['--permutation', '--repeats', '0'], '--repeats'],
  ])('refuses %j', (flags, message) => {
    const r = grove(['explain', '--model', MODEL, DATA, ...flags]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(message);
    expect(lines(r.stderr)).toHaveLength(1);
    expect(r.stdout).toBe('');
  });
});
