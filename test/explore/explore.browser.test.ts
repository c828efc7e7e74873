/**
 * `grove explore`'s page in a real browser: Debian's Chromium, headless, driven by playwright-core
 * (launched as test/report/report.browser.test.ts does), once for the whole file. For a fixture
 * (always) and three corpus data sets (when ../shared is present) it writes the page with the
 * built CLI, opens it from file:// with every network request refused, and checks it against the
 * CLI: the root split after a change of measure equals `grove fit`'s, and a node's eleven scores equal
 * `grove score --json` on that node's rows. Side-by-side mode, the rules, a typed row's path,
 * keyboard use, phone width, escaping of data text and the sample notice are checked too.
 * Screenshots go to the test's temp folder (printed). Any console error, page error, dialog or
 * network request fails the test. The CLI is the built one (dist/cli/run.js) run in this process,
 * which saves a Node start per call. Speed is bench/explore-regrow.mjs's job, not this test's.
 * Without /usr/bin/chromium (or $GROVE_CHROMIUM) the tests are skipped with the reason printed.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from 'csv-parse/sync';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fit } from '../../src/algorithms/fit.js';
import { crossValidate, summarize } from '../../src/eval/cross-validate.js';
import type { EmbeddedData } from '../../src/explore/embedded.js';
import { explorePage } from '../../src/explore/html.js';
import { readPageScripts } from '../../src/explore/scripts.js';
import { rulesToText } from '../../src/export/rules.js';
import { OPTION_DESCRIPTORS, type OptionDescriptor } from '../../src/options/options.js';
import { readDataset } from '../../src/sources/file-source.js';
import { CHROMIUM, haveChromium, launchChromium } from '../helpers/chromium.js';
import { assertBuilt, type CliResult, fixture, repoRoot, withCapturedOutput } from '../helpers/cli.js';
import { corpus, haveCorpus } from '../helpers/paths.js';

if (!haveChromium)
  console.warn(`skipping grove explore's browser tests: ${CHROMIUM} not found (apt-get install chromium)`);

const MEASURES = [
  'info-gain',
  'gain-ratio',
  'normalized-gain',
  'average-gain',
  'gini',
  'twoing',
  'chi-square',
  'g-statistic',
  'dcsm',
  'chandra-varghese',
  'hellinger',
];

let context: BrowserContext;
let dir: string;
let shots: string;
let runCli: (argv: string[]) => Promise<number>;

/** The last `grove` call: calls run one at a time (each captures the process's stdout and stderr). */
let cliQueue: Promise<unknown> = Promise.resolve();

/** `grove ARGS` with the built CLI in this process, stdout and stderr captured. */
function grove(args: string[]): Promise<CliResult> {
  const next = cliQueue.then(() => groveNow(args));
  cliQueue = next.catch(() => undefined);
  return next;
}

async function groveNow(args: string[]): Promise<CliResult> {
  const { value: status, stdout, stderr } = await withCapturedOutput(() => runCli(args));
  return { status, stdout, stderr };
}

/** A CSV file in the test's folder of `rows` rows of two numbers and a class with little to learn from: a large tree. */
function noiseCsv(name: string, rows: number): string {
  const csv = join(dir, name);
  const lines = ['x,y,class'];
  for (let i = 0; i < rows; i++) lines.push(`${i},${(i * 37) % 101},${(i * 7919) % 13 < 6 ? 'a' : 'b'}`);
  writeFileSync(csv, `${lines.join('\n')}\n`);
  return csv;
}

/** `rows` rows of 10 numeric features with ties, 3 classes partly from x1: a fit large enough for two workers. */
function wideCsv(name: string, rows: number): string {
  const csv = join(dir, name);
  const lines = [`${Array.from({ length: 10 }, (_, f) => `x${f}`).join(',')},class`];
  for (let i = 0; i < rows; i++) {
    const x = Array.from({ length: 10 }, (_, f) => ((i + 1) * (f * 7919 + 104729)) % (f % 3 === 0 ? 53 : 997));
    const score = (x[1] % 100) + (i % 7) * 9;
    lines.push(`${x.join(',')},${score < 60 ? 'low' : score < 110 ? 'mid' : 'high'}`);
  }
  writeFileSync(csv, `${lines.join('\n')}\n`);
  return csv;
}

beforeAll(async () => {
  if (!haveChromium) return;
  assertBuilt();
  dir = mkdtempSync(join(tmpdir(), 'grove-explore-'));
  shots = join(dir, 'screenshots');
  mkdirSync(shots);
  console.log(`grove explore browser test: screenshots in ${shots}`);
  // Chromium starts while the CLI's modules load.
  const launched = launchChromium(join(dir, 'profile'), { width: 1280, height: 800 });
  ({ run: runCli } = (await import(pathToFileURL(resolve(repoRoot, 'dist/cli/run.js')).href)) as {
    run: (argv: string[]) => Promise<number>;
  });
  context = await launched;
}, 60_000);

afterAll(async () => {
  await context?.close();
  if (dir && !process.env.GROVE_KEEP_EXPLORE) rmSync(join(dir, 'profile'), { recursive: true, force: true });
});

/** A page opened from file:// (settled unless `wait` is false; `init` runs before the page's scripts), with every problem it reports collected in `problems`. */
async function open(html: string, wait = true, init?: () => void): Promise<{ page: Page; problems: string[] }> {
  const page = await context.newPage();
  if (init) await page.addInitScript(init);
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${String(e)}`));
  page.on('console', (m) => (m.type() === 'error' || m.type() === 'warning') && problems.push(m.text()));
  page.on('dialog', (d) => {
    problems.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file:') || url.startsWith('blob:')) return route.continue();
    problems.push(`network request: ${url}`);
    return route.abort();
  });
  await page.goto(pathToFileURL(html).href);
  if (wait) await settle(page);
  return { page, problems };
}

/** Wait until the page has no request to its worker outstanding. */
async function settle(page: Page): Promise<void> {
  await page.waitForSelector('body[data-state="idle"]', { state: 'attached', timeout: 60_000 });
}

/**
 * Regrow until the tree is grown on two workers, at most five times (a helper just restarted is
 * still loading the data: the grower does not wait for it); the last tree's `data-workers`.
 */
async function regrowOnTwo(page: Page): Promise<string | null> {
  let workers: string | null = null;
  for (let i = 0; i < 5 && workers !== '2'; i++) {
    await page.locator('#grow').click();
    await settle(page);
    workers = await page.locator('#stats-a').getAttribute('data-workers');
  }
  return workers;
}

/**
 * Workers of tree A's grow, regrown until two when the helper grew nothing: whether the helper's
 * answer beats the grower growing that task itself depends on the machine's load.
 */
async function onTwo(page: Page): Promise<string | null> {
  const workers = await page.locator('#stats-a').getAttribute('data-workers');
  return workers === '2' ? workers : regrowOnTwo(page);
}

/**
 * Tree A's whole rules text. A large tree's first rules are shown with a button that shows them
 * all: pressed here by keyboard, after checking that what was shown is the start of the whole.
 */
async function rulesShown(page: Page): Promise<string> {
  const pre = page.locator('#rules-a');
  const all = page.locator('#rules-a-all');
  if (await all.isHidden()) return (await pre.textContent()) ?? '';
  // Focus leaving a control typed into fires its change event, a regrow: wait for it.
  await all.focus();
  await settle(page);
  if (await all.isHidden()) return (await pre.textContent()) ?? '';
  const first = (await pre.textContent()) ?? '';
  const label = (await all.textContent()) ?? '';
  expect(await all.getAttribute('aria-controls')).toBe('rules-a');
  expect(await all.getAttribute('aria-expanded')).toBe('false');
  expect(await pre.getAttribute('aria-label')).toBe("Tree A's IF-THEN rules");
  await page.keyboard.press('Enter');
  const whole = (await pre.textContent()) ?? '';
  expect(await all.getAttribute('aria-expanded')).toBe('true');
  expect(first.endsWith('\n')).toBe(true);
  expect(first.length).toBeLessThan(whole.length);
  expect(whole.startsWith(first)).toBe(true);
  const rules = whole.split('\n').filter((line) => line !== '').length;
  expect(label).toBe(`Show all ${rules.toLocaleString('en')} rules (${whole.length.toLocaleString('en')} characters)`);
  expect(await all.isHidden()).toBe(true);
  expect(await pre.evaluate((e) => e === document.activeElement)).toBe(true);
  return whole;
}

/** Write the page for `csv` with the built CLI. */
async function explore(csv: string, name: string, extra: string[] = []): Promise<string> {
  const out = join(dir, `${name}.html`);
  const r = await grove(['explore', csv, '--out', out, ...extra]);
  expect(r.stderr).toContain('→');
  expect(r.status).toBe(0);
  return out;
}

type Json = Record<string, unknown>;

async function fitRoot(csv: string, flags: string[]): Promise<{ split: unknown; nodes: number }> {
  const model = join(dir, `${basename(csv, '.csv')}-model.json`);
  const r = await grove(['fit', csv, '--out', model, ...flags]);
  expect(r.status).toBe(0);
  const m = JSON.parse(readFileSync(model, 'utf8')) as { nodes: Json[] };
  return { split: m.nodes[0].split, nodes: m.nodes.length };
}

/** The eleven measures' scores shown for the selected node: feature → measure → score (null: no split). */
async function shownScores(page: Page): Promise<Map<string, Map<string, number | null>>> {
  const rows = await page.$$eval('#scores tbody tr', (trs) =>
    trs.map((tr) => [
      tr.getAttribute('data-feature')!,
      Array.from(tr.querySelectorAll('td[data-measure]'), (td) => [
        td.getAttribute('data-measure')!,
        td.getAttribute('data-score')!,
      ]),
    ]),
  );
  return new Map(
    rows.map(([f, cells]) => [
      f as string,
      new Map((cells as string[][]).map(([m, s]) => [m, s === '' ? null : Number(s)])),
    ]),
  );
}

/** `grove score --json` for each measure on the file's rows `rowNumbers` (1 = first data row). */
async function cliScores(
  csv: string,
  rowNumbers: number[],
  categorical: string[],
): Promise<Map<string, Map<string, number | null>>> {
  const records = parse(readFileSync(csv, 'utf8'), { relax_column_count: false }) as string[][];
  const lines = [records[0], ...rowNumbers.map((r) => records[r])];
  const quote = (s: string) => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
  const subset = join(dir, `${basename(csv, '.csv')}-node-rows.csv`);
  writeFileSync(subset, `${lines.map((l) => l.map(quote).join(',')).join('\n')}\n`);
  const out = new Map<string, Map<string, number | null>>();
  for (const m of MEASURES) {
    const args = ['score', subset, '--criterion', m, '--json'];
    if (categorical.length) args.push('--categorical', categorical.join(','));
    const r = await grove(args);
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { attributes: { name: string; score: number | null }[] };
    for (const a of report.attributes) {
      if (!out.has(a.name)) out.set(a.name, new Map());
      out.get(a.name)!.set(m, a.score);
    }
  }
  return out;
}

function expectSameScores(
  shown: Map<string, Map<string, number | null>>,
  cli: Map<string, Map<string, number | null>>,
): void {
  expect([...shown.keys()]).toEqual([...cli.keys()]);
  for (const [f, byMeasure] of cli) {
    for (const m of MEASURES) {
      const want = byMeasure.get(m)!;
      const got = shown.get(f)!.get(m)!;
      if (want === null) expect(got, `${f} ${m}`).toBeNull();
      else
        expect(Math.abs(got - want), `${f} ${m}: page ${got}, grove score ${want}`).toBeLessThanOrEqual(
          1e-9 * Math.max(1, Math.abs(want)),
        );
    }
  }
}

/** Categorical columns of the page's data (to read the node's rows back as `grove explore` did). */
async function categoricalNames(page: Page): Promise<string[]> {
  return page.$eval('#grove-data', (s) =>
    (JSON.parse(s.textContent!) as { features: { name: string; kind: string }[] }).features
      .filter((f) => f.kind === 'categorical')
      .map((f) => f.name),
  );
}

/**
 * The checks every data set gets: measure change vs `grove fit`, a node's eleven scores vs
 * `grove score`, side by side (unpruned, so the CV runs are quick), screenshots. The CLI and
 * crossValidate run here while the page computes in the browser.
 */
async function checkDataset(name: string, csv: string, measure: string): Promise<void> {
  const html = await explore(csv, name);
  const { page, problems } = await open(html, false);
  // Change the measure as soon as the controls are there: the page regrows after its first tree,
  // while grove fit grows here.
  await page.waitForSelector('#opt-a-criterion');
  await page.selectOption('#opt-a-criterion', measure);
  const fitted = await fitRoot(csv, ['--criterion', measure]);
  await settle(page);
  expect(await page.locator('#error').isHidden()).toBe(true);
  // The tree is regrown, and its root split is grove fit's.
  const root = page.locator('#tree-a g.node[data-node="0"]');
  expect(JSON.parse((await root.getAttribute('data-split')) ?? 'null')).toEqual(fitted.split ?? null);
  expect(await page.locator('#tree-a g.node').count()).toBe(fitted.nodes);
  expect(await page.locator('#stats-a').textContent()).toContain(`, ${measure}:`);
  // A node below the root, opened from the keyboard: its eleven scores are grove score's on its rows.
  const child = page.locator('#tree-a g.node[data-node="1"]');
  if ((await child.count()) === 1) {
    await child.focus();
    await page.keyboard.press('Enter');
    await settle(page);
    expect(await page.locator('#node-body').getAttribute('data-node')).toBe('a:1');
  }
  const rows = (await page.locator('#node-rows').inputValue()).split(', ').map(Number);
  const counts = await page.$$eval('#node-body table.counts tbody tr td:nth-child(2)', (tds) =>
    tds.map((td) => Number(td.textContent)),
  );
  expect(rows.length).toBe(counts.reduce((a, b) => a + b, 0));
  expect(await page.locator('#scores th.chosen').textContent()).toContain(measure);
  const shown = await shownScores(page);
  const categorical = await categoricalNames(page);
  // The chart of the measure against a numeric threshold, when there is a numeric feature.
  if ((await page.locator('#curve-feature').count()) > 0)
    expect(await page.locator('#curve svg polyline').count()).toBe(1);
  await page.screenshot({ path: join(shots, `${name}-1280.png`) });
  // Side by side: B under another measure, each with its CV accuracy; first disagreements marked.
  // While the page grows and cross-validates, grove score and crossValidate run here.
  await page.selectOption('#opt-a-prune', 'none');
  await page.check('#side');
  expectSameScores(shown, await cliScores(csv, rows, categorical));
  const data = await readDataset(csv);
  const cv = (criterion: string) =>
    summarize(crossValidate(data, { criterion, prune: 'none' }, 5, 1).map((r) => r.testAccuracy)).mean;
  const cvA = cv(measure);
  await settle(page);
  expect(await page.locator('#pane-b').isVisible()).toBe(true);
  const b = await page.locator('#opt-b-criterion').inputValue();
  expect(b).not.toBe('');
  expect(await page.locator('#stats-b').textContent()).toContain(`, ${b}:`);
  expect(await page.locator('#cv-a').textContent()).toMatch(/^5-fold CV accuracy \d+\.\d ± \d+\.\d %/);
  expect(await page.locator('#cv-b').textContent()).toMatch(/^5-fold CV accuracy \d+\.\d ± \d+\.\d %/);
  // The accuracies are grove's crossValidate (5 folds, seed 1) with each tree's options.
  expect(Number(await page.locator('#cv-a').getAttribute('data-accuracy'))).toBe(cvA);
  expect(Number(await page.locator('#cv-b').getAttribute('data-accuracy'))).toBe(cv(b));
  const disagree = await page.locator('#disagree').textContent();
  const marked = await page.locator('g.node.disagree').count();
  if (disagree!.startsWith('The two trees are the same')) expect(marked).toBe(0);
  else expect(marked).toBeGreaterThanOrEqual(2);
  await page.screenshot({ path: join(shots, `${name}-side-by-side.png`) });
  expect(problems).toEqual([]);
  await page.close();
}

describe.skipIf(!haveChromium)('grove explore in Chromium: fixture', () => {
  it('taxable-income: measure change, eleven scores at a node, side by side, rules, a typed row, keyboard', async () => {
    const csv = fixture('taxable-income.csv');
    await checkDataset('taxable-income', csv, 'info-gain');
    const { page, problems } = await open(join(dir, 'taxable-income.html'));
    // Unpruned (the default prunes this tiny table to a leaf): the rules are grove's IF-THEN rules.
    await page.selectOption('#opt-a-prune', 'none');
    await settle(page);
    const model = join(dir, 'ti.json');
    expect((await grove(['fit', csv, '--out', model, '--prune', 'none'])).status).toBe(0);
    const shown = await rulesShown(page);
    expect(shown).toBe((await grove(['show', model, '--format', 'rules'])).stdout);
    expect(shown!.split('\n').length).toBeGreaterThan(3);
    // A typed row: its path is highlighted and its prediction is grove predict's.
    await page.selectOption('#path-f0', 'No');
    await page.selectOption('#path-f1', 'Single');
    await page.fill('#path-f2', '90');
    await page.locator('#path-form button[type="submit"]').press('Enter');
    await settle(page);
    expect(await page.locator('#path-prediction').textContent()).toMatch(/^Prediction: (Yes|No)/);
    const onPath = (await page.locator('#path-out').getAttribute('data-nodes'))!.split(',');
    expect(onPath[0]).toBe('0');
    expect(await page.locator('#tree-a g.node.on-path').count()).toBe(onPath.length);
    const rowCsv = join(dir, 'row.csv');
    writeFileSync(rowCsv, 'BuyHouse,MaritalStatus,TaxableIncome\nNo,Single,90\n');
    const predicted = (await grove(['predict', model, rowCsv])).stdout.trim().split('\n').pop();
    expect(await page.locator('#path-prediction').textContent()).toContain(`Prediction: ${predicted}`);
    // A bad number in the form is shown in the page.
    await page.fill('#path-f2', 'abc');
    await page.locator('#path-form button[type="submit"]').click();
    await settle(page);
    expect(await page.locator('#error').textContent()).toContain("TaxableIncome: 'abc' is not a number");
    // One control per option of the split, stop and pruning groups of the option table.
    const offered = (OPTION_DESCRIPTORS as readonly OptionDescriptor[]).filter(
      (d) =>
        ['split', 'stop', 'prune'].includes(d.group) && d.type !== 'class-weight' && d.type !== 'ordered-categories',
    );
    const ids = await page.$$eval('[id^="opt-a-"]', (els) => els.map((e) => e.id));
    expect([...ids].sort()).toEqual(offered.map((d) => `opt-a-${d.name}`).sort());
    // A bad option value is shown in the page, naming the control.
    await page.fill('#opt-a-minSamplesSplit', '1');
    await page.locator('#opt-a-minSamplesSplit').dispatchEvent('change');
    await settle(page);
    expect(await page.locator('#error').textContent()).toMatch(/--min-split/);
    await page.fill('#opt-a-minSamplesSplit', '');
    await page.locator('#opt-a-minSamplesSplit').dispatchEvent('change');
    await settle(page);
    expect(await page.locator('#error').isHidden()).toBe(true);
    // Phone width: nothing wider than the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: join(shots, 'taxable-income-phone.png') });
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  it('shows data text as text: a category named <script>alert(1)</script>', async () => {
    const csv = join(dir, 'xss.csv');
    const bad = '<script>alert(1)</script>';
    const lines = ['x,"<b>col</b>",class'];
    for (let i = 0; i < 12; i++)
      lines.push(`${i},${i % 3 === 0 ? bad : 'plain'},${i % 3 === 0 || i > 8 ? 'yes' : 'no'}`);
    writeFileSync(csv, `${lines.join('\n')}\n`);
    const { page, problems } = await open(await explore(csv, 'xss'));
    await page.selectOption('#opt-a-prune', 'none');
    await settle(page);
    expect(await rulesShown(page)).toContain(bad);
    expect(await page.locator('#path-f1 option', { hasText: bad }).count()).toBe(1);
    expect(await page.locator('#scores tr[data-feature="<b>col</b>"]').count()).toBe(1);
    // No element was made from the data's text.
    expect(await page.locator('body script:not([type]), b').count()).toBe(1); // the page's own script only
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it('a large tree is drawn light: a click on a light box picks that node, zooming in gives boxes', async () => {
    const csv = noiseCsv('noise.csv', 1500);
    const { page, problems } = await open(await explore(csv, 'noise'));
    await page.selectOption('#opt-a-prune', 'none');
    await settle(page);
    const nodes = Number((await page.locator('#stats-a').textContent())!.match(/(\d+) nodes/)![1]);
    expect(nodes).toBeGreaterThan(400);
    expect(await page.locator('#tree-a path.light-box').count()).toBeGreaterThan(0);
    expect(await page.locator('#tree-a g.node').count()).toBe(1); // the selected root only
    // Drawn light in chunks over several tasks, every node once by the time the page is idle.
    expect(await page.locator('#tree-a svg.tree-svg').getAttribute('data-drawn')).toBe('all');
    const lightBoxes = await page.evaluate(() =>
      [...document.querySelectorAll('#tree-a path.light-box')].reduce(
        (n, p) => n + (p.getAttribute('d')!.match(/M/g) ?? []).length,
        0,
      ),
    );
    expect(lightBoxes).toBe(nodes);
    // Zoom in to light boxes of a few pixels, then click the middle of one in view.
    await page.locator('#tree-a .zoom-frame').focus();
    for (let i = 0; i < 9; i++) await page.keyboard.press('+');
    const target = await page.evaluate(() => {
      const svg = document.querySelector('#tree-a svg') as SVGSVGElement;
      const frame = svg.getBoundingClientRect();
      const ctm = svg.getScreenCTM()!;
      for (const path of document.querySelectorAll('#tree-a path.light-box'))
        for (const m of path.getAttribute('d')!.matchAll(/M([\d.e+-]+),([\d.e+-]+)/g)) {
          const p = new DOMPoint(Number(m[1]) + 62, Number(m[2]) + 20).matrixTransform(ctm);
          if (p.x > frame.left + 40 && p.x < frame.right - 40 && p.y > frame.top + 40 && p.y < frame.bottom - 10)
            return { x: p.x, y: p.y, px: 124 * ctm.a };
        }
      return null;
    });
    expect(target).not.toBeNull();
    expect(target!.px).toBeLessThan(60); // still light: no text at this size
    await page.mouse.click(target!.x, target!.y);
    await settle(page);
    const picked = (await page.locator('#node-body').getAttribute('data-node'))!.replace('a:', '');
    const box = (await page.locator(`#tree-a g.node[data-node="${picked}"]`).boundingBox())!;
    expect(target!.x).toBeGreaterThanOrEqual(box.x);
    expect(target!.x).toBeLessThanOrEqual(box.x + box.width);
    // Zoomed to a legible size, the boxes in view are made.
    await page.locator('#tree-a .zoom-frame').focus();
    for (let i = 0; i < 8; i++) await page.keyboard.press('+');
    expect(await page.locator('#tree-a g.node').count()).toBeGreaterThan(2);
    expect(await page.locator('#tree-a g.node').count()).toBeLessThan(nodes);

    // Every node by keyboard at any zoom: the tree is one tab stop (the node last picked); arrows
    // move to the parent, the first child and the neighbours at a depth, and bring the node into
    // view at a legible size.
    const focused = () =>
      page.evaluate(() => {
        const g = document.activeElement!;
        const r = g.getBoundingClientRect();
        const f = document.querySelector('#tree-a svg')!.getBoundingClientRect();
        const inside = r.left >= f.left && r.right <= f.right && r.top >= f.top && r.bottom <= f.bottom;
        return {
          id: Number(g.getAttribute('data-node')),
          level: Number(g.getAttribute('aria-level')),
          x: r.left,
          shown: inside && r.width >= 60,
          stops: document.querySelectorAll('#tree-a g.node[tabindex="0"]').length,
        };
      });
    await page.locator('#tree-a .zoom-frame').focus();
    await page.keyboard.press('0'); // the whole tree in view: light boxes a pixel or two wide
    await page.keyboard.press('Tab');
    expect(await focused()).toMatchObject({ id: Number(picked), shown: true, stops: 1 });
    await page.keyboard.press('Home');
    expect(await focused()).toMatchObject({ id: 0, level: 1, shown: true, stops: 1 });
    // Down ten levels (from a leaf, right to its neighbour first), then up one.
    let last = 0;
    for (let level = 2; level <= 11; level++) {
      await page.keyboard.press('ArrowDown');
      if ((await focused()).id === last) {
        await page.keyboard.press('ArrowRight');
        await page.keyboard.press('ArrowDown');
      }
      const at = await focused();
      expect(at).toMatchObject({ level, shown: true, stops: 1 });
      last = at.id;
    }
    await page.keyboard.press('ArrowUp');
    const upper = await focused();
    expect(upper).toMatchObject({ level: 10, shown: true });
    await page.keyboard.press('ArrowDown');
    expect((await focused()).id).toBe(last);
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowLeft');
    const left = await focused();
    expect(left).toMatchObject({ level: upper.level, shown: true, stops: 1 });
    expect(left.id).not.toBe(upper.id);
    await page.keyboard.press('Enter');
    await settle(page);
    expect(await page.locator('#node-body').getAttribute('data-node')).toBe(`a:${left.id}`);
    await page.screenshot({ path: join(shots, 'noise-keyboard.png') });
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it('a pruned tree: the tree before pruning is shown at once, then the pruned one; a change while pruning drops the pruning', async () => {
    const csv = noiseCsv('noise-pruned.csv', 2000);
    // Every text the stats line shows, in order, from the first grow (the default: cart,
    // cost-complexity pruning by 10-fold CV).
    const { page, problems } = await open(await explore(csv, 'noise-pruned'), true, () => {
      const w = window as unknown as { seen: string[] };
      w.seen = [];
      document.addEventListener('DOMContentLoaded', () => {
        const stats = document.getElementById('stats-a')!;
        new MutationObserver(() => w.seen.push(stats.textContent ?? '')).observe(stats, {
          childList: true,
          characterData: true,
          subtree: true,
        });
      });
    });
    const seen = async () => {
      const texts = await page.evaluate(() => (window as unknown as { seen: string[] }).seen.splice(0));
      return texts;
    };
    const texts = await seen();
    const before = texts.findIndex((t) =>
      / before pruning; .*pruning \(cross-validation: 0 of 10 folds grown\)…$/.test(t),
    );
    const folds = texts.findIndex((t) => t.includes('pruning (cross-validation: 10 of 10 folds grown)…'));
    const pruned = texts.findIndex((t) => t.includes(', pruned (cost-complexity'));
    expect(before).toBeGreaterThanOrEqual(0);
    expect(folds).toBeGreaterThan(before);
    expect(pruned).toBeGreaterThan(folds);
    // The tree before pruning is the unpruned tree grove fit grows.
    const unpruned = await fitRoot(csv, ['--prune', 'none']);
    expect(texts[before]).toContain(`gini: ${unpruned.nodes} nodes`);
    expect(await page.locator('#stats-a').getAttribute('data-pruning')).toBeNull();

    // A change of measure while the tree is being pruned: that pruning is dropped, never shown.
    await page.locator('#grow').click();
    await page.waitForSelector('#stats-a[data-pruning]', { state: 'attached' });
    await page.selectOption('#opt-a-criterion', 'info-gain');
    await settle(page);
    const after = await seen();
    expect(after.filter((t) => t.includes('gini') && t.includes(', pruned ('))).toEqual([]);
    expect(after[after.length - 1]).toMatch(/, info-gain: .*, pruned \(cost-complexity/);
    expect(await page.locator('#error').isHidden()).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it('side by side, tree A failing while B waits to be pruned and a change meanwhile: the page settles, B is the last asked for', async () => {
    const csv = noiseCsv('noise-side.csv', 2000);
    const { page, problems } = await open(await explore(csv, 'noise-side'));
    await page.check('#side');
    await settle(page);
    await page.selectOption('#opt-a-criterion', 'twoing');
    await settle(page);
    await page.selectOption('#opt-b-criterion', 'gini');
    await settle(page);
    // In one task: A's measure scores binary splits only, so A's grow fails at once while B's grows
    // and waits for its tree before pruning to be painted; B's measure changes meanwhile. The next
    // grow of B must not be woken by the first one's late `shown`, nor leave the first one waiting.
    await page.evaluate(() => {
      const set = (id: string, value: string) => {
        const select = document.getElementById(id) as HTMLSelectElement;
        select.value = value;
        select.dispatchEvent(new Event('change', { bubbles: true }));
      };
      set('opt-a-categoricalSplit', 'multiway');
      set('opt-b-criterion', 'info-gain');
    });
    await settle(page);
    expect(await page.locator('#error').textContent()).toMatch(/criterion 'twoing' scores binary splits only/);
    const pruned = await fitRoot(csv, ['--criterion', 'info-gain', '--categorical-split', 'multiway']);
    const b = await page.locator('#stats-b').textContent();
    expect(b).toMatch(/, info-gain: .*, pruned \(cost-complexity/);
    expect(b).toContain(`info-gain: ${pruned.nodes} nodes`);
    expect(await page.locator('#stats-b').getAttribute('data-pruning')).toBeNull();
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);

  it('a tab hidden while its tree before pruning waits for a frame: the pruning starts all the same', async () => {
    const csv = noiseCsv('noise-hidden.csv', 1000);
    // No frame is ever painted, as in a tab hidden before its next frame.
    const { page, problems } = await open(await explore(csv, 'noise-hidden'), false, () => {
      window.requestAnimationFrame = () => 0;
    });
    await page.waitForSelector('#stats-a[data-pruning]', { state: 'attached' });
    await page.evaluate(() => {
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await settle(page);
    expect(await page.locator('#stats-a').textContent()).toMatch(/, pruned \(cost-complexity/);
    expect(await page.locator('#stats-a').getAttribute('data-pruning')).toBeNull();
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);

  it("grown on two workers (the grower and its helper): fit's tree, rule for rule, pruned or not, exact or histogram, the helper restarted after an error and after it hangs", async () => {
    const csv = wideCsv('wide.csv', 7000);
    const { page, problems } = await open(await explore(csv, 'wide'));
    const data = await readDataset(csv);
    for (const [prune, options] of [
      ['', {}],
      ['none', { prune: 'none' }],
    ] as const) {
      await page.selectOption('#opt-a-prune', prune);
      await settle(page);
      const stats = page.locator('#stats-a');
      // 2: the helper grew some of the subtrees (the worker counts what it grew).
      expect(await onTwo(page)).toBe('2');
      expect(await stats.textContent()).toContain('on 2 workers');
      // Unpruned, the tree's rules are too long to set at once: the first ones and a button.
      expect(await page.locator('#rules-a-all').isVisible()).toBe(prune === 'none');
      expect(await rulesShown(page)).toBe(rulesToText(fit(data, options)));
    }
    // A tree whose top is all of it (depth 1: no subtree left as a task) is grown in two but by the grower alone.
    await page.fill('#opt-a-maxDepth', '1');
    await page.locator('#opt-a-maxDepth').dispatchEvent('change');
    await settle(page);
    expect(await page.locator('#stats-a').getAttribute('data-workers')).toBe('1');
    expect(await page.locator('#stats-a').textContent()).not.toContain('on 2 workers');
    expect(await rulesShown(page)).toBe(rulesToText(fit(data, { prune: 'none', maxDepth: 1 })));
    await page.fill('#opt-a-maxDepth', '');
    await page.locator('#opt-a-maxDepth').dispatchEvent('change');
    await settle(page);
    // The helper (the worker named so) raises an error: the page restarts it and links the grower
    // to the new one, which grows some of the next tree.
    const workers = page.workers();
    const names = await Promise.all(workers.map((w) => w.evaluate(() => self.name)));
    const helperWorker = workers[names.indexOf('helper')];
    expect(helperWorker).toBeDefined();
    const closed = helperWorker.waitForEvent('close');
    await helperWorker.evaluate(() => {
      setTimeout(() => {
        throw new Error('the helper broke');
      });
    });
    await closed;
    await page.selectOption('#opt-a-prune', '');
    await settle(page);
    expect(page.workers()).not.toContain(helperWorker);
    expect(await rulesShown(page)).toBe(rulesToText(fit(data, {})));
    // The grower waits for no helper: the first trees may be all its own while the new helper loads the data.
    expect(await regrowOnTwo(page)).toBe('2');
    expect(await rulesShown(page)).toBe(rulesToText(fit(data, {})));
    expect(await page.locator('#error').isHidden()).toBe(true);
    // The new helper hangs (no error, no answer: as silent as a helper killed without a word): the
    // grower grows its task itself, and (at least a second later) tells the page, which replaces it.
    const now = page.workers();
    const named = await Promise.all(now.map((w) => w.evaluate(() => self.name)));
    const hung = now[named.indexOf('helper')];
    expect(hung).toBeDefined();
    const replaced = hung.waitForEvent('close');
    await hung.evaluate(() => {
      setTimeout(() => {
        for (;;);
      });
    });
    await page.selectOption('#opt-a-prune', 'none');
    await settle(page);
    await replaced;
    expect(await page.locator('#stats-a').getAttribute('data-workers')).toBe('1');
    expect(await rulesShown(page)).toBe(rulesToText(fit(data, { prune: 'none' })));
    expect(await regrowOnTwo(page)).toBe('2');
    expect(await page.locator('#error').isHidden()).toBe(true);
    // Histogram mode: the helper is sent the bin codes and each task's class histograms.
    await page.fill('#opt-a-bins', '64');
    await page.locator('#opt-a-bins').dispatchEvent('change');
    await settle(page);
    expect(await onTwo(page)).toBe('2');
    expect(await rulesShown(page)).toBe(rulesToText(fit(data, { prune: 'none', bins: 64 })));
    // C-MBSV's own grower on two workers too (the page offers no k-NN regions, which would keep it on one).
    await page.fill('#opt-a-bins', '');
    await page.locator('#opt-a-bins').dispatchEvent('change');
    await page.selectOption('#preset-a', 'cmbsv');
    await settle(page);
    expect(await onTwo(page)).toBe('2');
    expect(await rulesShown(page)).toBe(rulesToText(fit(data, { algorithm: 'cmbsv', prune: 'none' })));
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it('data with one class (handed to the page another way than the CLI) gets a clear message in the page', async () => {
    const html = join(dir, 'one-class.html');
    const data: EmbeddedData = {
      source: 'one.csv',
      target: 'class',
      classes: ['yes'],
      labels: [0, 0, 0],
      features: [{ kind: 'numeric', name: 'x', values: [1, 2, 3] }],
      totalRows: 3,
    };
    writeFileSync(html, explorePage(data, readPageScripts(resolve(repoRoot, 'dist/explore-page'))));
    const { page, problems } = await open(html);
    expect(await page.locator('#error').isVisible()).toBe(true);
    expect(await page.locator('#error').textContent()).toContain("only one class (yes) in 'class'");
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it('grove/browser as one ES module (dist/browser/grove.js): the README example grows the tree Node grows', async () => {
    const blank = join(dir, 'blank.html');
    writeFileSync(blank, '<!doctype html><title>blank</title><body data-state="idle"></body>');
    const { page, problems } = await open(blank);
    const code = readFileSync(resolve(repoRoot, 'dist/browser/grove.js'), 'utf8');
    // A string, not a function: vitest would rewrite a function's import() for Node.
    await page.evaluate((src) => {
      (window as unknown as { groveUrl: string }).groveUrl = URL.createObjectURL(
        new Blob([src], { type: 'text/javascript' }),
      );
    }, code);
    const text = (await page.evaluate(`(async () => {
      const g = await import(window.groveUrl);
      const rows = [
        { outlook: 'sunny', humidity: 85, play: 'no' },
        { outlook: 'sunny', humidity: 90, play: 'no' },
        { outlook: 'overcast', humidity: 78, play: 'yes' },
        { outlook: 'rain', humidity: 96, play: 'yes' },
        { outlook: 'rain', humidity: 70, play: 'yes' },
      ];
      return g.treeToText(g.fit(g.datasetFromRows(rows, { target: 'play' }), { algorithm: 'id3' }));
    })()`)) as string;
    const { datasetFromRows, fit: fitNode, treeToText } = await import('../../src/index.js');
    const rows = [
      { outlook: 'sunny', humidity: 85, play: 'no' },
      { outlook: 'sunny', humidity: 90, play: 'no' },
      { outlook: 'overcast', humidity: 78, play: 'yes' },
      { outlook: 'rain', humidity: 96, play: 'yes' },
      { outlook: 'rain', humidity: 70, play: 'yes' },
    ];
    expect(text).toBe(treeToText(fitNode(datasetFromRows(rows, { target: 'play' }), { algorithm: 'id3' })));
    expect(text).toContain('outlook');
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it('over the row limit: a stratified sample, with a notice in the page', async () => {
    const html = await explore(fixture('tutorial-30.csv'), 'sampled', ['--max-rows', '12']);
    const { page, problems } = await open(html);
    expect(await page.locator('#notice').textContent()).toContain('a sample of 12 of the 30 rows');
    expect(await page.locator('#tree-a g.node[data-node="0"]').getAttribute('aria-label')).toContain('12 rows');
    // Row numbers shown are the file's.
    const rows = (await page.locator('#node-rows').inputValue()).split(', ').map(Number);
    expect(rows.length).toBe(12);
    expect(rows.every((r) => r >= 1 && r <= 30)).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});

describe.skipIf(!haveChromium || !haveCorpus)('grove explore in Chromium: corpus data sets', () => {
  const cases: [string, string][] = [
    ['iris', 'info-gain'],
    ['glass', 'hellinger'],
    ['mushroom', 'dcsm'],
    ['breast-cancer-wisconsin-diagnostic', 'gain-ratio'],
  ];
  for (const [name, measure] of cases)
    it(`${name} with ${measure}`, async () => checkDataset(name, corpus(name), measure), 120_000);
});
