// What the explore page's benchmarks share: a build's page for a data set, Debian's Chromium as they
// launch it, the controls they set, and the median they report.
import { writeFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

/** The page's controls a configuration may set (the others are reset to their defaults). */
const ALL_CONTROLS = ['preset-a', 'opt-a-prune', 'opt-a-bins'];

/** Set `page`'s controls to a configuration's values (id → value; the others to their defaults). */
export async function setControls(page, controls) {
  for (const id of ALL_CONTROLS) {
    const value = controls[id] ?? '';
    const tag = await page.$eval(`#${id}`, (e) => e.tagName);
    if (tag === 'SELECT') await page.selectOption(`#${id}`, value);
    else {
      await page.fill(`#${id}`, value);
      await page.locator(`#${id}`).dispatchEvent('change');
    }
  }
}

/** Resolves after `page` has drawn two frames: the last text set is laid out by then. */
export const painted = (page) =>
  page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))));

/** The median of `xs` (the mean of the middle two for an even count). */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** Write to `file` the page of the data set at `dataPath` as the build in `distDir` (a dist/) writes it. */
export async function writePage(distDir, dataPath, file) {
  const dist = (p) => pathToFileURL(resolve(distDir, p)).href;
  const { readDataset } = await import(dist('sources/file-source.js'));
  const { prepareForPage, DEFAULT_MAX_ROWS } = await import(dist('explore/prepare.js'));
  const { explorePage } = await import(dist('explore/html.js'));
  const { readPageScripts } = await import(dist('explore/scripts.js'));
  const embedded = prepareForPage(await readDataset(dataPath), basename(dataPath), DEFAULT_MAX_ROWS, 1);
  writeFileSync(file, explorePage(embedded, readPageScripts(resolve(distDir, 'explore-page'))));
  return file;
}

/** Chromium at `executablePath`, headless, as every explore benchmark runs it. */
export function launchChromium(executablePath) {
  return chromium.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
}
