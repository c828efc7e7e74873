/**
 * grove fit --forest, show, predict and export with forest models (the built CLI): the forest
 * file is written and read back, and bad flags or damaged files get one line and exit 2.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/core/random.js';
import { duckdb, scoreDuckdb, scoreOnnx } from '../export/engines.js';
import { firstMismatch, type PlainColumn, type Scored } from '../export/rows.js';
import { assertBuilt, grove } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'grove-forest-cli-'));
const DATA = join(dir, 'train.csv');

/** 150 rows, 4 numeric features (two informative), 3 classes. */
function writeData(): void {
  const random = mulberry32(4);
  const lines = ['x0,x1,x2,x3,y'];
  for (let i = 0; i < 150; i++) {
    const y = i % 3;
    const x = [y + random() * 1.5, y * 2 + random() * 2, random(), random()].map((v) => v.toFixed(3));
    lines.push(`${x.join(',')},${['a', 'b', 'c'][y]}`);
  }
  writeFileSync(DATA, `${lines.join('\n')}\n`);
}
const MODEL = join(dir, 'rf.grove');

describe('grove with forests', () => {
  beforeAll(() => {
    assertBuilt();
    writeData();
    const r = grove(['fit', DATA, '--forest', 'random-forest', '--trees', '12', '--oob', '--out', MODEL]);
    expect(r.stderr).toMatch(/random-forest of 12 cart trees \(gini\) on 150 rows: .*out-of-bag accuracy 0\.\d+ → /);
    expect(r.status).toBe(0);
  });

  it('show prints the summary, one tree with --tree, stats as JSON', () => {
    const summary = grove(['show', MODEL]);
    expect(summary.status).toBe(0);
    expect(summary.stdout).toMatch(/^random-forest of 12 cart trees \(gini\), bootstrap/);
    expect(summary.stdout).toMatch(/out-of-bag accuracy: 0\.\d+ \(\d+ rows\)/);
    expect(summary.stdout).toMatch(/importances \(mean decrease in impurity\), top 4:/);
    const tree = grove(['show', MODEL, '--tree', '3', '--format', 'rules']);
    expect(tree.status).toBe(0);
    expect(tree.stdout).toMatch(/^R1: IF /m);
    expect(JSON.parse(grove(['show', MODEL, '--format', 'stats']).stdout).trees).toBe(12);
    const out = grove(['show', MODEL, '--tree', '12']);
    expect(out.status).toBe(2);
    expect(out.stderr).toMatch(/--tree 12: the forest has 12 trees/);
  });

  it('predict writes a label and probabilities per row; export --format json writes every tree', () => {
    const r = grove(['predict', DATA, '--model', MODEL, '--proba']);
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(151);
    const [label, ...p] = lines[1].split(',');
    expect(label).toMatch(/^[abc]$/);
    expect(p.map(Number).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 4);
    const json = join(dir, 'rf.json');
    expect(grove(['export', MODEL, '--format', 'json', '--out', json]).status).toBe(0);
    const parsed = JSON.parse(readFileSync(json, 'utf8'));
    expect(parsed.format).toBe('grove-forest-json');
    expect(parsed.trees).toHaveLength(12);
    expect(parsed.trees[0].nodes[0].counts).toHaveLength(3);
  });

  it('predict --threads 2 writes what --threads 1 writes (40,000 rows: several blocks); --threads 0 is refused', () => {
    const random = mulberry32(9);
    const lines = ['x0,x1,x2,x3'];
    for (let i = 0; i < 40000; i++) lines.push([3 * random(), 6 * random(), random(), random()].map(String).join(','));
    const rows = join(dir, 'many.csv');
    writeFileSync(rows, `${lines.join('\n')}\n`);
    const one = grove(['predict', rows, '--model', MODEL, '--proba', '--threads', '1']);
    const two = grove(['predict', rows, '--model', MODEL, '--proba', '--threads', '2']);
    expect(one.status).toBe(0);
    expect(one.stdout.split('\n')).toHaveLength(40002);
    expect(two.stdout).toBe(one.stdout);
    const bad = grove(['predict', rows, '--model', MODEL, '--threads', '0']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--threads expects an integer ≥ 1 or 'auto'/);
  });

  it('export --format onnx and sql score as predict --proba does (ONNX Runtime, DuckDB)', async () => {
    const predicted = grove(['predict', DATA, '--model', MODEL, '--proba']).stdout.trim().split('\n').slice(1);
    const expected: Scored = {
      labels: predicted.map((l) => l.split(',')[0]),
      proba: Float64Array.from(predicted.flatMap((l) => l.split(',').slice(1).map(Number))),
    };
    const rows = readFileSync(DATA, 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(','));
    const columns: PlainColumn[] = ['x0', 'x1', 'x2', 'x3'].map((name, j) => ({
      name,
      kind: 'number',
      values: rows.map((r) => Number(r[j])),
    }));
    const onnx = join(dir, 'rf.onnx');
    expect(grove(['export', MODEL, '--format', 'onnx', '--out', onnx]).status).toBe(0);
    // The features have three decimals: float32 rounding moves none of them across a threshold here.
    expect(firstMismatch(expected, await scoreOnnx(readFileSync(onnx), columns, rows.length), 3)).toBeUndefined();
    const sql = grove(['export', MODEL, '--format', 'sql', '--dialect', 'duckdb', '--table', 'grove_rows', '--proba']);
    expect(sql.status).toBe(0);
    const db = await duckdb();
    try {
      const got = await scoreDuckdb(db.connection, 'grove_rows', sql.stdout, columns, rows.length, ['a', 'b', 'c']);
      // predict writes 6 significant digits; sql-forest.test.ts checks the query's own doubles to 1e-12.
      expect(firstMismatch(expected, got, 3)).toBeUndefined();
    } finally {
      db.close();
    }
  });

  it('refuses bad forest flags and damaged files with one line, exit 2, nothing written', () => {
    const out = join(dir, 'never.grove');
    for (const [args, message] of [
      [['--trees', '0'], /--trees/],
      [['--forest', 'extra-trees', '--oob'], /--oob needs the bootstrap/],
      [['--max-samples', '151'], /--max-samples is 151, more than the data's 150 rows/],
    ] as const) {
      const r = grove(['fit', DATA, ...args, '--out', out]);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(() => readFileSync(out)).toThrow();
    const bytes = readFileSync(MODEL);
    const damaged = join(dir, 'damaged.grove');
    const copy = Buffer.from(bytes);
    copy[copy.length - 5] ^= 1;
    writeFileSync(damaged, copy);
    const r = grove(['predict', DATA, '--model', damaged]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/damaged\.grove.*not a valid grove forest file: damaged or truncated/);
    const leaf = grove(['predict', DATA, '--model', MODEL, '--leaf']);
    expect(leaf.status).toBe(2);
    expect(leaf.stderr).toMatch(/--leaf and --path describe one tree/);
  });
});
