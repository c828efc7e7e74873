/**
 * `grove evaluate`, `grove cv` and fit's accuracies, through the BUILT binary (run `npm run build`
 * first; `npm test` does). Figures are checked against other commands' outputs (predict, compare).
 */

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, type CliResult, grove, parseCsv, repoRoot } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'grove-evaluate-'));
const tmp = (name: string): string => join(dir, name);
const IRIS = join(repoRoot, 'data/iris.csv');
const MODEL = tmp('iris-stump.json');

function ok(r: CliResult): CliResult {
  expect(r.status, `stderr:\n${r.stderr}`).toBe(0);
  return r;
}

beforeAll(() => {
  assertBuilt();
  ok(grove(['fit', IRIS, '--max-depth', '2', '--prune', 'none', '--out', MODEL]));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('grove evaluate', () => {
  it("--json: the confusion matrix is what predict's output against the data's labels gives", () => {
    const e = JSON.parse(ok(grove(['evaluate', '--model', MODEL, IRIS, '--json'])).stdout);
    const predicted = parseCsv(ok(grove(['predict', '--model', MODEL, IRIS])).stdout)
      .slice(1)
      .map((r) => r[0]);
    const actual = parseCsv(readFileSync(IRIS, 'utf8'))
      .slice(1)
      .map((r) => r[4]);
    const labels: string[] = e.labels;
    const confusion = labels.map(() => labels.map(() => 0));
    actual.forEach((a, i) => confusion[labels.indexOf(a)][labels.indexOf(predicted[i])]++);
    expect(e.confusion).toEqual(confusion);
    const right = actual.filter((a, i) => a === predicted[i]).length;
    expect(e.accuracy).toBeCloseTo(right / 150, 12);
    expect(e.rows).toBe(150);
    expect(e.perClass.map((c: { support: number }) => c.support)).toEqual([50, 50, 50]);
    // Balanced: every class has 50 rows, so balanced accuracy equals accuracy.
    expect(e.balancedAccuracy).toBeCloseTo(e.accuracy, 12);
    expect(e.logLoss).toBeGreaterThan(0);
  });

  it('text: headline figures, a per-class table and the confusion matrix', () => {
    const r = ok(grove(['evaluate', '--model', MODEL, IRIS]));
    const e = JSON.parse(ok(grove(['evaluate', '--model', MODEL, IRIS, '--json'])).stdout);
    expect(r.stdout).toContain(`accuracy          ${e.accuracy.toFixed(4)}`);
    expect(r.stdout).toMatch(/^class\s+precision\s+recall\s+F1\s+support\s+predicted$/m);
    expect(r.stdout).toMatch(/confusion matrix \(rows: actual class, columns: predicted class\)/);
    expect(r.stdout).toMatch(new RegExp(`^Iris-setosa\\s+${e.confusion[0].join('\\s+')}$`, 'm'));
  });

  it('classes the model never saw are reported and counted as errors', () => {
    const text = readFileSync(IRIS, 'utf8').replace(/Iris-virginica/g, 'Iris-unknown');
    const file = tmp('iris-unseen.csv');
    writeFileSync(file, text);
    const r = ok(grove(['evaluate', '--model', MODEL, file, '--json']));
    expect(r.stderr).toMatch(/warning: 50 rows have classes the model never saw \('Iris-unknown'\): counted as errors/);
    const e = JSON.parse(r.stdout);
    expect(e.unseenClasses).toEqual(['Iris-unknown']);
    expect(e.labels).toHaveLength(4);
    const seen = JSON.parse(ok(grove(['evaluate', '--model', MODEL, IRIS, '--json'])).stdout);
    // The 100 setosa and versicolor rows are predicted as before; the 50 others are all wrong.
    const correctBefore = seen.confusion[0][0] + seen.confusion[1][1];
    expect(e.accuracy).toBeCloseTo(correctBefore / 150, 12);
  });

  it('bad input: a missing model flag or file is one line, exit 2', () => {
    const r = grove(['evaluate', IRIS]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--model/);
    const s = grove(['evaluate', '--model', tmp('nope.json'), IRIS]);
    expect(s.status).toBe(2);
    expect(s.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('grove cv', () => {
  it("per-fold accuracies equal compare's for the same configuration, folds, repeats and seed", () => {
    const cv = JSON.parse(
      ok(grove(['cv', IRIS, '--folds', '4', '--repeats', '2', '--fold-seed', '3', '--json'])).stdout,
    );
    const results = tmp('compare.json');
    ok(
      grove([
        'compare',
        '--data',
        IRIS,
        '--configs',
        'mine:algorithm=cart',
        '--algorithms',
        'cart',
        '--folds',
        '4',
        '--repeats',
        '2',
        '--seed',
        '3',
        '--jobs',
        '1',
        '--no-models',
        '--no-progress',
        '--json',
        results,
      ]),
    );
    const compared = JSON.parse(readFileSync(results, 'utf8')).folds.filter(
      (f: { config: string }) => f.config === 'mine',
    );
    const key = (f: { repeat: number; fold: number }) => f.repeat * 100 + f.fold;
    compared.sort((a: { repeat: number; fold: number }, b: { repeat: number; fold: number }) => key(a) - key(b));
    expect(cv.folds.map((f: { testAccuracy: number }) => f.testAccuracy)).toEqual(
      compared.map((f: { testAccuracy: number }) => f.testAccuracy),
    );
    const mean = cv.folds.reduce((a: number, f: { testAccuracy: number }) => a + f.testAccuracy, 0) / 8;
    expect(cv.summary.testAccuracy.mean).toBeCloseTo(mean, 12);
    // The pooled confusion matrix: every test row of every fold (150 rows × 2 repeats), the diagonal the correct ones.
    const { labels, matrix } = cv.confusion as { labels: string[]; matrix: number[][] };
    expect(labels).toEqual(['Iris-setosa', 'Iris-versicolor', 'Iris-virginica']);
    expect(matrix.flat().reduce((a, b) => a + b, 0)).toBe(300);
    const right = cv.folds.reduce(
      (a: number, f: { testAccuracy: number; testRows: number }) => a + f.testAccuracy * f.testRows,
      0,
    );
    expect(matrix[0][0] + matrix[1][1] + matrix[2][2]).toBe(Math.round(right));
    expect(compared.map((f: { confusion: number[][] }) => f.confusion)).toEqual(
      cv.folds.map((f: { confusion: number[][] }) => f.confusion),
    );
  });

  it('text: a per-fold table and mean ± sd lines; fit flags shape the trees', () => {
    const r = ok(grove(['cv', IRIS, '--folds', '3', '--max-depth', '1']));
    expect(r.stdout).toMatch(/^fold\s+train rows\s+test rows\s+test accuracy\s+train accuracy\s+leaves\s+height$/m);
    expect(r.stdout).toMatch(/^test accuracy\s+\d\.\d{4} ± \d\.\d{4}\s+\(mean ± sd over 3 folds\)$/m);
    // A depth-1 tree has 2 leaves in every fold.
    expect(r.stdout).toMatch(/^leaves\s+2\.0 ± 0\.0$/m);
    // The test rows of every fold by actual and predicted class, labelled.
    expect(r.stdout).toMatch(
      /^confusion matrix of the test rows over every fold \(rows: actual class, columns: predicted class\)\n\s+Iris-setosa\s+Iris-versicolor\s+Iris-virginica\nIris-setosa\s+50\s+0\s+0$/m,
    );
    const bad = grove(['cv', IRIS, '--folds', '1']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--folds/);
  });
});

describe('grove fit: accuracies in the summary', () => {
  it('training accuracy always; --test FILE adds held-out accuracy (equal to evaluate on that file)', () => {
    const out = tmp('fit-test.json');
    const r = ok(grove(['fit', IRIS, '--max-depth', '2', '--prune', 'none', '--test', IRIS, '--out', out]));
    const e = JSON.parse(ok(grove(['evaluate', '--model', out, IRIS, '--json'])).stdout);
    expect(r.stderr).toContain(`training accuracy ${e.accuracy.toFixed(4)}`);
    expect(r.stderr).toContain(`held-out accuracy ${e.accuracy.toFixed(4)} on 150 rows`);
  });

  it('--test-fraction grows on the rest (stratified) and reports both; no --out prints the tree', () => {
    const r = ok(grove(['fit', IRIS, '--test-fraction', '0.2']));
    expect(r.stderr).toMatch(
      /on 120 of 150 rows: .*training accuracy \d\.\d{4}; held-out accuracy \d\.\d{4} on 30 rows$/m,
    );
    expect(r.stdout).toMatch(/^petal-/m);
    expect(r.stdout).toMatch(/Number of leaves: \d+/);
    for (const bad of [
      ['--test-fraction', '0'],
      ['--test-fraction', '1'],
      ['--test-fraction', 'x'],
    ]) {
      const b = grove(['fit', IRIS, ...bad]);
      expect(b.status).toBe(2);
      expect(b.stderr).toMatch(/--test-fraction/);
    }
    const both = grove(['fit', IRIS, '--test', IRIS, '--test-fraction', '0.5']);
    expect(both.status).toBe(2);
    expect(both.stderr).toMatch(/--test or --test-fraction, not both/);
  });

  it('plural forms: a single leaf is "1 node, 1 leaf"', () => {
    const r = ok(grove(['fit', IRIS, '--min-split', '1000', '--out', tmp('leaf.json')]));
    expect(r.stderr).toMatch(/1 node, 1 leaf, height 0/);
  });
});

describe('labels keep their text through fit and predict', () => {
  it('01, 1 and 1.0 are three classes, in memory and in DuckDB, and predict returns them as written', () => {
    const file = tmp('labels.csv');
    writeFileSync(file, 'x,y\n1,01\n2,01\n3,01\n4,1\n5,1\n6,1\n7,1.0\n8,1.0\n');
    const memory = tmp('labels.json');
    const duckdb = tmp('labels-duckdb.json');
    ok(grove(['fit', file, '--prune', 'none', '--out', memory]));
    ok(grove(['fit', file, '--prune', 'none', '--engine', 'duckdb', '--out', duckdb]));
    for (const model of [memory, duckdb])
      expect(JSON.parse(readFileSync(model, 'utf8')).classes).toEqual(['01', '1', '1.0']);
    const predicted = parseCsv(ok(grove(['predict', '--model', memory, file])).stdout)
      .slice(1)
      .map((r) => r[0]);
    expect(predicted).toEqual(['01', '01', '01', '1', '1', '1', '1.0', '1.0']);
  });
});
