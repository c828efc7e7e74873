/**
 * The explore page opening the user's own file, in Debian's Chromium (headless, driven by
 * playwright-core as explore.browser.test.ts drives it): a page written by `grove explore` with no
 * data, opened from file:// with every network request refused, is given files of every format it
 * reads, once through its file picker and once dropped on it. Each file grows the tree `grove fit`
 * grows on the same file (the rules compared), and a file the page cannot read shows the CLI's
 * one-line error and keeps the data set held. Parquet files come from DuckDB, with SNAPPY, GZIP and
 * BROTLI pages. Without /usr/bin/chromium the tests are skipped.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { tableFromIPC, tableToIPC } from 'apache-arrow';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fit } from '../../src/algorithms/fit.js';
import { GroveError } from '../../src/core/errors.js';
import { explorePage } from '../../src/explore/html.js';
import { readPageScripts } from '../../src/explore/scripts.js';
import { rulesToText } from '../../src/export/rules.js';
import { readDataset } from '../../src/sources/file-source.js';
import { CHROMIUM, haveChromium, launchChromium } from '../helpers/chromium.js';
import { repoRoot } from '../helpers/cli.js';
import { convertCsv } from '../sources/convert.js';
import { recompressParquet } from './parquet-codecs.js';

if (!haveChromium)
  console.warn(
    `skipping the explore page's file-opening browser tests: ${CHROMIUM} not found (apt-get install chromium)`,
  );

let context: BrowserContext;
let dir: string;
let html: string;
/** The good files, by what they are: each is read by the page and by `grove fit`. */
const good = new Map<string, string>();

/** `text` with `;` for `,` (no field of the fixtures holds either). */
const semicolons = (text: string) => text.replaceAll(',', ';');

beforeAll(async () => {
  if (!haveChromium) return;
  dir = mkdtempSync(join(tmpdir(), 'grove-explore-open-'));
  const launched = launchChromium(join(dir, 'profile'), { width: 1280, height: 800 });
  html = join(dir, 'empty.html');
  writeFileSync(html, explorePage(undefined, readPageScripts(resolve(repoRoot, 'dist/explore-page'))));
  const glass = join(dir, 'glass.csv');
  writeFileSync(glass, readFileSync(resolve(repoRoot, 'data/glass.csv')));
  const iris = readFileSync(resolve(repoRoot, 'data/iris.csv'), 'utf8');
  const converted = await convertCsv(glass, dir, 'glass-typed');
  good.set('CSV', glass);
  good.set('CSV with semicolons', join(dir, 'iris-semicolons.csv'));
  writeFileSync(good.get('CSV with semicolons')!, semicolons(iris));
  good.set('TSV', converted.tsv);
  good.set('JSON Lines', converted.jsonl);
  good.set('JSON Lines, CRLF line ends', join(dir, 'glass-crlf.ndjson'));
  writeFileSync(
    good.get('JSON Lines, CRLF line ends')!,
    readFileSync(converted.jsonl, 'utf8').replaceAll('\n', '\r\n'),
  );
  good.set('gzip-compressed CSV', converted['csv.gz']);
  good.set('Parquet', converted.parquet);
  good.set('Parquet, GZIP pages', await recompressParquet(converted.parquet, join(dir, 'glass-gzip.parquet'), 'gzip'));
  good.set(
    'Parquet, BROTLI pages',
    await recompressParquet(converted.parquet, join(dir, 'glass-brotli.parquet'), 'brotli'),
  );
  good.set('Arrow IPC file', converted.arrow);
  good.set('Arrow IPC stream', join(dir, 'glass-stream.arrows.ipc'));
  writeFileSync(good.get('Arrow IPC stream')!, tableToIPC(tableFromIPC(readFileSync(converted.arrow)), 'stream'));
  good.set('ARFF', join(dir, 'weather.arff'));
  writeFileSync(
    good.get('ARFF')!,
    '@relation weather\n@attribute outlook {sunny,overcast,rainy}\n@attribute temperature numeric\n' +
      '@attribute play {yes,no}\n@data\nsunny,85,no\nsunny,80,no\novercast,83,yes\nrainy,70,yes\nrainy,68,yes\n' +
      'rainy,65,no\novercast,64,yes\nsunny,72,no\nsunny,69,yes\nrainy,75,yes\n',
  );
  context = await launched;
}, 120_000);

afterAll(async () => {
  await context?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The empty page opened from file://, every problem it reports collected in `problems`. */
async function openPage(): Promise<{ page: Page; problems: string[] }> {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${String(e)}`));
  page.on('console', (m) => (m.type() === 'error' || m.type() === 'warning') && problems.push(m.text()));
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file:') || url.startsWith('blob:')) return route.continue();
    problems.push(`network request: ${url}`);
    return route.abort();
  });
  await page.goto(`file://${html}`);
  await settle(page);
  return { page, problems };
}

async function settle(page: Page): Promise<void> {
  await page.waitForSelector('body[data-state="idle"]', { state: 'attached', timeout: 60_000 });
}

/** Give the page `file`: through its file picker, or dropped on it (a drag carrying the file's bytes). */
async function give(page: Page, file: string, how: 'picker' | 'drop'): Promise<void> {
  if (how === 'picker') await page.setInputFiles('#file', file);
  else {
    const transfer = await page.evaluateHandle(
      ({ name, base64 }) => {
        const text = atob(base64);
        const bytes = Uint8Array.from(text, (c) => c.charCodeAt(0));
        const dt = new DataTransfer();
        dt.items.add(new File([bytes], name));
        return dt;
      },
      { name: basename(file), base64: readFileSync(file).toString('base64') },
    );
    for (const type of ['dragenter', 'dragover', 'drop'])
      await page.dispatchEvent('main', type, { dataTransfer: transfer });
  }
  await settle(page);
}

/** Tree A's whole rules text (a small tree's: shown at once). */
async function rules(page: Page): Promise<string> {
  expect(await page.locator('#rules-a-all').isHidden()).toBe(true);
  return (await page.locator('#rules-a').textContent()) ?? '';
}

/** The CLI's one-line error for `file`, with the name the page knows it by (no folder). */
async function cliError(file: string): Promise<string> {
  try {
    await readDataset(file, { source: basename(file) });
  } catch (err) {
    expect(err).toBeInstanceOf(GroveError);
    // The Arrow reader names the file by its path.
    return (err as Error).message.replace(file, basename(file));
  }
  throw new Error(`${file} was read`);
}

describe.skipIf(!haveChromium)('the explore page opens a file', () => {
  for (const how of ['picker', 'drop'] as const)
    it(`of every format it reads, through the ${how}: the tree grove fit grows on the file`, async () => {
      const { page, problems } = await openPage();
      expect(await page.locator('#summary').textContent()).toContain('No data yet');
      for (const [what, file] of good) {
        await give(page, file, how);
        expect(await page.locator('#error').isHidden(), `${what}: ${await page.locator('#error').textContent()}`).toBe(
          true,
        );
        expect(await page.locator('#title').textContent()).toBe(`grove explore: ${basename(file)}`);
        const data = await readDataset(file);
        expect(await page.locator('#summary').textContent()).toContain(`${data.nRows} rows`);
        expect(await rules(page), what).toBe(rulesToText(fit(data, {})));
      }
      expect(problems).toEqual([]);
      await page.close();
    }, 180_000);

  it("regrows on the target chosen among the file's columns, and keeps the data set when a choice is refused", async () => {
    const { page, problems } = await openPage();
    const file = join(dir, 'pets.csv');
    const colors = ['red', 'green', 'blue'];
    const lines = Array.from({ length: 90 }, (_, i) => {
      const weight = (i % 17) * 1.5;
      const color = colors[(i * 7) % 3];
      return `${weight},${color},4,${weight > 12 || color === 'red' ? 'cat' : 'dog'}`;
    });
    writeFileSync(file, ['weight,color,legs,class', ...lines].join('\n'));
    await give(page, file, 'picker');
    expect(await page.locator('#target').isDisabled()).toBe(false);
    expect(await page.locator('#target option').allTextContents()).toEqual(['weight', 'color', 'legs', 'class']);
    expect(await page.locator('#target').inputValue()).toBe('class');
    expect(await rules(page)).toBe(rulesToText(fit(await readDataset(file), {})));
    await page.selectOption('#target', 'color');
    await settle(page);
    expect(await page.locator('#error').isHidden()).toBe(true);
    const byColor = rulesToText(fit(await readDataset(file, { target: 'color' }), {}));
    expect(await rules(page)).toBe(byColor);
    expect(await page.locator('#summary').textContent()).toContain('3 classes of color');
    // The other columns stay on offer, in the file's order as first read.
    expect(await page.locator('#target option').allTextContents()).toEqual(['weight', 'color', 'legs', 'class']);
    // One value only: refused as a file of one class is, the data set by color kept.
    await page.selectOption('#target', 'legs');
    await settle(page);
    expect(await page.locator('#error').textContent()).toBe(
      "pets.csv: only one class (4) in 'legs': every tree is a single leaf, nothing to explore",
    );
    expect(await page.locator('#target').inputValue()).toBe('color');
    expect(await rules(page)).toBe(byColor);
    expect(problems).toEqual([]);
    await page.close();
  }, 180_000);

  it('a file opened while trees grow and cross-validate, then one opened at rest: every worker on the file opened last', async () => {
    const { page, problems } = await openPage();
    const vehicle = join(dir, 'vehicle.csv');
    writeFileSync(vehicle, readFileSync(resolve(repoRoot, 'data/vehicle.csv')));
    const iris = good.get('CSV with semicolons')!;
    await give(page, vehicle, 'picker');
    // Side by side grows both trees and cross-validates them; the next file comes meanwhile (the
    // workers busy then are started again on it).
    await page.check('#side');
    await give(page, iris, 'picker');
    const cvLines = async () => [await page.locator('#cv-a').textContent(), await page.locator('#cv-b').textContent()];
    const irisData = await readDataset(iris);
    expect(await page.locator('#error').isHidden()).toBe(true);
    expect(await rules(page)).toBe(rulesToText(fit(irisData, {})));
    expect(await cvLines()).toEqual([expect.stringMatching(/^5-fold CV accuracy/), expect.stringMatching(/^5-fold/)]);
    // At rest, the workers load the next file as they are.
    await give(page, vehicle, 'picker');
    expect(await page.locator('#error').isHidden()).toBe(true);
    expect(await page.locator('#summary').textContent()).toContain('846 rows');
    expect(await rules(page)).toBe(rulesToText(fit(await readDataset(vehicle), {})));
    expect(await cvLines()).toEqual([expect.stringMatching(/^5-fold CV accuracy/), expect.stringMatching(/^5-fold/)]);
    expect(problems).toEqual([]);
    await page.close();
  }, 180_000);

  it('refuses a file it cannot read with the CLI one line, keeping the data set held', async () => {
    const { page, problems } = await openPage();
    await give(page, good.get('CSV')!, 'picker');
    const held = await rules(page);
    const bad = new Map<string, string>([
      ['ragged.csv', 'a,b,class\n1,2,x\n3,4\n5,6,y\n'],
      ['one-class.csv', 'a,class\n1,x\n2,x\n'],
      ['garbage.arrow', 'this is not an Arrow file at all, only text'],
      ['garbage.parquet', 'PAR1 not a Parquet file PAR1'],
      ['broken.jsonl', '{"a": 1, "class": "x"}\n{"a": 2, "class": \n'],
    ]);
    const badDir = join(dir, 'bad');
    mkdirSync(badDir, { recursive: true });
    for (const [name, text] of bad) {
      const file = join(badDir, name);
      writeFileSync(file, text);
      for (const how of ['picker', 'drop'] as const) {
        await give(page, file, how);
        const shown = (await page.locator('#error').textContent()) ?? '';
        expect(await page.locator('#error').isVisible(), name).toBe(true);
        if (name === 'one-class.csv')
          expect(shown).toBe(
            "one-class.csv: only one class (x) in 'class': every tree is a single leaf, nothing to explore",
          );
        else expect(shown, name).toBe(await cliError(file));
        expect(shown).not.toContain('\n');
        expect(await page.locator('#title').textContent()).toBe('grove explore: glass.csv');
        expect(await rules(page)).toBe(held);
      }
    }
    // The held data set still grows: a change of option regrows on it.
    await page.selectOption('#opt-a-prune', 'none');
    await settle(page);
    expect(await rules(page)).toBe(rulesToText(fit(await readDataset(good.get('CSV')!), { prune: 'none' })));
    expect(await page.locator('#error').isHidden()).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  }, 180_000);
});
