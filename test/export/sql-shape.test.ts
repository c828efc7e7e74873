/**
 * The SQL walk's shape on hand-made models the corpus may not produce: a tree 300 levels tall
 * (the query nests one subquery or lambda per level; 60 for ClickHouse), a C-MBSV multi-threshold node whose missing
 * branch is a middle one (a chain of binary steps) next to an unclassified region, an ordered
 * feature (walked by value code), a subset split, and a model that is a single leaf. Each is scored
 * in DuckDB (embedded), PostgreSQL and ClickHouse (started here, skipped only when absent) and
 * must equal grove predict.
 */
import { describe, expect, it } from 'vitest';
import { portableTree } from '../../src/export/portable.js';
import { levelTables } from '../../src/export/sql/levels.js';
import { treeToSql } from '../../src/export/sql/query.js';
import type { SqlDialect } from '../../src/index.js';
import type { DecisionTree, TreeNode } from '../../src/node.js';
import { duckdb, scoreClickhouse, scoreDuckdb, scorePostgres, useClickHouse, usePostgres } from './engines.js';
import { handModel, leaf } from './models.js';
import { firstMismatch, type PlainColumn, type Scored } from './rows.js';

interface Model {
  name: string;
  tree: DecisionTree;
  columns: PlainColumn[];
  n: number;
}

/** grove's scores of plain rows (an unclassified row: label `unclassified`, NaN probabilities). */
function groveOf(m: Model): Scored {
  const rows = Array.from({ length: m.n }, (_, i) => m.columns.map((c) => c.values[i]));
  const labels = m.tree.predict(rows).map((l) => (l === null ? 'unclassified' : String(l)));
  const proba = m.tree.predictProbaFlat(rows);
  const k = m.tree.classes.length;
  labels.forEach((l, i) => {
    if (l === 'unclassified') proba.fill(NaN, i * k, i * k + k);
  });
  return { labels, proba };
}

// x ≤ 1 | ≤ 2 (unclassified) | ≤ 3 | > 3, missing → branch 2; then a subset split and an ordered one.
const mixed = handModel(
  [
    { name: 'x', kind: 'numeric' },
    { name: 'o', kind: 'numeric', levels: ['low', 'mid', 'high'] },
    { name: 'c', kind: 'categorical', categories: ['a', 'b', 'c'] },
  ],
  ['p', 'q', 'r'],
  [
    {
      counts: [6, 6, 4],
      n: 16,
      depth: 0,
      split: { kind: 'numeric', feature: 0, thresholds: [1, 2, 3] },
      children: [1, 2, 3, 4],
      missingBranch: 2,
    },
    leaf([3, 0, 0]),
    { counts: [0, 0, 0], n: 0, depth: 1, unclassified: true },
    {
      counts: [0, 2, 3],
      n: 5,
      depth: 1,
      split: { kind: 'subset', feature: 2, left: [0], right: [1, 2] },
      children: [5, 6],
      missingBranch: 0,
    },
    {
      counts: [3, 4, 1],
      n: 8,
      depth: 1,
      split: { kind: 'numeric', feature: 1, thresholds: [1, 2] },
      children: [7, 8, 9],
      missingBranch: 1,
    },
    leaf([0, 2, 1], 2),
    leaf([0, 0, 2], 2),
    leaf([1, 1, 0], 2),
    leaf([0, 3, 0], 2),
    leaf([2, 0, 1], 2),
  ],
);
const xs = [null, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 10];
const os = ['low', 'mid', 'high', null, 'unknown'];
const cs = ['a', 'b', 'c', null, 'zzz'];
const grid = xs.flatMap((x) => os.flatMap((o) => cs.map((c) => [x, o, c] as const)));

/** A caterpillar `height` levels tall: node 2k tests x ≤ k (leaf on the left), missing → the leaf. */
function deepModel(height: number): DecisionTree {
  const nodes: TreeNode[] = [];
  for (let k = 0; k < height; k++) {
    nodes.push({
      counts: [height - k, height - k + 1],
      n: 2 * (height - k) + 1,
      depth: k,
      split: { kind: 'numeric', feature: 0, thresholds: [k] },
      children: [2 * k + 1, 2 * k + 2],
      missingBranch: 0,
    });
    nodes.push(leaf(k % 2 === 0 ? [2, 1] : [1, 3], k + 1));
  }
  nodes.push(leaf([0, 5], height));
  return handModel([{ name: 'x', kind: 'numeric' }], ['even', 'odd'], nodes);
}
const HEIGHT = 300;
// ClickHouse 18.16's analysis of nested lambdas grows steeply with the height (docs/export.md).
const CLICKHOUSE_HEIGHT = 60;
const deepX = [null, -1, 0.5, 7, 7.5, 59, 59.5, 150, 299, 299.5, 1e6];

const MODELS: Model[] = [
  {
    name: 'mixed',
    tree: mixed,
    n: grid.length,
    columns: [
      { name: 'x', kind: 'number', values: grid.map((r) => r[0]) },
      { name: 'o', kind: 'string', values: grid.map((r) => r[1]) },
      { name: 'c', kind: 'string', values: grid.map((r) => r[2]) },
    ],
  },
  { name: 'deep', tree: deepModel(HEIGHT), n: deepX.length, columns: [{ name: 'x', kind: 'number', values: deepX }] },
  {
    name: 'deep for ClickHouse',
    tree: deepModel(CLICKHOUSE_HEIGHT),
    n: deepX.length,
    columns: [{ name: 'x', kind: 'number', values: deepX }],
  },
  {
    // NaN stored in a float column is missing to grove; SQL engines order it (DuckDB and PostgreSQL above every number).
    name: 'NaN in a float column',
    tree: mixed,
    n: grid.length,
    columns: [
      { name: 'x', kind: 'number', values: grid.map((r) => r[0] ?? NaN) },
      { name: 'o', kind: 'string', values: grid.map((r) => r[1]) },
      { name: 'c', kind: 'string', values: grid.map((r) => r[2]) },
    ],
  },
  {
    name: 'single leaf',
    tree: handModel([{ name: 'x', kind: 'numeric' }], ['a', 'b'], [{ counts: [1, 3], n: 4, depth: 0 }]),
    n: 3,
    columns: [{ name: 'x', kind: 'number', values: [null, 1, 2] }],
  },
];

type Scorer = (m: Model, sql: string) => Promise<Scored>;

async function expectAll(dialect: SqlDialect, score: Scorer): Promise<void> {
  const failures: string[] = [];
  for (const m of MODELS) {
    if (m.name === (dialect === 'clickhouse' ? 'deep' : 'deep for ClickHouse')) continue;
    const sql = treeToSql(m.tree, { dialect, table: 'grove_rows', proba: true }).sql;
    const mismatch = firstMismatch(groveOf(m), await score(m, sql), m.tree.classes.length);
    if (mismatch) failures.push(`${m.name}: ${mismatch}`);
  }
  expect(failures).toEqual([]);
}

const classesOf = (m: Model): string[] => m.tree.classes.map(String);

it('the rows reach every leaf of the mixed model, and the deep model is walked in 300 levels', () => {
  const labels = new Set(groveOf(MODELS[0]).labels);
  expect(labels).toEqual(new Set(['p', 'q', 'r', 'unclassified']));
  expect(levelTables(portableTree(MODELS[1].tree, 'SQL')).levels).toHaveLength(HEIGHT);
  // x's three thresholds are three binary steps: the mixed model's walk has 4 levels.
  expect(levelTables(portableTree(mixed, 'SQL')).levels).toHaveLength(4);
});

it('DuckDB', async () => {
  const db = await duckdb();
  try {
    await expectAll('duckdb', (m, sql) => scoreDuckdb(db.connection, 'grove_rows', sql, m.columns, m.n, classesOf(m)));
  } finally {
    db.close();
  }
});

describe('PostgreSQL', () => {
  const { unavailable, client } = usePostgres('the PostgreSQL checks');
  it.skipIf(unavailable !== undefined)('scores as grove', async () => {
    await expectAll('postgres', (m, sql) => scorePostgres(client(), 'grove_rows', sql, m.columns, m.n, classesOf(m)));
  });
});

describe('ClickHouse', () => {
  const { unavailable, url } = useClickHouse('the ClickHouse checks');
  it.skipIf(unavailable !== undefined)(
    'scores as grove',
    async () => {
      await expectAll('clickhouse', (m, sql) =>
        scoreClickhouse(url(), 'grove_rows', sql, m.columns, m.n, classesOf(m)),
      );
    },
    60_000,
  );
});
