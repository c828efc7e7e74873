/**
 * A forest's SQL export run in DuckDB, PostgreSQL and ClickHouse (throwaway servers) on 100-tree
 * forests: labels identical to grove's and probabilities equal to within 1e-12 (the query adds
 * the trees' leaf scores in grove's order, in doubles), for averaged and majority-vote forests over
 * numeric, categorical and missing values, and C-MBSV unclassified regions.
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Forest } from '../../src/ensemble/forest.js';
import { forestToSql } from '../../src/export/sql/forest.js';
import { type Dataset, datasetFromRows, fitForest, GroveError, readDataset, type SqlDialect } from '../../src/node.js';
import { repoRoot } from '../helpers/cli.js';
import { duckdb, scoreClickhouse, scoreDuckdb, scorePostgres, useClickHouse, usePostgres } from './engines.js';
import { handModel, leaf } from './models.js';
import { firstMismatch, type PlainColumn, plainColumns, type Scored } from './rows.js';

interface ForestCase {
  name: string;
  forest: Forest;
  columns: PlainColumn[];
  nRows: number;
  expected: Scored;
}

function scored(forest: Forest, rows: Parameters<Forest['predict']>[0]): Scored {
  const labels = forest.predict(rows).map((l) => (l === null ? 'unclassified' : String(l)));
  return { labels, proba: forest.predictProbaFlat(rows) };
}

function fromData(name: string, forest: Forest, data: Dataset): ForestCase {
  const columns = plainColumns(forest.trees[0], data);
  return { name, forest, columns, nRows: data.nRows, expected: scored(forest, data) };
}

/** Two hand-made trees with unclassified regions: some rows every tree leaves unclassified. */
function unclassifiedForest(template: Forest): ForestCase {
  const split = (thresholds: number[]) => ({
    counts: [3, 3],
    n: 6,
    depth: 0,
    split: { kind: 'numeric' as const, feature: 0, thresholds },
    children: [...thresholds.map((_, i) => i + 1), thresholds.length + 1],
    missingBranch: 0,
  });
  const none = { counts: [0, 0], n: 0, depth: 1, unclassified: true };
  const features = [{ name: 'x', kind: 'numeric' as const }];
  const a = handModel(features, ['lo', 'hi'], [split([1, 2]), leaf([3, 0]), none, leaf([0, 3])]);
  const b = handModel(features, ['lo', 'hi'], [split([1.5]), none, leaf([1, 2])]);
  const forest = new Forest({
    target: 'y',
    features,
    classes: ['lo', 'hi'],
    settings: { ...template.settings, trees: 2 },
    options: a.options,
    trees: [a, b],
  });
  const x = [0.5, 1.2, 1.7, 2.5, null];
  const expected = scored(
    forest,
    x.map((v) => [v]),
  );
  return { name: 'unclassified', forest, columns: [{ name: 'x', kind: 'number', values: x }], nRows: 5, expected };
}

const iris = await readDataset(resolve(repoRoot, 'data/iris.csv'));
const votes = await readDataset(resolve(repoRoot, 'data/house-votes-84.csv'));
/** Numeric and categorical features tested at the same levels, with missing values in both. */
function mixedRows(data: Dataset): Record<string, unknown>[] {
  const sizes = ['small', 'medium', 'large'];
  return Array.from({ length: data.nRows }, (_, i) => {
    const row: Record<string, unknown> = {};
    for (const c of data.features) row[c.name] = i % 7 === 3 && c.name === 'petal-length' ? null : c.values[i];
    const x = data.features[0].values[i] as number;
    row.size = i % 11 === 5 ? null : sizes[x < 5.5 ? 0 : x < 6.5 ? 1 : 2];
    row.class = data.classes[data.labels[i]];
    return row;
  });
}
const mixed = datasetFromRows(mixedRows(iris), { target: 'class' });
const CASES: ForestCase[] = [
  fromData('iris, averaged, depth 3', fitForest(iris, { trees: 100, seed: 2, maxDepth: 3 }), iris),
  fromData('iris, majority, depth 3', fitForest(iris, { trees: 100, seed: 4, vote: 'majority', maxDepth: 3 }), iris),
  fromData(
    'house-votes-84, extra trees, depth 3',
    fitForest(votes, { forest: 'extra-trees', trees: 100, seed: 6, maxDepth: 3, missing: 'majority' }),
    votes,
  ),
  fromData('iris, averaged, unlimited depth', fitForest(iris, { trees: 100, seed: 2 }), iris),
  fromData(
    'iris with a categorical feature and missing values, unlimited depth',
    fitForest(mixed, { trees: 100, seed: 8, missing: 'majority' }),
    mixed,
  ),
];
CASES.push(unclassifiedForest(CASES[0].forest));

type Score = (c: ForestCase, sql: string) => Promise<Scored>;

async function checkAll(dialect: SqlDialect, score: Score, cases = CASES): Promise<void> {
  const failures: string[] = [];
  for (const c of cases) {
    const { sql } = forestToSql(c.forest, { dialect, table: 'grove_rows', proba: true });
    const mismatch = firstMismatch(c.expected, await score(c, sql), c.forest.classes.length, 1e-12);
    if (mismatch) failures.push(`${c.name} (${dialect}): ${mismatch}`);
  }
  expect(failures).toEqual([]);
}

const classes = (c: ForestCase) => c.forest.classes.map(String);

describe('forest SQL export', () => {
  it('has 100-tree forests with categorical features, missing values and unclassified rows', () => {
    expect(CASES.slice(0, 5).every((c) => c.forest.trees.length === 100)).toBe(true);
    expect(CASES[2].columns.some((c) => c.kind === 'string' && c.values.includes(null))).toBe(true);
    const mixedColumns = CASES[4].columns;
    expect(mixedColumns.some((c) => c.kind === 'string' && c.values.includes(null))).toBe(true);
    expect(mixedColumns.some((c) => c.kind === 'number' && c.values.includes(null))).toBe(true);
    expect(CASES[5].expected.labels).toContain('unclassified');
  });

  it('DuckDB', async () => {
    const db = await duckdb();
    try {
      await checkAll(
        'duckdb',
        (c, sql) => scoreDuckdb(db.connection, 'grove_rows', sql, c.columns, c.nRows, classes(c)),
        CASES,
      );
    } finally {
      db.close();
    }
  }, 60_000);

  describe('PostgreSQL', () => {
    const { unavailable, client } = usePostgres('the PostgreSQL forest export checks');
    it.skipIf(unavailable !== undefined)(
      'scores every forest',
      async () => {
        await checkAll(
          'postgres',
          (c, sql) => scorePostgres(client(), 'grove_rows', sql, c.columns, c.nRows, classes(c)),
          CASES,
        );
      },
      60_000,
    );
  });

  describe('ClickHouse', () => {
    const { unavailable, url } = useClickHouse('the ClickHouse forest export checks');
    it.skipIf(unavailable !== undefined)(
      'scores every forest',
      async () => {
        await checkAll('clickhouse', (c, sql) =>
          scoreClickhouse(url(), 'grove_rows', sql, c.columns, c.nRows, classes(c)),
        );
      },
      60_000,
    );
  });

  it('refuses what is not a forest, and bad options', () => {
    expect(() => forestToSql({} as Forest, { dialect: 'duckdb', table: 't' })).toThrow(GroveError);
    expect(() => forestToSql(CASES[0].forest, { dialect: 'mysql' as SqlDialect, table: 't' })).toThrow(/dialect/);
  });
});
