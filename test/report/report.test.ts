import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fit } from '../../src/algorithms/fit.js';
import { niceTicks } from '../../src/report/html.js';
import { buildReport, reportTree } from '../../src/report/index.js';
import { readDataset } from '../../src/sources/file-source.js';
import { root, separableCsv, tinyRun } from './tiny-run.js';

/** Every number in an SVG attribute or a style of the page (NaN or Infinity there breaks the drawing). */
function badNumbers(html: string): string[] {
  return html.match(/[a-z][a-z0-9-]*="[^"]*(NaN|Infinity)[^"]*"/g) ?? [];
}

describe('HTML report', () => {
  it('is one self-contained page: inline style and script, SVG charts, no external reference', async () => {
    const { results, analysis } = await tinyRun();
    const html = buildReport(results, analysis);
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toMatch(/<style>[\s\S]+<\/style>/);
    expect(html).not.toMatch(/<(script|img|link|iframe)[^>]+(src|href)=/i);
    // The SVG namespace names the pictures' vocabulary; nothing is fetched from it.
    expect(html.replaceAll('xmlns="http://www.w3.org/2000/svg"', '')).not.toMatch(/url\(|@import|https?:\/\//);
    expect(html.match(/<svg class="chart cd-diagram"/g)).toHaveLength(2);
    expect(html.match(/<svg class="chart scatter"/g)).toHaveLength(2);
    expect(html.match(/<svg class="chart bars"/g)).toHaveLength(2);
    expect(html.match(/<g class="point"/g)).toHaveLength(4);
    expect(html.match(/<g class="cd-label" data-config="(cart|dcsm)"/g)).toHaveLength(4);
    // The embedded trees: one per data set × configuration, parseable JSON.
    const embedded = JSON.parse(
      html.match(/<script type="application\/json" id="grove-trees">([\s\S]*?)<\/script>/)![1],
    );
    expect(embedded.map((t: { dataset: string; config: string }) => `${t.dataset}/${t.config}`)).toEqual([
      'iris/cart',
      'iris/dcsm',
      'wine/cart',
      'wine/dcsm',
    ]);
    // The same report from the results alone (what `grove report` does).
    expect(buildReport(results)).toBe(html);
  });

  it("shows each configuration's cross-validated confusion matrix per data set, with the class labels", async () => {
    const { results, analysis } = await tinyRun();
    const html = buildReport(results, analysis);
    expect(html).toContain('<a href="#confusion">Confusion matrices</a>');
    const tables = [
      ...html.matchAll(/<table class="confusion-matrix" data-dataset="(\w+)" data-config="(\w+)">([\s\S]*?)<\/table>/g),
    ];
    expect(tables.map((t) => `${t[1]}/${t[2]}`)).toEqual(['iris/cart', 'iris/dcsm', 'wine/cart', 'wine/dcsm']);
    const iris = results.datasets.find((d) => d.name === 'iris')!;
    expect(iris.classLabels).toEqual(['Iris-setosa', 'Iris-versicolor', 'Iris-virginica']);
    for (const [, dataset, config, body] of tables) {
      const folds = results.folds.filter((f) => f.dataset === dataset && f.config === config);
      const counts = [...body.matchAll(/<td[^>]*>(\d+)<\/td>/g)].map((m) => Number(m[1]));
      const k = results.datasets.find((d) => d.name === dataset)!.classes;
      expect(counts).toHaveLength(k * k);
      // Every test row once; the diagonal is the rows each fold's accuracy counts.
      expect(counts.reduce((a, b) => a + b, 0)).toBe(folds.reduce((a, f) => a + f.testRows, 0));
      const diagonal = counts.filter((_, i) => i % (k + 1) === 0).reduce((a, b) => a + b, 0);
      expect(diagonal).toBe(Math.round(folds.reduce((a, f) => a + f.testAccuracy * f.testRows, 0)));
    }
    expect(tables[0][3]).toMatch(/<th>actual \\ predicted<\/th><th>Iris-setosa<\/th><th>Iris-versicolor<\/th>/);
    // A results file of an earlier grove, without the matrices, says so instead.
    const old = { ...results, folds: results.folds.map(({ confusion: _c, ...f }) => f) };
    expect(buildReport(old)).toMatch(/records no confusion matrices/);
  });

  it('escapes every name it shows, inside markup and inside the embedded JSON', async () => {
    const { results } = await tinyRun(
      `[{"label": "<b>x</b> & \\"y\\"", "algorithm": "cart"}, {"label": "</script><i>", "algorithm": "c45"}]`,
    );
    const html = buildReport(results);
    expect(html).not.toContain('<b>x</b>');
    expect(html).toContain('&lt;b&gt;x&lt;/b&gt; &amp; &quot;y&quot;');
    expect(html.match(/<\/script>/g)).toHaveLength(2); // the two real ones
    expect(html).not.toContain('<i>');
  });

  it('tree data: the branch conditions grove show prints, class counts, children', async () => {
    const tree = fit(await readDataset(resolve(root, 'data/iris.csv')), { algorithm: 'cart' });
    const s = tree.stats();
    const t = reportTree({
      dataset: 'iris',
      config: 'cart',
      fitMs: 1,
      nodes: s.nodes,
      leaves: s.leaves,
      height: s.height,
      needlessFeatures: s.needlessFeatures,
      model: tree.toJSON(),
    });
    const [cond, counts, first, n, feature] = t.nodes[0];
    expect([cond, counts, n]).toEqual(['', [50, 50, 50], 2]);
    expect(feature).toBe(tree.features[tree.nodes[0].split!.feature].name);
    expect(t.nodes[first][0]).toMatch(new RegExp(`^${feature} <= [\\d.]+$`));
    expect(t.nodes[first + 1][0]).toMatch(new RegExp(`^${feature} > [\\d.]+$`));
    expect(t.nodes.filter((x) => x[3] === 0)).toHaveLength(s.leaves);
    expect(t.classes).toEqual(['Iris-setosa', 'Iris-versicolor', 'Iris-virginica']);
  });

  it('axis ticks are round numbers covering the range', () => {
    expect(niceTicks(0, 37, 4)).toEqual([0, 10, 20, 30]);
    expect(niceTicks(62.5, 97.1, 4)).toEqual([70, 80, 90]);
    expect(niceTicks(0, 1, 5)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
  });

  // Issue 18 item 16: a zero-width value range (every configuration at 100 %) drew NaN coordinates.
  it('draws every chart with finite coordinates when all accuracies are equal, for one or many configurations', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'grove-separable-'));
    const files = [separableCsv(dir, 'sep-a'), separableCsv(dir, 'sep-b')];
    for (const [configs, data] of [
      ['cart:algorithm=cart,prune=none;dcsm:algorithm=cart,criterion=dcsm,prune=none', files],
      ['cart:algorithm=cart', files],
      // c45 without J48's thresholds: J48 puts a threshold at the largest training value below the
      // cut, so a held-out value of class a above every training one goes to class b.
      ['cart:algorithm=cart;c45:algorithm=c45,j48Rules=false', files.slice(0, 1)],
      ['cart:algorithm=cart', files.slice(0, 1)],
    ] as const) {
      const { results, analysis } = await tinyRun(configs, [...data]);
      expect(analysis.cells.every((c) => c.testAccuracy.mean === 1)).toBe(true);
      const html = buildReport(results, analysis);
      expect(html.match(/<svg class="chart scatter"/g)).toHaveLength(data.length);
      expect(badNumbers(html)).toEqual([]);
    }
  });
});
