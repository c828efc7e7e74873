// The explore page's regrow time, this build against another build's (`--against DIR`, a dist/
// of another commit), in one Chromium, regrows alternating between the two pages so that both
// see the same load: medians (best) of `--repeats` regrows each, and their ratio. The configurations
// and the times are explore-regrow.mjs's (first tree shown, final tree shown, fit in the worker).
//
//   node bench/explore-ab.mjs --against DIR [--data ../shared/datasets/magic.csv] [--repeats 9] [--only NAME-PART]

import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { launchChromium, median, painted, setControls, writePage } from './lib/explore-page.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({
  options: {
    against: { type: 'string' },
    data: { type: 'string', default: resolve(root, '../shared/datasets/magic.csv') },
    repeats: { type: 'string', default: '9' },
    only: { type: 'string', default: '' },
    chromium: { type: 'string', default: process.env.GROVE_CHROMIUM ?? '/usr/bin/chromium' },
  },
});
if (!args.against) throw new Error('--against DIR (another build of dist/) is required');
if (!existsSync(args.chromium)) throw new Error(`${args.chromium} not found (apt-get install chromium)`);
const repeats = Number(args.repeats);

const CONFIGS = [
  { name: 'cart (default)', controls: {} },
  { name: 'cart, unpruned', controls: { 'opt-a-prune': 'none' } },
  { name: 'cart, unpruned, histogram (255 bins)', controls: { 'opt-a-prune': 'none', 'opt-a-bins': '255' } },
  { name: 'id3', controls: { 'preset-a': 'id3' } },
  { name: 'c45: error-based pruning', controls: { 'preset-a': 'c45' } },
  { name: 'c45, unpruned', controls: { 'preset-a': 'c45', 'opt-a-prune': 'none' } },
  { name: 'zaki', controls: { 'preset-a': 'zaki' } },
  { name: 'cmbsv', controls: { 'preset-a': 'cmbsv' } },
];

const loadStart = loadavg()[0];
const dir = mkdtempSync(join(tmpdir(), 'grove-explore-ab-'));
const browser = await launchChromium(args.chromium);
const lines = [];
try {
  const sides = [];
  for (const [name, distDir] of [
    ['this', resolve(root, 'dist')],
    ['against', resolve(args.against)],
  ]) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const problems = [];
    page.on('pageerror', (e) => problems.push(`page error: ${String(e)}`));
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    await page.goto(pathToFileURL(await writePage(distDir, args.data, join(dir, `${name}.html`))).href);
    sides.push({ name, page, problems });
  }
  const settle = (page) => page.waitForSelector('body[data-state="idle"]', { state: 'attached', timeout: 600_000 });
  // Two frames after the page went idle: what it set last (the rules text) is laid out and painted
  // before the next regrow starts (the pages share a renderer's main thread).
  for (const { page } of sides) await settle(page);
  for (const c of CONFIGS.filter((c) => c.name.includes(args.only))) {
    for (const { page } of sides) {
      await setControls(page, c.controls);
      await settle(page);
    }
    const seen = sides.map(() => ({ first: [], shown: [], fit: [] }));
    for (let i = 0; i < repeats; i++) {
      // Alternate which page goes first, so neither always follows the other's garbage.
      const order = i % 2 ? [1, 0] : [0, 1];
      for (const s of order) {
        const { page } = sides[s];
        await page.locator('#grow').click();
        await settle(page);
        await painted(page);
        const t = await page.$eval('#stats-a', (e) => ({ ...e.dataset }));
        seen[s].first.push(Number(t.firstMs ?? t.regrowMs));
        seen[s].shown.push(Number(t.regrowMs));
        seen[s].fit.push(Number(t.growMs));
      }
    }
    for (const { name, page, problems } of sides) {
      if ((await page.locator('#error').isVisible()) || problems.length)
        throw new Error(`${c.name} (${name}): ${await page.locator('#error').textContent()} ${problems}`);
    }
    const f = (xs) => `${median(xs).toFixed(0)} (${Math.min(...xs).toFixed(0)})`;
    const r = (k) => (median(seen[0][k]) / median(seen[1][k])).toFixed(2);
    const line =
      `| ${c.name} | **${f(seen[0].first)}** | ${f(seen[1].first)} | ${r('first')} | ${f(seen[0].shown)} | ` +
      `${f(seen[1].shown)} | ${r('shown')} | ${f(seen[0].fit)} | ${f(seen[1].fit)} | ${r('fit')} |`;
    console.error(line);
    lines.push(line);
  }
} finally {
  await browser.close();
  rmSync(dir, { recursive: true, force: true });
}
console.log(
  [
    `${basename(args.data)}; this build against ${args.against}; medians (best) of ${repeats} regrows each, alternating (ms); ` +
      `load average ${loadStart.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end`,
    '',
    '| configuration | first tree shown: this | against | ratio | final tree shown: this | against | ratio | fit in worker: this | against | ratio |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
    ...lines,
  ].join('\n'),
);
