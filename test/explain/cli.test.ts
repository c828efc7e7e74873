/**
 * `grove explain` through the built CLI: contributions (wide and long, CSV and Parquet) that add
 * up to `grove predict --proba`, the summary, the partial dependence curve, and the errors.
 * Run `npm run build` first (`npm test` does).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partialDependence } from '../../src/explain/partial.js';
import { loadModel } from '../../src/io/model-file.js';
import { readDataset } from '../../src/sources/file-source.js';
import { assertBuilt, grove, lines, parseCsv } from '../helpers/cli.js';
import { rowsOf, synthetic } from './synthetic.js';

const dir = mkdtempSync(join(tmpdir(), 'grove-explain-'));
const tmp = (name: string) => join(dir, name);
const DATA = tmp('data.csv');
const MODEL = tmp('model.json');

beforeAll(() => {
  assertBuilt();
  const data = synthetic(200, 11, 0.1);
  const rows = rowsOf(data);
  const names = data.features.map((f) => f.name);
  const text = [
    [...names, 'y'].join(','),
    ...rows.map((r, i) =>
      [...names.map((n) => (r[n] === null ? '' : String(r[n]))), data.classes[data.labels[i]]].join(','),
    ),
  ];
  writeFileSync(DATA, `${text.join('\n')}\n`);
  const fitted = grove(['fit', DATA, '--algorithm', 'c45', '--out', MODEL]);
  expect(fitted.status, fitted.stderr).toBe(0);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** CSV text to a header and numeric rows. */
function table(text: string): { header: string[]; rows: number[][] } {
  const [header, ...rows] = parseCsv(text);
  return { header, rows: rows.map((r) => r.map(Number)) };
}

describe('grove explain', () => {
  it('writes contributions that add up to the predicted probabilities, wide and long', () => {
    const wide = grove(['explain', '--model', MODEL, DATA]);
    expect(wide.status, wide.stderr).toBe(0);
    const predicted = table(grove(['predict', '--model', MODEL, DATA, '--proba']).stdout);
    const { header, rows } = table(wide.stdout);
    const classes = predicted.header.slice(1);
    expect(header).toEqual(
      classes.flatMap((c) => [`${c}:(base)`, ...['x0', 'x1', 'c0', 'c1', 'x2'].map((f) => `${c}:${f}`)]),
    );
    expect(rows.length).toBe(200);
    rows.forEach((row, i) =>
      classes.forEach((_, c) => {
        const sum = row.slice(c * 6, c * 6 + 6).reduce((a, b) => a + b, 0);
        expect(Math.abs(sum - predicted.rows[i][c + 1])).toBeLessThan(1e-5); // predict writes 6 digits
      }),
    );
    const long = grove(['explain', '--model', MODEL, DATA, '--format', 'long']);
    const [head, ...cells] = parseCsv(long.stdout);
    expect(head).toEqual(['row', 'class', 'feature', 'contribution']);
    expect(cells.length).toBe(200 * classes.length * 6);
    expect(cells[0]).toEqual(['1', classes[0], '(base)', String(rows[0][0])]);
    cells.forEach((cell, n) => expect(Number(cell[3])).toBe(rows[Number(cell[0]) - 1][n % (classes.length * 6)]));
  });

  it('explains a forest, adding up to its predicted probabilities', () => {
    const model = tmp('forest.json');
    const fitted = grove(['fit', DATA, '--trees', '5', '--max-depth', '4', '--out', model]);
    expect(fitted.status, fitted.stderr).toBe(0);
    const predicted = table(grove(['predict', '--model', model, DATA, '--proba']).stdout);
    const r = grove(['explain', '--model', model, DATA]);
    expect(r.status, r.stderr).toBe(0);
    const { rows } = table(r.stdout);
    rows.forEach((row, i) =>
      predicted.header.slice(1).forEach((_, c) => {
        const sum = row.slice(c * 6, c * 6 + 6).reduce((a, b) => a + b, 0);
        expect(Math.abs(sum - predicted.rows[i][c + 1])).toBeLessThan(1e-5);
      }),
    );
  });

  it('writes the same contributions on 1 and 2 threads, and refuses a bad --threads', () => {
    const one = grove(['explain', '--model', MODEL, DATA, '--threads', '1']);
    const two = grove(['explain', '--model', MODEL, DATA, '--threads', '2']);
    expect(one.status, one.stderr).toBe(0);
    expect(two.stdout).toBe(one.stdout);
    const bad = grove(['explain', '--model', MODEL, DATA, '--threads', '0']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe("grove: option --threads expects an integer ≥ 1 or 'auto', got '0'\n");
    const partial = grove(['explain', '--model', MODEL, DATA, '--partial', 'x0', '--threads', '2']);
    expect(partial.status).toBe(2);
    expect(partial.stderr).toBe('grove: --threads applies to the contributions, not to --partial\n');
  });

  it('writes the same numbers to Parquet', async () => {
    const out = tmp('shap.parquet');
    expect(grove(['explain', '--model', MODEL, DATA, '--out', out]).status).toBe(0);
    const back = await readDataset(out, { noTarget: true });
    const csv = table(grove(['explain', '--model', MODEL, DATA]).stdout);
    expect(back.features.map((f) => f.name)).toEqual(csv.header);
    back.features.forEach((col, j) => {
      expect(col.kind).toBe('numeric');
      if (col.kind === 'numeric') expect(Array.from(col.values)).toEqual(csv.rows.map((r) => r[j]));
    });
  });

  it('prints the summary, and with --out writes the contributions too', () => {
    const out = tmp('with-summary.csv');
    const r = grove(['explain', '--model', MODEL, DATA, '--summary', '--out', out]);
    expect(r.status, r.stderr).toBe(0);
    const text = lines(r.stdout);
    expect(text[0]).toMatch(/^feature\s+mean \|contribution\|/);
    const totals = text.slice(1).map((l) => Number(l.trim().split(/\s+/)[1]));
    expect(totals.length).toBe(5);
    expect([...totals].sort((a, b) => b - a)).toEqual(totals);
    expect(totals[0]).toBeGreaterThan(0);
  });

  it('writes the partial dependence curve that partialDependence gives', async () => {
    const r = grove(['explain', '--model', MODEL, DATA, '--partial', 'x0']);
    expect(r.status, r.stderr).toBe(0);
    const { header, rows } = table(r.stdout);
    const tree = loadModel(MODEL);
    expect(header).toEqual(['x0', ...tree.classes.map(String)]);
    const data = await readDataset(DATA, { target: 'y' });
    const pd = partialDependence(tree, data, 'x0');
    expect(rows.map((row) => row[0])).toEqual(pd.grid);
    rows.forEach((row, g) => row.slice(1).forEach((p, c) => expect(p).toBe(pd.average[g * tree.classes.length + c])));
  });

  it('names the features for an unknown --partial feature, and refuses data without a feature as predict does', () => {
    const r = grove(['explain', '--model', MODEL, DATA, '--partial', 'nope']);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe("grove: --partial: unknown feature 'nope' (the model's features: x0, x1, c0, c1, x2)\n");
    const cut = tmp('cut.csv');
    writeFileSync(cut, 'x0,x1,c0\n1,2,a\n');
    const explained = grove(['explain', '--model', MODEL, cut]);
    const predicted = grove(['predict', '--model', MODEL, cut]);
    expect(explained.status).toBe(2);
    expect(explained.stderr).toBe(predicted.stderr);
    expect(lines(explained.stderr).length).toBe(1);
    const over = grove(['explain', '--model', MODEL, DATA, '--out', DATA]);
    expect(over.status).toBe(2);
    expect(lines(over.stderr).length).toBe(1);
  });
});
