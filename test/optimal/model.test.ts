/**
 * An optimal tree is an ordinary model: it predicts, saves and loads, shows its proof status and
 * exports to ONNX and SQL with the same predictions; it is never worse on its training rows than
 * a greedy tree of the same depth over the same tests; bad input gets one line.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { datasetFromRows } from '../../src/data/encode.js';
import { treeToOnnx } from '../../src/export/onnx/model.js';
import { treeToSql } from '../../src/export/sql/query.js';
import { treeToText } from '../../src/export/text.js';
import { describeOptimality } from '../../src/model/optimality.js';
import { fit, fitOptimal, GroveError, loadModel, readDataset, saveModel } from '../../src/node.js';
import { binarise } from '../../src/optimal/binarise.js';
import { OptimalSearch, StopSearch } from '../../src/optimal/search.js';
import { duckdb, scoreDuckdb, scoreOnnx } from '../export/engines.js';
import { firstMismatch, groveScores, plainColumns } from '../export/rows.js';
import { repoRoot } from '../helpers/cli.js';
import { corpus, haveCorpus } from '../helpers/paths.js';

const dir = mkdtempSync(join(tmpdir(), 'grove-optimal-'));
const local = (name: string) => readDataset(resolve(repoRoot, `data/${name}.csv`));

describe('an optimal tree is a model like any other', () => {
  it('saves, loads and shows its proof', async () => {
    const data = await local('iris');
    const tree = fitOptimal(data, { maxDepth: 3 });
    expect(tree.optimality?.proven).toBe(true);
    expect(tree.options.algorithm).toBe('optimal');
    const file = join(dir, 'iris.json');
    saveModel(tree, file);
    const back = loadModel(file);
    expect(back.optimality).toEqual(tree.optimality);
    expect(back.predict(data)).toEqual(tree.predict(data));
    expect(treeToText(back)).toMatch(/Optimal tree: proven optimal \(misclassification 0\.667%\)/);
    expect(back.options.optimal).toEqual({
      maxLeaves: null,
      objective: 'misclassification',
      alpha: 0.01,
      timeLimit: null,
    });
  });

  it('fit with algorithm optimal is fitOptimal', async () => {
    const data = await local('glass');
    const a = fit(data, { algorithm: 'optimal', maxDepth: 2 });
    const b = fitOptimal(data, { maxDepth: 2 });
    expect(a.nodes).toEqual(b.nodes);
  });

  it('exports to ONNX and SQL with its own predictions (missing values included)', async () => {
    const data = await local('breast-cancer-wisconsin-original');
    const tree = fitOptimal(data, { maxDepth: 3, bins: 8 });
    const columns = plainColumns(tree, data);
    const expected = groveScores(tree, data);
    const onnx = await scoreOnnx(treeToOnnx(tree).bytes, columns, data.nRows);
    expect(firstMismatch(expected, onnx, tree.classes.length, 1e-6)).toBeUndefined();
    const db = await duckdb();
    try {
      const { sql } = treeToSql(tree, { dialect: 'duckdb', table: 'rows', proba: true });
      const classes = tree.classes.map(String);
      const got = await scoreDuckdb(db.connection, 'rows', sql, columns, data.nRows, classes);
      expect(firstMismatch(expected, got, tree.classes.length)).toBeUndefined();
    } finally {
      db.close();
    }
  });

  it('categorical one-vs-rest tests and learned missing directions predict as searched', async () => {
    const data = await local('house-votes-84');
    const tree = fitOptimal(data, { maxDepth: 2 });
    const errors = tree.predictCodes(data).filter((c, r) => c !== data.labels[r]).length;
    expect(errors / data.nRows).toBeCloseTo(tree.optimality!.trainingError, 12);
    expect(tree.nodes.some((n) => n.split?.kind === 'subset' && n.split.left.length === 1)).toBe(true);
  });
});

describe('never above a greedy tree of the same depth on its training rows', () => {
  // Every greedy split is one of the optimal search's tests: numeric thresholds, and subsets of
  // categories (car, tic-tac-toe, mushroom: a node sees at most 10 categories of the feature split).
  const cases: [string, number, number | undefined][] = [
    ['car', 3, undefined],
    ['tic-tac-toe', 3, undefined],
    ['mushroom', 2, undefined],
    ['iris', 3, undefined],
    ['haberman', 3, 16],
    ['pima-indians-diabetes', 3, 16],
    ['glass', 3, 16],
    ['breast-cancer-wisconsin-diagnostic', 2, 32],
    ['ionosphere', 2, 16],
    ['vehicle', 2, 16],
  ];
  for (const [name, depth, bins] of cases) {
    it.skipIf(!haveCorpus)(`${name}, depth ${depth}${bins ? `, ${bins} bins` : ''}`, async () => {
      const data = await readDataset(corpus(name));
      const optimal = fitOptimal(data, { maxDepth: depth, ...(bins ? { bins } : {}) });
      expect(optimal.optimality?.proven).toBe(true);
      const optimalError = 1 - optimal.score(data);
      expect(optimalError).toBeCloseTo(optimal.optimality!.trainingError, 12);
      // Mushroom's gill-color has 12 categories: where a node sees more than 10, one against the rest.
      if (name === 'mushroom') {
        expect(optimal.optimality?.oneVsRest).toEqual({ above: 10, features: ['gill-color'] });
        expect(describeOptimality(optimal.optimality!)).toContain('more than 10 categories of gill-color');
      }
      for (const criterion of ['gini', 'info-gain', 'gain-ratio', 'dcsm', 'chi-square']) {
        const greedy = fit(data, {
          criterion,
          maxDepth: depth,
          prune: 'none',
          missing: 'learned',
          ...(bins ? { bins } : {}),
        });
        expect(optimalError).toBeLessThanOrEqual(1 - greedy.score(data) + 1e-12);
      }
    });
  }
});

describe('bad input gets one line', () => {
  const oneLine = (f: () => unknown, pattern: RegExp) => {
    let caught: unknown;
    try {
      f();
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(GroveError);
    expect((caught as Error).message).toMatch(pattern);
    expect((caught as Error).message).not.toContain('\n');
  };

  it('a depth out of range, an unknown objective, a greedy option, a leaf limit below 2', async () => {
    const data = await local('iris');
    oneLine(() => fitOptimal(data, { maxDepth: 11 }), /^optimal trees need maxDepth between 1 and 10, got 11$/);
    oneLine(() => fitOptimal(data, { maxDepth: 0 }), /maxDepth between 1 and 10, got 0/);
    oneLine(
      () => fitOptimal(data, { maxDepth: 2, objective: 'accuracy' as 'sparse' }),
      /^objective must be one of misclassification, sparse, got 'accuracy'$/,
    );
    oneLine(() => fitOptimal(data, { maxDepth: 2, criterion: 'gini' }), /^optimal trees take no criterion/);
    oneLine(() => fitOptimal(data, { maxDepth: 2, maxLeaves: 1 }), /^maxLeaves must be an integer ≥ 2, got 1$/);
    oneLine(() => fit(data, { maxLeaves: 4 }), /^maxLeaves applies to optimal trees only \(optimal\)$/);
  });

  it('too many tests for the memory bound: how many, and what to set', () => {
    const n = 20000;
    const primes = [1, 7919, 104729, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79];
    const rows = Array.from({ length: n }, (_, i) => {
      const row: Record<string, number> = {};
      for (let f = 0; f < 20; f++) row[`x${f}`] = (i * primes[f]) % n;
      row.y = i % 3;
      return row;
    });
    const data = datasetOf(rows);
    oneLine(
      () => fitOptimal(data, { maxDepth: 3, memoryLimit: 128 }),
      /^optimal trees: 399980 binary tests over 20000 rows need about \d+ MB of tables, more than half of what memoryLimit 128 leaves beside Node itself \(64 MB\): set bins \(e\.g\. 16\), lower maxDepth, or raise memoryLimit$/,
    );
  });

  it('a search past its time limit returns the best tree so far, not proven, with a lower bound', async () => {
    const data = await local('iris');
    // Binning and the greedy tree alone outlast a millisecond: the search stops at its first check.
    const tree = fitOptimal(data, { maxDepth: 4, timeLimit: 0.001 });
    const o = tree.optimality!;
    expect(o.proven).toBe(false);
    expect(o.stopped).toBe('time');
    expect(o.lowerBound).toBeLessThanOrEqual(o.value);
    expect(o.trainingError).toBeLessThanOrEqual(o.greedyError);
    expect(treeToText(tree)).toMatch(/NOT proven optimal: the search stopped at its time limit/);
    expect(tree.score(data)).toBeCloseTo(1 - o.trainingError, 12);
  });

  it('a search that fills its cache stops with the best tree so far (the memory bound), no crash', async () => {
    const data = await local('iris');
    const b = binarise(data, new Float64Array(data.nRows).fill(1));
    const search = new OptimalSearch(b, { maxDepth: 4, maxLeaves: Infinity, penalty: 1 / 64, maxSlots: 200 });
    let stopped: unknown;
    try {
      search.solveRoot(Infinity);
    } catch (e) {
      stopped = e;
    }
    expect(stopped).toBeInstanceOf(StopSearch);
    expect((stopped as StopSearch).reason).toBe('memory');
    expect(search.cache.size).toBeLessThanOrEqual(200);
  });
});

function datasetOf(rows: Record<string, unknown>[]) {
  return datasetFromRows(rows, { target: 'y' });
}
