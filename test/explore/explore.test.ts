/**
 * `grove explore` without a browser: the stratified sample, the page's data round trip, the
 * rows reaching a node and a row's path (read off decisionPath), the first disagreements of
 * two trees, the CLI's refusals, and the bundle's size budget.
 */
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fit } from '../../src/algorithms/fit.js';
import { BUILTIN_CRITERIA, getCriterion } from '../../src/criteria/registry.js';
import { subsetRows } from '../../src/data/subset.js';
import {
  checkExplorable,
  dataShape,
  datasetFromEmbedded,
  embedDataset,
  packedBuffers,
  packedCopy,
} from '../../src/explore/embedded.js';
import { inlineScript } from '../../src/explore/html.js';
import { prepareForPage } from '../../src/explore/prepare.js';
import { stratifiedSample } from '../../src/explore/sample.js';
import { readPageScripts } from '../../src/explore/scripts.js';
import { firstDisagreements } from '../../src/explore-page/disagree.js';
import { measureScores, thresholdCurve } from '../../src/explore-page/node-detail.js';
import { rowPath, rowsByNode, rowsOf } from '../../src/explore-page/paths.js';
import { scoreAttributes } from '../../src/learn/score.js';
import { readDataset } from '../../src/sources/file-source.js';
import { assertBuilt, fixture, grove, repoRoot } from '../helpers/cli.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'grove-explore-unit-'));

describe('stratifiedSample', () => {
  const labels = Int32Array.from({ length: 1000 }, (_, i) => (i < 700 ? 0 : i < 990 ? 1 : 2));
  it('keeps each class’s share, is seeded, sorted and of the asked size', () => {
    const s = stratifiedSample(labels, 3, 100, 7);
    expect(s.length).toBe(100);
    const per = [0, 0, 0];
    for (const r of s) per[labels[r]]++;
    expect(per).toEqual([70, 29, 1]);
    expect(Array.from(s)).toEqual([...s].sort((a, b) => a - b));
    expect(new Set(s).size).toBe(100);
    expect(stratifiedSample(labels, 3, 100, 7)).toEqual(s);
    expect(stratifiedSample(labels, 3, 100, 8)).not.toEqual(s);
  });
  it('keeps a rare class when the size allows, and everything when the size is not smaller', () => {
    const s = stratifiedSample(labels, 3, 10, 1);
    const per = [0, 0, 0];
    for (const r of s) per[labels[r]]++;
    expect(per[2]).toBe(1);
    expect(s.length).toBe(10);
    expect(stratifiedSample(labels, 3, 5000, 1).length).toBe(1000);
  });
});

describe('the page’s data', () => {
  it('round-trips through JSON to the Dataset grove fit builds, missing values included', async () => {
    const dir = tmp();
    const csv = join(dir, 'm.csv');
    writeFileSync(csv, 'a,b,class\n1,x,yes\n?,y,no\n3,?,yes\n4,y,no\n');
    const d = await readDataset(csv);
    const back = datasetFromEmbedded(JSON.parse(JSON.stringify(embedDataset(d, 'm.csv', d.nRows))));
    expect(back.features).toEqual(d.features);
    expect(back.labels).toEqual(d.labels);
    expect(back.classes).toEqual(d.classes);
    expect(JSON.stringify(fit(back, { prune: 'none' }).nodes)).toBe(JSON.stringify(fit(d, { prune: 'none' }).nodes));
  });
  it('packed copies (what the data keeper hands each worker) are the same data set in arrays of their own', async () => {
    const d = await readDataset(fixture('tutorial-30.csv'));
    const json = JSON.parse(JSON.stringify(prepareForPage(d, 't.csv', 10, 3)));
    const packed = packedCopy(json);
    expect(datasetFromEmbedded(packed)).toEqual(datasetFromEmbedded(json));
    expect(packed.rowNumbers).toEqual(Int32Array.from(json.rowNumbers));
    const again = packedCopy(packed);
    expect(datasetFromEmbedded(again)).toEqual(datasetFromEmbedded(json));
    // Moving one copy's buffers leaves the other whole.
    const buffers = packedBuffers(again);
    expect(buffers).toHaveLength(2 + d.features.length);
    for (const b of buffers) expect(packedBuffers(packed)).not.toContain(b);
    structuredClone(again, { transfer: buffers });
    expect(datasetFromEmbedded(packed)).toEqual(datasetFromEmbedded(json));
    expect(dataShape(packed)).toEqual({
      source: 't.csv',
      target: d.targetName,
      classes: d.classes,
      rows: 10,
      features: d.features.map((f) =>
        f.kind === 'numeric'
          ? { kind: 'numeric', name: f.name }
          : { kind: 'categorical', name: f.name, categories: f.categories },
      ),
      totalRows: 30,
      sample: { seed: 3, rows: 10 },
    });
  });
  it('over the limit: a sample marked with the file’s row numbers', async () => {
    const d = await readDataset(fixture('tutorial-30.csv'));
    const e = prepareForPage(d, 't.csv', 10, 3);
    expect(e.sample).toEqual({ seed: 3, rows: 10 });
    expect(e.totalRows).toBe(30);
    expect(e.labels.length).toBe(10);
    expect(e.rowNumbers!.every((r, i) => d.labels[r - 1] === e.labels[i])).toBe(true);
    expect(prepareForPage(d, 't.csv', 30, 3).sample).toBeUndefined();
  });
  it('refuses one class and data without a usable feature', async () => {
    const oneClass = await readDataset(fixture('one-class.csv'));
    expect(() => checkExplorable(oneClass)).toThrow(/only one class \(yes\)/);
    const dir = tmp();
    const csv = join(dir, 'flat.csv');
    writeFileSync(csv, 'a,b,class\n1,x,yes\n1,x,no\n?,x,yes\n');
    const flat = await readDataset(csv);
    expect(() => checkExplorable(flat)).toThrow(/no usable feature/);
  });
  it('inline scripts cannot close their <script> element', () => {
    expect(inlineScript('var s = "</script><b>"; // <!--')).toBe('var s = "<\\/script><b>"; // <\\!--');
  });
});

const income = await readDataset(fixture('taxable-income.csv'));

describe('rows and paths from decisionPath', () => {
  const d = income;
  const tree = fit(d, { prune: 'none', criterion: 'info-gain' });
  it('the rows reaching each node are its training counts', () => {
    const byNode = rowsByNode(tree.decisionPath(d), tree.nodes.length);
    tree.nodes.forEach((node, id) => {
      const counts = d.classes.map(() => 0);
      for (const r of rowsOf(byNode, id)) counts[d.labels[r]]++;
      expect(counts, `node ${id}`).toEqual(node.counts);
    });
  });
  it('a row’s path runs from the root to the leaf apply gives', () => {
    for (let r = 0; r < d.nRows; r++) {
      const one = subsetRows(d, [r]);
      const visited = tree.decisionPath(one).nodes;
      const path = rowPath(tree.nodes, visited);
      expect(path.chain).toEqual(Array.from(visited));
      expect(path.chain[0]).toBe(0);
      expect(path.chain[path.chain.length - 1]).toBe(tree.apply(one)[0]);
      expect(path.spreadAt).toBeUndefined();
    }
  });
  it('a missing value follows the node’s missing branch', () => {
    const path = rowPath(tree.nodes, tree.decisionPath([{}], { allowMissingKeys: true }).nodes);
    expect(path.chain[1]).toBe(tree.nodes[0].children![tree.nodes[0].missingBranch!]);
    expect(path.spreadAt).toBeUndefined();
  });
  it('under C4.5’s fractional policy a missing value spreads the row over every branch', () => {
    const c45 = fit(d, { algorithm: 'c45', prune: 'none', minSamplesLeaf: 1, j48Rules: false });
    expect(c45.nodes[0].children).toBeDefined();
    const path = rowPath(c45.nodes, c45.decisionPath([{}], { allowMissingKeys: true }).nodes);
    expect(path.chain).toEqual([0]);
    expect(path.spreadAt).toBe(0);
    for (const c of c45.nodes[0].children!) expect(path.nodes).toContain(c);
  });
});

describe('a node’s measures (every built-in one) and threshold curve', () => {
  const d = income;
  const all = Int32Array.from({ length: d.nRows }, (_, i) => i);
  it('at the root, each measure’s column is scoreAttributes’ (grove score’s) with that measure', () => {
    const s = measureScores(d, all, { algorithm: 'cart', prune: 'none' });
    expect(s.measures.map((m) => m.name)).toEqual(BUILTIN_CRITERIA.map((c) => c.name));
    s.measures.forEach((m, i) => {
      const report = scoreAttributes(d, { algorithm: 'cart', criterion: m.name });
      expect(s.features.map((f) => f.scores[i])).toEqual(report.attributes.map((a) => a.score));
      expect(m.best).toBe(report.best);
    });
  });
  it('the curve’s best threshold is the one the tutorial gives (Gini 0.300 at 97)', () => {
    const c = thresholdCurve(d, all, 2, getCriterion('gini'));
    const best = c.points.reduce((a, b) => (b[1] < a[1] ? b : a));
    expect(best[0]).toBe(97.5);
    expect(best[1]).toBeCloseTo(0.3, 10);
  });
});

describe('firstDisagreements', () => {
  const num = (t: number) => ({ kind: 'numeric' as const, feature: 0, thresholds: [t] });
  it('pairs the highest nodes whose splits differ, and nothing below them', () => {
    const a = [{ split: num(1), children: [1, 2] }, {}, { split: num(5), children: [3, 4] }, {}, {}];
    const b = [
      { split: num(1), children: [1, 2] },
      { split: num(0), children: [3, 4] },
      { split: num(6), children: [5, 6] },
      {},
      {},
      {},
      {},
    ];
    expect(
      firstDisagreements(
        (id) => a[id],
        (id) => b[id],
      ),
    ).toEqual([
      [1, 2],
      [1, 2],
    ]);
    expect(
      firstDisagreements(
        (id) => a[id],
        (id) => a[id],
      ),
    ).toEqual([[], []]);
  });
});

describe('grove explore (CLI)', () => {
  it('refuses one class and no usable feature with exit 2 and one line', () => {
    assertBuilt();
    const dir = tmp();
    const one = grove(['explore', fixture('one-class.csv'), '--out', join(dir, 'a.html')]);
    expect(one.status).toBe(2);
    expect(one.stderr).toMatch(/^grove: .*only one class \(yes\) in 'class'.*\n$/);
    const flat = join(dir, 'flat.csv');
    writeFileSync(flat, 'a,class\n1,yes\n1,no\n');
    const r = grove(['explore', flat, '--out', join(dir, 'b.html')]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/no usable feature/);
  });
  it('writes a sampled page with a notice when the data is over --max-rows', () => {
    const dir = tmp();
    const out = join(dir, 'p.html');
    const r = grove(['explore', fixture('tutorial-30.csv'), '--out', out, '--max-rows', '12', '--seed', '5']);
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('a stratified sample of 12 of 30 rows');
    const html = readFileSync(out, 'utf8');
    expect(html).toContain('id="notice"');
    expect(html).toContain('a sample of 12 of the 30 rows (stratified by class, seed 5)');
  });
  it('without DATA writes the page with no data, its limits those of --max-rows and --seed; refuses read flags', () => {
    const dir = tmp();
    const out = join(dir, 'empty.html');
    const r = grove(['explore', '--out', out, '--max-rows', '500', '--seed', '3']);
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('explore page with no data (open a file in it)');
    const html = readFileSync(out, 'utf8');
    expect(html).toContain('<script type="application/json" id="grove-data">null</script>');
    expect(html).toContain('<script type="application/json" id="grove-settings">{"maxRows":500,"seed":3}</script>');
    expect(html).toContain('id="file"');
    expect(html).toContain('id="grove-reader"');
    const refused = grove(['explore', '--out', join(dir, 'other.html'), '--target', 'class']);
    expect(refused.status).toBe(2);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toMatch(/--target says how to read DATA, and no DATA was given/);
  });
  it('refuses to write over its input, a bad --max-rows, and says how to build missing scripts', () => {
    const dir = tmp();
    const csv = join(dir, 'in.csv');
    writeFileSync(csv, readFileSync(fixture('taxable-income.csv')));
    const over = grove(['explore', csv, '--out', csv]);
    expect(over.status).toBe(2);
    expect(over.stderr).toMatch(/--out .*input/);
    expect(readFileSync(csv, 'utf8')).toBe(readFileSync(fixture('taxable-income.csv'), 'utf8'));
    const bad = grove(['explore', csv, '--out', join(dir, 'p.html'), '--max-rows', '0']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--max-rows/);
    expect(() => readPageScripts(join(dir, 'nowhere'))).toThrow(/run `npm run build`/);
  });

  it('the page’s scripts stay under the 500 kB budget (before gzip, without data)', () => {
    const bundle = resolve(repoRoot, 'dist/explore-page');
    const size = statSync(join(bundle, 'page.js')).size + statSync(join(bundle, 'worker.js')).size;
    console.log(`grove explore: page + worker scripts ${(size / 1000).toFixed(1)} kB`);
    expect(size).toBeLessThan(500_000);
    // The reader worker (started only when a file is opened in the page): grove's readers, apache-arrow,
    // and the GZIP and BROTLI decoders of Parquet pages (brotli's with its compressed dictionary).
    const reader = statSync(join(bundle, 'reader.js')).size;
    console.log(`grove explore: reader script ${(reader / 1000).toFixed(1)} kB`);
    expect(reader).toBeLessThan(450_000);
  });
});
