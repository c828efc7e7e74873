/**
 * The report's explanation pictures: `grove compare` stores, per data set × configuration (trees
 * and forests), the numbers TreeSHAP and partial dependence give on the model fitted on all rows,
 * and the report draws them; results files without them still read, and the report omits the pictures.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { runComparison } from '../../src/compare/compare.js';
import {
  explainedRowCount,
  explanationSample,
  GRID_POINTS,
  MOST_ROWS,
  representativeRow,
} from '../../src/compare/explain-cell.js';
import { CellLog, cellLineKey, readCells } from '../../src/compare/store.js';
import { mulberry32 } from '../../src/core/random.js';
import { subsetRows } from '../../src/data/subset.js';
import { parseConfigs } from '../../src/eval/configs.js';
import * as crossValidate from '../../src/eval/cross-validate.js';
import { fitModel } from '../../src/eval/cross-validate.js';
import type { CompareResults } from '../../src/eval/results.js';
import { parseResults } from '../../src/eval/results-file.js';
import { partialDependence } from '../../src/explain/partial.js';
import { shapValues } from '../../src/explain/shap.js';
import { buildReport } from '../../src/report/index.js';
import { readDataset } from '../../src/sources/file-source.js';
import { root, tinyRun } from './tiny-run.js';

const CONFIGS = 'cart:algorithm=cart,prune=none;forest:forest=random-forest,trees=4,seed=3';

/** A seeded CSV of `rows` rows (two numeric features, one categorical, a noisy class of 3). */
function noisyCsv(dir: string, rows: number): string {
  const random = mulberry32(11);
  const lines = ['x,y,colour,class'];
  for (let i = 0; i < rows; i++) {
    const x = random() * 10;
    const y = random() * 10;
    const colour = ['red', 'green', 'blue'][Math.floor(random() * 3)];
    const score = x + (colour === 'red' ? 3 : 0) + random() * 4;
    lines.push(`${x.toFixed(3)},${y.toFixed(3)},${colour},${score < 5 ? 'a' : score < 9 ? 'b' : 'c'}`);
  }
  const file = join(dir, 'noisy.csv');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

let results: CompareResults;
let files: string[];

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'grove-why-'));
  files = [resolve(root, 'data/iris.csv'), noisyCsv(dir, 1200)];
  results = (await tinyRun(CONFIGS, files)).results;
}, 120_000);

describe('compare: explanations of each configuration', () => {
  it('holds, for a tree and a forest on every data set, what shapValues and partialDependence give', async () => {
    expect(results.explanations!.map((x) => `${x.dataset}/${x.config}`).sort()).toEqual([
      'iris/cart',
      'iris/forest',
      'noisy/cart',
      'noisy/forest',
    ]);
    for (const x of results.explanations!) {
      const data = await readDataset(files[x.dataset === 'iris' ? 0 : 1]);
      const config = results.configs.find((c) => c.label === x.config)!;
      const model = fitModel(data, config.options);
      // The rows: all of iris; a seeded sample of the larger set.
      const rows = explanationSample(data.nRows, explainedRowCount(model, data.nRows), results.settings.seed);
      expect(x.rows).toBe(rows.length);
      expect(x.rows).toBe(Math.min(data.nRows, MOST_ROWS));
      const sample = subsetRows(data, rows);
      const shap = shapValues(model, sample);
      const f = shap.features.length;
      const k = shap.classes.length;
      expect(x.features).toEqual(shap.features);
      expect(x.classes).toEqual(shap.classes.map(String));
      expect(x.expected).toEqual(Array.from(shap.expected));
      // Mean |SHAP| per feature and class, summed here row by row.
      for (let j = 0; j < f * k; j++) {
        let sum = 0;
        for (let i = 0; i < shap.nRows; i++) sum += Math.abs(shap.values[i * f * k + j]);
        expect(x.meanAbs[j]).toBeCloseTo(sum / shap.nRows, 12);
      }
      // The waterfall's row: its values, and they add up to its predicted probability.
      const at = rows.indexOf(x.row.index);
      expect(at).toBeGreaterThanOrEqual(0);
      expect({ row: at, class: x.row.class }).toEqual(representativeRow(shap));
      expect(x.row.contributions).toEqual(Array.from(shap.values.subarray(at * f * k, (at + 1) * f * k)));
      const proba = model.predictProbaFlat(subsetRows(data, [x.row.index]));
      const sum =
        x.expected[x.row.class] + x.row.contributions.reduce((a, v, j) => a + (j % k === x.row.class ? v : 0), 0);
      expect(sum).toBeCloseTo(proba[x.row.class], 9);
      // Partial dependence of the top features, by decreasing mean |SHAP|.
      expect(x.partial.length).toBeGreaterThan(0);
      const total = (name: string) => {
        const j = x.features.indexOf(name);
        return x.meanAbs.slice(j * k, (j + 1) * k).reduce((a, b) => a + b, 0);
      };
      for (let i = 1; i < x.partial.length; i++)
        expect(total(x.partial[i - 1].feature)).toBeGreaterThanOrEqual(total(x.partial[i].feature));
      for (const p of x.partial) {
        const pd = partialDependence(model, sample, p.feature, { gridResolution: GRID_POINTS });
        expect(p.grid).toEqual(pd.grid);
        expect(p.method).toBe(x.config === 'forest' ? 'brute' : 'recursion');
        expect(p.average).toEqual(Array.from(pd.average));
      }
    }
  }, 120_000);

  it('samples rows with the seed: distinct, increasing, the same for the same seed', () => {
    const a = explanationSample(1000, 100, 7);
    expect(Array.from(a)).toEqual(Array.from(explanationSample(1000, 100, 7)));
    expect(Array.from(a)).not.toEqual(Array.from(explanationSample(1000, 100, 8)));
    for (let i = 1; i < a.length; i++) expect(a[i]).toBeGreaterThan(a[i - 1]);
    expect(a[a.length - 1]).toBeLessThan(1000);
    expect(Array.from(explanationSample(5, 10, 1))).toEqual([0, 1, 2, 3, 4]);
  });
});

describe('report: explanation pictures', () => {
  it('draws each configuration’s summary, waterfall and curves as SVG', () => {
    const html = buildReport(results);
    expect(html).toContain('<a href="#why">Explanations</a>');
    const blocks = [
      ...html.matchAll(/<div class="why" data-dataset="(\w+)" data-config="(\w+)">([\s\S]*?)<\/div><\/div>/g),
    ];
    expect(blocks.map((b) => `${b[1]}/${b[2]}`)).toEqual(['iris/cart', 'iris/forest', 'noisy/cart', 'noisy/forest']);
    for (const [, dataset, config, body] of blocks) {
      const x = results.explanations!.find((e) => e.dataset === dataset && e.config === config)!;
      expect(body.match(/<svg class="chart shap-summary"/g)).toHaveLength(1);
      expect(body.match(/<svg class="chart shap-waterfall"/g)).toHaveLength(1);
      expect(body.match(/<svg class="chart partial-dependence"/g)).toHaveLength(x.partial.length);
      // The waterfall runs from the expected probability of its class to the row's prediction.
      const shown = body.match(/P\([^)]*\): (\d\.\d{3}) → (\d\.\d{3})/)!;
      expect(Number(shown[1])).toBeCloseTo(x.expected[x.row.class], 3);
    }
    expect(html).not.toMatch(/="[^"]*(NaN|Infinity)[^"]*"/);
  });

  it('reads a results file without explanations, and the report says there are none', () => {
    const { explanations: _, ...old } = JSON.parse(JSON.stringify(results));
    const parsed = parseResults(old);
    expect(parsed.explanations).toBeUndefined();
    const html = buildReport(parsed);
    expect(html).toContain('This results file holds no explanations');
    expect(html).not.toContain('shap-summary');
  });

  it('refuses an explanation whose numbers do not match its features and classes, in one line', () => {
    const bad = JSON.parse(JSON.stringify(results));
    bad.explanations[0].meanAbs.pop();
    expect(() => parseResults(bad, 'results.json')).toThrow(
      /^results\.json: corrupt results file: explanations\.0: meanAbs has/,
    );
  });
});

describe('compare: one fit on all rows per tree configuration', () => {
  it('a tree is fitted once for its model and its pictures; a resumed log without them adds only the pictures', async () => {
    // The all-rows fits, as the compare tasks call them (a fold's fit is evaluateFold's own).
    const fits = [vi.spyOn(crossValidate, 'fitAll'), vi.spyOn(crossValidate, 'fitModel')];
    const allRowsFits = () => fits.reduce((s, f) => s + f.mock.calls.length, 0);
    try {
      const run = await tinyRun(CONFIGS, files);
      // Per data set: the tree once (its model and its explanation), the forest once (its explanation).
      expect(allRowsFits()).toBe(2 * 2);
      // Cells per data set: 3 folds of each configuration, the tree's model and both explanations.
      expect(run.ran).toBe(2 * (3 + 3 + 1 + 2));
      const file = join(run.out, 'cells.jsonl');
      const lines = readFileSync(file, 'utf8').trim().split('\n');
      // Drop the explanations, as a log of the version before holds none, and resume.
      writeFileSync(file, `${lines.filter((l) => !l.includes('"explanation"')).join('\n')}\n`);
      const again = await runComparison({
        files,
        configs: parseConfigs(CONFIGS),
        folds: 3,
        repeats: 1,
        seed: 1,
        jobs: 1,
        out: run.out,
        progress: false,
        resume: true,
      });
      expect(again.ran).toBe(4);
      const kinds = readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => Object.keys(JSON.parse(l)).find((k) => k !== 'options'));
      expect(kinds.filter((k) => k === 'model')).toHaveLength(2);
      expect(kinds.filter((k) => k === 'explanation')).toHaveLength(4);
      expect(again.results.explanations).toEqual(results.explanations!.map((x) => ({ ...x, ms: expect.any(Number) })));
    } finally {
      for (const f of fits) f.mockRestore();
    }
  }, 120_000);
});

describe('cells log: explanations', () => {
  it('logs an explanation as its own line, read back on resume; a log of the version before still resumes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'grove-why-log-'));
    const x = results.explanations![0];
    const settings = results.settings;
    const log = new CellLog(dir, settings, results.datasets, []);
    log.append({ algorithm: 'cart' }, { explanation: x });
    log.close();
    const lines = readCells(dir, settings, results.datasets);
    expect(lines).toHaveLength(1);
    expect('explanation' in lines[0] && lines[0].explanation).toEqual(x);
    expect(cellLineKey(lines[0])).toContain('-2');
    const file = join(dir, 'cells.jsonl');
    const [header, ...rest] = readFileSync(file, 'utf8').split('\n');
    writeFileSync(file, [JSON.stringify({ ...JSON.parse(header), version: 2 }), ...rest].join('\n'));
    expect(readCells(dir, settings, results.datasets)).toHaveLength(1);
  });
});
