/**
 * The explore page's "why" pictures, in Debian's Chromium at a phone's width (390 CSS pixels, as
 * explore-open.browser.test.ts starts it): after a file is opened and the section opened, tree A's SHAP summary, a row's
 * waterfall and a partial dependence curve appear, and say what TreeSHAP and partial dependence
 * computed in Node say for the same tree. Without /usr/bin/chromium the tests are skipped.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fit } from '../../src/algorithms/fit.js';
import { subsetRows } from '../../src/data/subset.js';
import { partialDependence } from '../../src/explain/partial.js';
import { shapValues } from '../../src/explain/shap.js';
import { shapSummary } from '../../src/explain/summary.js';
import { explorePage } from '../../src/explore/html.js';
import { readPageScripts } from '../../src/explore/scripts.js';
import { summaryRowCount } from '../../src/explore-page/explain-tree.js';
import { readDataset } from '../../src/sources/file-source.js';
import { CHROMIUM, haveChromium, launchChromium } from '../helpers/chromium.js';
import { repoRoot } from '../helpers/cli.js';

if (!haveChromium)
  console.warn(
    `skipping the explore page's explanation browser tests: ${CHROMIUM} not found (apt-get install chromium)`,
  );

const PHONE = { width: 390, height: 844 };
let context: BrowserContext;
let dir: string;
let html: string;
const glass = resolve(repoRoot, 'data/glass.csv');

beforeAll(async () => {
  if (!haveChromium) return;
  dir = mkdtempSync(join(tmpdir(), 'grove-explore-why-'));
  const launched = launchChromium(join(dir, 'profile'), PHONE);
  html = join(dir, 'empty.html');
  writeFileSync(html, explorePage(undefined, readPageScripts(resolve(repoRoot, 'dist/explore-page'))));
  context = await launched;
}, 120_000);

afterAll(async () => {
  await context?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function settle(page: Page): Promise<void> {
  await page.waitForSelector('body[data-state="idle"]', { state: 'attached', timeout: 60_000 });
}

/** Each picture's box in the page and its viewBox width: it must fit the phone and keep 12-unit text legible. */
async function pictureBoxes(page: Page): Promise<{ id: string; left: number; right: number; scale: number }[]> {
  return page.evaluate(() =>
    ['why-summary', 'why-waterfall', 'why-partial'].map((id) => {
      const svg = document.querySelector(`#${id} svg`) as SVGSVGElement;
      const box = svg.getBoundingClientRect();
      return { id, left: box.left, right: box.right, scale: box.width / svg.viewBox.baseVal.width };
    }),
  );
}

describe.skipIf(!haveChromium)('the explore page explains tree A', () => {
  it('shows the SHAP summary, a waterfall ending at the prediction and partial dependence, on a phone', async () => {
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`page error: ${String(e)}`));
    await page.goto(`file://${html}`);
    await settle(page);
    await page.setInputFiles('#file', glass);
    await settle(page);
    // Closed, the section computes nothing; opened, it shows tree A's pictures.
    expect(await page.locator('#why-summary svg').count()).toBe(0);
    await page.locator('#why-box > summary').click();
    await settle(page);
    expect(await page.locator('#error').isHidden(), (await page.locator('#error').textContent()) ?? '').toBe(true);

    const data = await readDataset(glass);
    const tree = fit(data, {});
    // The rows the page's summary averages over (all of them for a tree this small).
    const count = summaryRowCount(tree, data.nRows);
    expect(count).toBe(data.nRows);
    expect(await page.locator('#why-summary').getAttribute('data-rows')).toBe(String(count));
    const summary = shapSummary(shapValues(tree, data));
    const contributing = summary.order.filter((j) => summary.total[j] > 0);
    expect(contributing.length).toBeGreaterThan(1);
    // One bar per contributing feature (at most 12, the rest in one bar).
    const bars = Math.min(contributing.length, 12) + (contributing.length > 12 ? 1 : 0);
    expect(await page.locator('#why-summary svg.shap-summary g.bar').count()).toBe(bars);
    expect(await page.locator('#why-summary').getAttribute('data-contributing')).toBe(String(contributing.length));
    const names = await page.locator('#why-summary g.bar title').allTextContents();
    expect(names).toEqual(contributing.slice(0, 12).map((j) => data.features[j].name));

    // Row 1's waterfall ends at the probability the tree predicts for its most probable class.
    const checkRow = async (row: number) => {
      const proba = tree.predictProbaFlat(subsetRows(data, [row]));
      const c = proba.indexOf(Math.max(...proba));
      const waterfall = page.locator('#why-waterfall');
      expect(await waterfall.getAttribute('data-class-name')).toBe(String(tree.classes[c]));
      expect(Number(await waterfall.getAttribute('data-prediction'))).toBeCloseTo(proba[c], 9);
      const shap = shapValues(tree, subsetRows(data, [row]));
      const k = shap.classes.length;
      expect(Number(await waterfall.getAttribute('data-expected'))).toBeCloseTo(shap.expected[c], 12);
      const steps = shap.features.filter((_, j) => shap.values[j * k + c] !== 0).length;
      expect(await page.locator('#why-waterfall g.step').count()).toBe(Math.min(steps, 10) + (steps > 10 ? 1 : 0));
      expect(await page.locator('#why-waterfall svg text').first().textContent()).toBe(
        `P(${tree.classes[c]}): ${shap.expected[c].toFixed(3)} → ${proba[c].toFixed(3)}`,
      );
    };
    await checkRow(0);

    // The partial dependence on the feature contributing most: one line per class.
    const top = data.features[summary.order[0]].name;
    expect(await page.locator('#why-partial').getAttribute('data-feature')).toBe(top);
    expect(await page.locator('#why-partial polyline.pd-line').count()).toBe(tree.classes.length);
    const pd = partialDependence(tree, data, top);
    const first = (await page.locator('#why-partial polyline.pd-line').first().getAttribute('points')) ?? '';
    expect(first.split(' ')).toHaveLength(pd.grid.length);

    // Another row and feature, chosen in the section's form.
    await page.fill('#why-row', '100');
    await page.locator('#why-row').dispatchEvent('change');
    await settle(page);
    await checkRow(99);
    const other = data.features[summary.order[1]].name;
    await page.selectOption('#why-feature', other);
    await settle(page);
    expect(await page.locator('#why-partial').getAttribute('data-feature')).toBe(other);

    // At a phone's width every picture fits and its 12-unit text is drawn at 11 CSS pixels or more.
    for (const box of await pictureBoxes(page)) {
      expect(box.left, box.id).toBeGreaterThanOrEqual(0);
      expect(box.right, box.id).toBeLessThanOrEqual(PHONE.width);
      expect(12 * box.scale, box.id).toBeGreaterThanOrEqual(11);
    }
    expect(problems).toEqual([]);
    await page.close();
  }, 180_000);
});
