// How long `grove explore`'s page takes to regrow, per preset, in Debian's Chromium (headless,
// driven by playwright-core): from the grow request to the first tree shown (a pruned preset's tree
// before pruning, shown while it is pruned) and to the final tree shown, split into the worker's fit,
// the worker's view of the tree, the transfer to the page and the drawing; and, for scale, the same
// fit in this Node process in the same run. Needs `npm run build` (the page's bundles in dist/).
//
//   node bench/explore-regrow.mjs [--data ../shared/datasets/magic.csv] [--repeats 7] [--only NAME-PART] [--dist DIR]
//
// Each configuration is set in the page's controls, then regrown `--repeats` times with the Grow
// button; the median and the best are printed. The page must show no error and log none.

import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { launchChromium, median, painted, setControls, writePage } from './lib/explore-page.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// --dist: another build's dist/ (an A/B against another commit's page and fit).
const distArg = process.argv.indexOf('--dist');
const distDir = distArg > 0 ? resolve(process.argv[distArg + 1]) : resolve(root, 'dist');
const dist = (p) => pathToFileURL(resolve(distDir, p)).href;
const { readDataset } = await import(dist('sources/file-source.js'));
const { fit } = await import(dist('algorithms/fit.js'));

const { values: args } = parseArgs({
  options: {
    data: { type: 'string', default: resolve(root, '../shared/datasets/magic.csv') },
    repeats: { type: 'string', default: '7' },
    only: { type: 'string', default: '' },
    dist: { type: 'string' },
    chromium: { type: 'string', default: process.env.GROVE_CHROMIUM ?? '/usr/bin/chromium' },
  },
});
const repeats = Number(args.repeats);
if (!existsSync(args.chromium)) throw new Error(`${args.chromium} not found (apt-get install chromium)`);

/** Configurations: the page's controls to set (id → value) and the same options for Node's fit. */
const CONFIGS = [
  { name: 'cart (default): gini, CCP by 10-fold CV', controls: {}, options: {} },
  { name: 'cart, unpruned', controls: { 'opt-a-prune': 'none' }, options: { prune: 'none' } },
  {
    name: 'cart, unpruned, histogram (255 bins)',
    controls: { 'opt-a-prune': 'none', 'opt-a-bins': '255' },
    options: { prune: 'none', bins: 255 },
  },
  { name: 'id3 (unpruned)', controls: { 'preset-a': 'id3' }, options: { algorithm: 'id3' } },
  { name: 'c45: error-based pruning', controls: { 'preset-a': 'c45' }, options: { algorithm: 'c45' } },
  {
    name: 'c45, unpruned',
    controls: { 'preset-a': 'c45', 'opt-a-prune': 'none' },
    options: { algorithm: 'c45', prune: 'none' },
  },
  { name: 'zaki (unpruned)', controls: { 'preset-a': 'zaki' }, options: { algorithm: 'zaki' } },
  { name: 'cmbsv (unpruned)', controls: { 'preset-a': 'cmbsv' }, options: { algorithm: 'cmbsv' } },
];

const loadStart = loadavg()[0];
const data = await readDataset(args.data);
const dir = mkdtempSync(join(tmpdir(), 'grove-explore-bench-'));
const html = join(dir, 'page.html');
await writePage(distDir, args.data, html);

const browser = await launchChromium(args.chromium);
const rows = [];
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const problems = [];
  page.on('pageerror', (e) => problems.push(`page error: ${String(e)}`));
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  const settle = () => page.waitForSelector('body[data-state="idle"]', { state: 'attached', timeout: 600_000 });
  // Two frames after the page went idle: what it set last (the rules text) is laid out and painted
  // before the next regrow starts, not during it.
  await page.goto(pathToFileURL(html).href);
  await settle();
  for (const c of CONFIGS.filter((c) => c.name.includes(args.only))) {
    await setControls(page, c.controls);
    await settle();
    const seen = { first: [], fit: [], view: [], transfer: [], draw: [], shown: [], panel: [] };
    let nodes = 0;
    for (let i = 0; i < repeats; i++) {
      await page.locator('#grow').click();
      await settle();
      await painted(page);
      const t = await page.$eval('#stats-a', (s) => ({ ...s.dataset }));
      const fitMs = Number(t.growMs);
      const viewMs = Number(t.viewMs);
      const drawMs = Number(t.drawMs);
      const shownMs = Number(t.regrowMs);
      seen.first.push(Number(t.firstMs ?? t.regrowMs)); // a page without progressive display: its one tree
      seen.fit.push(fitMs);
      seen.view.push(viewMs);
      seen.draw.push(drawMs);
      seen.shown.push(shownMs);
      seen.transfer.push(shownMs - fitMs - viewMs - drawMs);
      seen.panel.push(Number(t.panelMs));
      nodes = Number((await page.locator('#stats-a').textContent()).match(/(\d+) nodes/)[1]);
    }
    const error = await page.locator('#error').isVisible();
    if (error || problems.length)
      throw new Error(`${c.name}: ${await page.locator('#error').textContent()} ${problems}`);
    const node = [];
    for (let i = 0; i < Math.min(repeats, 5); i++) {
      const t0 = performance.now();
      fit(data, c.options);
      node.push(performance.now() - t0);
    }
    const row = { name: c.name, nodes, node: median(node) };
    for (const [k, xs] of Object.entries(seen)) row[k] = { median: median(xs), best: Math.min(...xs) };
    rows.push(row);
    console.error(
      `${c.name}: first tree shown in ${row.first.median.toFixed(0)} ms, final in ${row.shown.median.toFixed(0)} ms (best ${row.shown.best.toFixed(0)}): fit ` +
        `${row.fit.median.toFixed(0)}, view ${row.view.median.toFixed(0)}, transfer+paint ${row.transfer.median.toFixed(0)}, ` +
        `draw ${row.draw.median.toFixed(0)}; root panel at ${row.panel.median.toFixed(0)}; Node fit ${row.node.toFixed(0)} ms`,
    );
  }
} finally {
  await browser.close();
  rmSync(dir, { recursive: true, force: true });
}

const f = (x) => x.toFixed(0);
const lines = [
  `${basename(args.data)}, ${data.nRows} rows × ${data.features.length} features; medians of ${repeats} regrows (ms); ` +
    `load average ${loadStart.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end`,
  '',
  '| configuration | nodes | first tree shown (best) | final tree shown (best) | fit in worker | view | transfer + paint | draw | root node panel shown | fit in Node |',
  '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
  ...rows.map(
    (r) =>
      `| ${r.name} | ${r.nodes} | **${f(r.first.median)}** (${f(r.first.best)}) | ${f(r.shown.median)} (${f(r.shown.best)}) | ${f(r.fit.median)} | ${f(r.view.median)} | ` +
      `${f(r.transfer.median)} | ${f(r.draw.median)} | ${f(r.panel.median)} | ${f(r.node)} |`,
  ),
];
console.log(lines.join('\n'));
