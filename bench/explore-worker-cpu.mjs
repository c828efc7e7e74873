// CPU time of the explore page's workers per regrow, from Chromium's trace (each task's thread
// time, `tdur`): a measure that other jobs on the machine disturb less than wall time. For each
// build (this one, and `--base DIR`'s dist/ when given) it opens the page for `magic`, sets the
// controls, regrows `--repeats` times under the trace and prints each worker's CPU time per
// regrow (the grower's: the grow, its view, the root's node panel, the rules and the chart; the
// helper's: the subtrees it grew) and the median of the page's own fit time.
//
//   node bench/explore-worker-cpu.mjs [--controls '{"opt-a-prune":"none"}'] [--repeats 6] [--base ../other/dist]

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { launchChromium, median, writePage } from './lib/explore-page.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({
  options: {
    data: { type: 'string', default: resolve(root, '../shared/datasets/magic.csv') },
    controls: { type: 'string', default: '{"opt-a-prune":"none"}' },
    repeats: { type: 'string', default: '6' },
    base: { type: 'string' },
    chromium: { type: 'string', default: process.env.GROVE_CHROMIUM ?? '/usr/bin/chromium' },
  },
});
const controls = JSON.parse(args.controls);
const repeats = Number(args.repeats);
const builds = [['this build', resolve(root, 'dist')], ...(args.base ? [['base', resolve(args.base)]] : [])];

/** Per worker thread: CPU and busy wall time (ms) per regrow, most CPU first. */
function workerTimes(tracePath) {
  const t = JSON.parse(readFileSync(tracePath, 'utf8'));
  const events = t.traceEvents ?? t;
  const names = new Map();
  for (const e of events) if (e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args.name);
  const byThread = new Map();
  for (const e of events) {
    if (e.ph !== 'X' || e.name !== 'ThreadControllerImpl::RunTask') continue;
    if (!names.get(`${e.pid}:${e.tid}`)?.startsWith('DedicatedWorker')) continue;
    const sum = byThread.get(e.tid) ?? { cpu: 0, wall: 0 };
    sum.cpu += (e.tdur ?? 0) / 1000 / repeats;
    sum.wall += e.dur / 1000 / repeats;
    byThread.set(e.tid, sum);
  }
  return [...byThread.values()].sort((a, b) => b.cpu - a.cpu);
}

const browser = await launchChromium(args.chromium);
const dir = mkdtempSync(join(tmpdir(), 'grove-explore-cpu-'));
const lines = [];
try {
  for (const [name, distDir] of builds) {
    const html = await writePage(distDir, args.data, join(dir, 'page.html'));
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const settle = () => page.waitForSelector('body[data-state="idle"]', { state: 'attached', timeout: 600_000 });
    await page.goto(pathToFileURL(html).href);
    await settle();
    for (const [id, value] of Object.entries(controls)) {
      if ((await page.$eval(`#${id}`, (e) => e.tagName)) === 'SELECT') await page.selectOption(`#${id}`, value);
      else {
        await page.fill(`#${id}`, value);
        await page.locator(`#${id}`).dispatchEvent('change');
      }
    }
    await settle();
    // Warm up, then trace.
    for (let i = 0; i < 3; i++) {
      await page.locator('#grow').click();
      await settle();
    }
    const trace = join(dir, 'trace.json');
    await browser.startTracing(page, { path: trace, categories: ['toplevel'] });
    const fits = [];
    for (let i = 0; i < repeats; i++) {
      await page.locator('#grow').click();
      await settle();
      fits.push(Number(await page.$eval('#stats-a', (s) => s.dataset.growMs)));
    }
    await browser.stopTracing();
    await page.close();
    const threads = workerTimes(trace)
      .map((t) => `${t.cpu.toFixed(0)} (busy ${t.wall.toFixed(0)})`)
      .join(' / ');
    lines.push(`| ${name} | ${threads} | ${median(fits).toFixed(0)} |`);
  }
} finally {
  await browser.close();
  rmSync(dir, { recursive: true, force: true });
}
console.log(
  `${args.controls}; ms per regrow, ${repeats} regrows; load average ${loadavg()[0].toFixed(1)} at the end\n\n` +
    '| build | worker CPU (busy wall), most first | fit in worker, median |\n|---|---|--:|\n' +
    lines.join('\n'),
);
