/**
 * Fast stress cases (issue 18); the slow ones (a 12,000-row chain, 200,000 distinct categories
 * fitted with binary subsets, 5,000 classes, 100,000 columns) are in bench/stress.mjs. Each case goes
 * through the API and the CLI (in process): fit, predict, every export, save and load.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fit } from '../../src/algorithms/fit.js';
import { run } from '../../src/cli/run.js';
import { datasetFromRows } from '../../src/data/encode.js';
import { treeToDot } from '../../src/export/dot.js';
import { rulesToText } from '../../src/export/rules.js';
import { treeToText } from '../../src/export/text.js';
import { DecisionTree } from '../../src/model/decision-tree.js';
import { withCapturedOutput } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'grove-stress-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Run the CLI in this process, its output captured and dropped; the exit code. */
async function cli(argv: string[]): Promise<number> {
  return (await withCapturedOutput(() => run(argv))).value;
}

/** Fit, predict, export, save and load `rows` (last column the class) through the API and the CLI. */
async function endToEnd(name: string, rows: (string | number)[][], prune = 'none'): Promise<DecisionTree> {
  const columns = [...rows[0].slice(0, -1).map((_, j) => `f${j}`), 'y'];
  const data = datasetFromRows(rows, { columns });
  const tree = fit(data, { prune: prune as 'none', threads: 1 });
  expect(tree.predict(data)).toHaveLength(rows.length);
  expect(tree.predictProba(data)).toHaveLength(rows.length);
  for (const text of [treeToText(tree), rulesToText(tree), treeToDot(tree)]) expect(text.length).toBeGreaterThan(0);
  DecisionTree.fromJSON(JSON.parse(JSON.stringify(tree.toJSON())));
  const csv = join(dir, `${name}.csv`);
  writeFileSync(csv, `${columns.join(',')}\n${rows.map((r) => r.join(',')).join('\n')}\n`);
  const model = join(dir, `${name}.json`);
  expect(await cli(['fit', csv, '--out', model, '--prune', prune])).toBe(0);
  expect(await cli(['predict', csv, '--model', model, '--proba', '--out', join(dir, `${name}.pred.csv`)])).toBe(0);
  expect(
    readFileSync(join(dir, `${name}.pred.csv`), 'utf8')
      .trim()
      .split('\n'),
  ).toHaveLength(rows.length + 1);
  for (const format of ['text', 'rules', 'dot', 'json', 'stats'])
    expect(await cli(['show', model, '--format', format, '--out', join(dir, `${name}.show.${format}`)])).toBe(0);
  return tree;
}

describe('stress: degenerate data sets', () => {
  it('one row', async () => {
    expect((await endToEnd('one-row', [[1, 'a']])).stats().leaves).toBe(1);
  });

  it('one feature', async () => {
    expect(
      (
        await endToEnd('one-feature', [
          [1, 'a'],
          [2, 'b'],
          [3, 'a'],
          [4, 'b'],
        ])
      ).stats().leaves,
    ).toBe(4);
  });

  it('all rows identical (one label, then two labels on identical features)', async () => {
    expect(
      (
        await endToEnd(
          'identical',
          Array.from({ length: 50 }, () => [1, 'x', 'a']),
        )
      ).stats().leaves,
    ).toBe(1);
    const mixed = Array.from({ length: 50 }, (_, i) => [1, 'x', i % 2 ? 'a' : 'b']);
    expect((await endToEnd('identical-mixed', mixed)).stats().leaves).toBe(1);
  });

  it('all labels identical', async () => {
    const rows = Array.from({ length: 200 }, (_, i) => [i, i % 7, 'same']);
    expect((await endToEnd('one-label', rows, 'cost-complexity')).stats().leaves).toBe(1);
  });
});

describe('stress: deep and wide', () => {
  it('a sorted feature with alternating labels grows a chain, and every walk over it works (default preset too)', async () => {
    const rows = Array.from({ length: 1_000 }, (_, i) => [i, i % 2 ? 'b' : 'a']);
    expect((await endToEnd('chain', rows)).stats().height).toBe(999);
    expect(fit(datasetFromRows(rows), { threads: 1 }).stats().leaves).toBeGreaterThanOrEqual(1);
  });

  it('a subset split over 200,000 categories predicts (no spread of its category list)', () => {
    const n = 200_000;
    const base = fit(
      datasetFromRows([
        { id: 'a', y: 'n' },
        { id: 'b', y: 'y' },
        { id: 'a', y: 'n' },
        { id: 'b', y: 'y' },
      ]),
      {
        algorithm: 'cart',
        prune: 'none',
      },
    ).toJSON();
    const ids = Array.from({ length: n }, (_, i) => `id${i}`);
    const left = Array.from({ length: n / 2 }, (_, i) => 2 * i);
    const right = Array.from({ length: n / 2 }, (_, i) => 2 * i + 1);
    const model = DecisionTree.fromJSON({
      ...base,
      features: [{ name: 'id', kind: 'categorical', categories: ids }],
      nodes: [
        {
          counts: [n / 2, n / 2],
          n,
          depth: 0,
          split: { kind: 'subset', feature: 0, left, right },
          missingBranch: 1,
          children: [1, 2],
        },
        { counts: [n / 2, 0], n: n / 2, depth: 1 },
        { counts: [0, n / 2], n: n / 2, depth: 1 },
      ],
    });
    const predicted = model.predict(ids.map((id) => ({ id })));
    expect(predicted[0]).toBe('n');
    expect(predicted[n - 1]).toBe('y');
    expect(predicted.filter((p) => p === 'n')).toHaveLength(n / 2);
  });

  it('200,000 distinct categories fit (one branch per value) and predict', () => {
    const rows = Array.from({ length: 200_000 }, (_, i) => [`id${i}`, i % 3 ? 'a' : 'b']);
    const data = datasetFromRows(rows, { columns: ['id', 'y'] });
    const tree = fit(data, { algorithm: 'c45', prune: 'none', threads: 1 });
    expect(tree.predict(data)).toHaveLength(rows.length);
  });
});
