#!/usr/bin/env node
/**
 * Opening a large CSV in the explore page (a page `grove explore` wrote with no data), in Debian's
 * Chromium (headless, driven by playwright-core), against `grove info` on the same file in the same
 * run. Reported per file size, as the median of --repeats:
 *
 * - `grove info FILE`: wall time of the whole command (a Node process: start, read, describe);
 * - the page's read: from the file handed to the page's file picker to the reader worker's answer
 *   (the file read by grove's CSV reader from `File.stream()`, sampled to the page's 20,000 rows),
 *   as the page itself times it (`#file-status`'s `data-read-ms`), and the ratio to `grove info`;
 * - until the page is idle: the read, then the tree grown on the sample and painted;
 * - the main thread's long tasks meanwhile (PerformanceObserver 'longtask', tasks over 50 ms):
 *   their count and the longest, from the file handed over until the page is idle, split at the
 *   read's answer, and the longest of those that drew a tree (overlapping the page's drawing
 *   steps); each run's longest is printed with the page's steps it overlaps (the measures
 *   the page marks: drawing a tree, the rules, giving the workers the data, …; none: the task
 *   that takes a worker's message) and its long animation frame (its scripts and rendering);
 * - the main thread's tasks in CPU time, from a Chromium trace of the open: the longest, the one
 *   that gave the workers the data, the longest that drew a tree. On a loaded machine a task's
 *   wall time is mostly waiting for a core; its CPU time is the page's own work.
 *
 * `--against DIR`: the same file also opened in the page built in DIR (another checkout's
 * `npm run build`), rounds alternating, so both builds share the machine's load.
 *
 *   npm run build
 *   node bench/explore-open.mjs [--mb 100,10] [--repeats 3] [--dir /tmp/grove-explore-open] [--keep] [--against DIR]
 *
 * The file (seeded: 10 numeric features with 4 decimals, one categorical of 12 values, a class of 3)
 * is generated in --dir and removed afterwards unless --keep; it is never committed.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { launchChromium, median } from './lib/explore-page.mjs';
import { mulberry32 } from './synthetic.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({
  options: {
    mb: { type: 'string', default: '100' },
    repeats: { type: 'string', default: '3' },
    dir: { type: 'string', default: '/tmp/grove-explore-open' },
    keep: { type: 'boolean', default: false },
    against: { type: 'string' },
    chromium: { type: 'string', default: process.env.GROVE_CHROMIUM ?? '/usr/bin/chromium' },
  },
});
const repeats = Number(args.repeats);
if (!existsSync(args.chromium)) throw new Error(`${args.chromium} not found (apt-get install chromium)`);
/** The page with no data that the build in `repo` writes, as `file`. */
async function writeEmptyPage(repo, file) {
  const dist = (p) => pathToFileURL(resolve(repo, 'dist', p)).href;
  const { explorePage } = await import(dist('explore/html.js'));
  const { readPageScripts } = await import(dist('explore/scripts.js'));
  writeFileSync(file, explorePage(undefined, readPageScripts(resolve(repo, 'dist/explore-page'))));
  return file;
}

/** A seeded CSV of about `mb` megabytes. */
function generate(file, mb) {
  const random = mulberry32(7);
  const fd = openSync(file, 'w');
  const header = `${Array.from({ length: 10 }, (_, f) => `x${f}`).join(',')},colour,class\n`;
  writeSync(fd, header);
  let bytes = header.length;
  const target = mb * 1e6;
  const lines = [];
  while (bytes < target) {
    const x = Array.from({ length: 10 }, () => (random() * 200 - 100).toFixed(4));
    const colour = `c${Math.floor(random() * 12)}`;
    const score = Number(x[0]) + Number(x[3]) / 2 + (random() - 0.5) * 60;
    const line = `${x.join(',')},${colour},${score < -20 ? 'low' : score < 20 ? 'mid' : 'high'}\n`;
    lines.push(line);
    bytes += line.length;
    if (lines.length === 10_000) {
      writeSync(fd, lines.join(''));
      lines.length = 0;
    }
  }
  writeSync(fd, lines.join(''));
  closeSync(fd);
}

/** Wall time (ms) of `grove info FILE`, as a user runs it. */
function groveInfo(file) {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [resolve(root, 'dist/cli/main.js'), 'info', file], { encoding: 'utf8' });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`grove info failed: ${r.stderr}`);
  return ms;
}

/**
 * From a trace of the open (Chromium's `toplevel` tasks, with the thread time each took): the
 * page's main thread's longest task in CPU time and that task's wall time, the task that gave
 * the workers the data (the page's measure of that name), in CPU and wall time, and the longest
 * in CPU time of the tasks that drew a tree (holding the start of a drawing step: 'draw tree', 'tree …'). CPU time does not
 * grow with the machine's load as a long task's wall time does.
 */
function mainThreadCpu(events) {
  const names = new Map();
  for (const e of events) if (e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args.name);
  const tasks = new Map();
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    if (e.ph !== 'X' || e.name !== 'ThreadControllerImpl::RunTask' || names.get(key) !== 'CrRendererMain') continue;
    if (!tasks.has(key)) tasks.set(key, []);
    tasks.get(key).push(e);
  }
  // The page's renderer: the main thread that worked most while the trace ran.
  const busiest = (ts) => ts.reduce((a, t) => a + (t.tdur ?? 0), 0);
  const main = [...tasks.values()].sort((a, b) => busiest(b) - busiest(a))[0] ?? [];
  const cpuOf = (t) => t?.tdur ?? 0;
  const top = main.reduce((a, t) => (a && cpuOf(a) >= cpuOf(t) ? a : t), undefined);
  const marks = events.filter((e) => e.cat?.includes('user_timing') && e.ph === 'b');
  const holding = (m) => main.find((t) => t.ts <= m.ts && t.ts + t.dur >= m.ts);
  const mark = marks.find((e) => e.name === 'workers given the data');
  const given = mark && holding(mark);
  const drew = marks.filter((m) => m.name === 'draw tree' || m.name.startsWith('tree ')).map(holding);
  const drawTop = drew.reduce((a, t) => (!t || (a && cpuOf(a) >= cpuOf(t)) ? a : t), undefined);
  return {
    cpuLongestMs: (top?.tdur ?? 0) / 1000,
    cpuLongestWallMs: (top?.dur ?? 0) / 1000,
    // What ran it (a frame's rendering: ScheduledActionSendBeginMainFrame; a worker's message:
    // PostMessageToWorkerObject; a timer: DOMTimer), and the page's steps that began in it.
    cpuLongestWhat: top
      ? [
          top.args?.src_func ?? '?',
          ...marks.filter((m) => m.ts >= top.ts && m.ts <= top.ts + top.dur).map((m) => m.name),
        ]
          .filter((x, i, all) => all.indexOf(x) === i)
          .join(', ')
      : '',
    givenCpuMs: (given?.tdur ?? 0) / 1000,
    givenWallMs: (given?.dur ?? 0) / 1000,
    drawCpuMs: (drawTop?.tdur ?? 0) / 1000,
    drawWallMs: (drawTop?.dur ?? 0) / 1000,
  };
}

/** One open of `file` in a fresh tab of the page: the page's read time, time until idle, long tasks. */
async function openInPage(browser, html, file) {
  const page = await browser.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  await page.addInitScript(() => {
    window.__longTasks = [];
    window.__frames = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, ms: e.duration });
    }).observe({ type: 'longtask', buffered: true });
    // Long animation frames say how much of a frame was script (and whose) and how much rendering.
    new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        window.__frames.push({
          start: e.startTime,
          ms: e.duration,
          renderMs: e.renderStart ? e.startTime + e.duration - e.renderStart : 0,
          layoutMs: e.styleAndLayoutStart ? e.startTime + e.duration - e.styleAndLayoutStart : 0,
          scripts: e.scripts.map((x) => ({ what: `${x.invoker}`.slice(0, 40), start: x.startTime, ms: x.duration })),
        });
    }).observe({ type: 'long-animation-frame', buffered: true });
  });
  await page.goto(pathToFileURL(html).href);
  await page.waitForSelector('body[data-state="idle"]', { state: 'attached', timeout: 60_000 });
  const from = await page.evaluate(() => performance.now());
  await browser.startTracing(page, { categories: ['toplevel', 'blink.user_timing'] });
  const t0 = performance.now();
  await page.setInputFiles('#file', file);
  await page.waitForSelector('#file-status[data-read-ms]', { state: 'attached', timeout: 600_000 });
  await page.waitForSelector('body[data-state="idle"]', { state: 'attached', timeout: 600_000 });
  const idleMs = performance.now() - t0;
  const cpu = mainThreadCpu(JSON.parse((await browser.stopTracing()).toString()).traceEvents);
  const readMs = Number(await page.getAttribute('#file-status', 'data-read-ms'));
  const tasks = (await page.evaluate(() => window.__longTasks)).filter((t) => t.start >= from);
  const frames = (await page.evaluate(() => window.__frames)).filter((f) => f.start >= from);
  const steps = await page.evaluate(() =>
    performance.getEntriesByType('measure').map((m) => ({ name: m.name, start: m.startTime, ms: m.duration })),
  );
  // The page stamps the read's end; tasks that start before it are the read's, the others the grow's.
  const readEnd = from + readMs;
  const reading = tasks.filter((t) => t.start < readEnd);
  const growing = tasks.filter((t) => t.start >= readEnd);
  const error = await page.locator('#error').isVisible();
  if (error || problems.length > 0)
    throw new Error(`the page failed: ${(await page.locator('#error').textContent()) ?? ''} ${problems.join('; ')}`);
  await page.close();
  const longest = (ts) => Math.max(0, ...ts.map((t) => t.ms));
  // The tasks that drew a tree: those overlapping a step of the drawing ('draw tree', 'tree …').
  const drawing = steps.filter((m) => m.name === 'draw tree' || m.name.startsWith('tree '));
  const drawTasks = tasks.filter((t) => drawing.some((m) => m.start < t.start + t.ms && m.start + m.ms > t.start));
  const top = tasks.reduce((a, t) => (a && a.ms >= t.ms ? a : t), undefined);
  /**
   * What task `t` did: the page's steps it overlaps, and the long animation frame that holds it
   * (its scripts, by what invoked them, and its rendering: 'no script' and a long rendering is the
   * browser laying out and painting what the page put in).
   */
  const describe = (t) => {
    const inT = steps.filter((m) => m.start < t.start + t.ms && m.start + m.ms > t.start && m.ms >= 5);
    const stepText = inT.map((m) => `${m.name} ${m.ms.toFixed(0)} ms`).join(', ') || 'no step of the page';
    const frame = frames.find((f) => f.start <= t.start + 1 && f.start + f.ms >= t.start + t.ms - 1);
    if (!frame) return stepText;
    const scripts = frame.scripts.filter((x) => x.start >= t.start - 1 && x.start < t.start + t.ms);
    const scriptText = scripts.map((x) => `${x.what} ${x.ms.toFixed(0)} ms`).join(', ') || 'no script';
    const render = `rendering ${frame.renderMs.toFixed(0)} ms (style and layout ${frame.layoutMs.toFixed(0)} ms)`;
    return `${stepText}; its frame ${frame.ms.toFixed(0)} ms: ${scriptText}, ${render}`;
  };
  const over100 = tasks
    .filter((t) => t.ms >= 100)
    .map((t) => `${t.ms.toFixed(0)} ms at +${(t.start - readEnd).toFixed(0)} (${describe(t)})`);
  return {
    longestAt: top ? `${(top.start - readEnd).toFixed(0)} ms after the read's answer` : '',
    longestSteps: top ? describe(top) : '',
    over100,
    readMs,
    idleMs,
    longTasks: tasks.length,
    longestMs: longest(tasks),
    readLongestMs: longest(reading),
    growLongestMs: longest(growing),
    drawLongestMs: longest(drawTasks),
    readTasks: reading.length,
    ...cpu,
  };
}

mkdirSync(args.dir, { recursive: true });
const builds = [{ name: 'this build', html: await writeEmptyPage(root, join(args.dir, 'empty.html')) }];
if (args.against)
  builds.push({
    name: args.against,
    html: await writeEmptyPage(resolve(args.against), join(args.dir, 'against.html')),
  });
const loadStart = loadavg()[0];
const browser = await launchChromium(args.chromium);
const rows = [];
try {
  for (const mb of args.mb.split(',').map(Number)) {
    const file = join(args.dir, `open-${mb}mb.csv`);
    if (!existsSync(file)) generate(file, mb);
    const size = statSync(file).size;
    const info = [];
    const opens = builds.map(() => []);
    for (let i = 0; i < repeats; i++) {
      info.push(groveInfo(file));
      // Rounds alternate the builds' order, so neither always runs first.
      const order = i % 2 === 0 ? builds.keys() : [...builds.keys()].reverse();
      for (const b of order) {
        opens[b].push(await openInPage(browser, builds[b].html, file));
        const o = opens[b].at(-1);
        console.error(
          `${mb} MB #${i + 1} (${builds[b].name}): grove info ${info.at(-1).toFixed(0)} ms, page read ` +
            `${o.readMs.toFixed(0)} ms, idle ${o.idleMs.toFixed(0)} ms, ${o.longTasks} long tasks (${o.readTasks} ` +
            `while reading), longest ${o.readLongestMs.toFixed(0)} ms while reading, ${o.growLongestMs.toFixed(0)} ms ` +
            `while growing (${o.drawLongestMs.toFixed(0)} ms drawing a tree); the longest ${o.longestMs.toFixed(0)} ms, ` +
            `${o.longestAt}: ${o.longestSteps}. In CPU time: the longest task ${o.cpuLongestMs.toFixed(1)} ms ` +
            `(${o.cpuLongestWallMs.toFixed(0)} ms wall; ${o.cpuLongestWhat}), giving the workers the data ${o.givenCpuMs.toFixed(1)} ms ` +
            `(${o.givenWallMs.toFixed(0)} ms wall), drawing a tree ${o.drawCpuMs.toFixed(1)} ms (${o.drawWallMs.toFixed(0)} ms wall)`,
        );
        for (const t of o.over100) console.error(`    over 100 ms: ${t}`);
      }
    }
    const infoMs = median(info);
    for (const [b, runs] of opens.entries()) {
      const read = median(runs.map((o) => o.readMs));
      rows.push(
        `| ${(size / 1e6).toFixed(1)} MB${builds.length > 1 ? ` (${builds[b].name})` : ''} | ${infoMs.toFixed(0)} ms | ` +
          `${read.toFixed(0)} ms | ${(read / infoMs).toFixed(2)} | ` +
          `${median(runs.map((o) => o.idleMs)).toFixed(0)} ms | ${Math.max(...runs.map((o) => o.longTasks))} | ` +
          `${Math.max(...runs.map((o) => o.readLongestMs)).toFixed(0)} ms | ` +
          `${Math.max(...runs.map((o) => o.growLongestMs)).toFixed(0)} ms | ` +
          `${Math.max(...runs.map((o) => o.drawLongestMs)).toFixed(0)} ms | ` +
          `${median(runs.map((o) => o.longestMs)).toFixed(0)} ms | ` +
          `${Math.max(...runs.map((o) => o.cpuLongestMs)).toFixed(1)} ms | ` +
          `${Math.max(...runs.map((o) => o.givenCpuMs)).toFixed(1)} ms | ` +
          `${Math.max(...runs.map((o) => o.drawCpuMs)).toFixed(1)} ms |`,
      );
    }
    if (!args.keep) rmSync(file);
  }
} finally {
  await browser.close();
}
console.log(
  `explore page: open a CSV (median of ${repeats}; load ${loadStart.toFixed(1)} → ${loadavg()[0].toFixed(1)})`,
);
console.log(
  '| file | grove info | page: read | ratio | page: read + tree shown | long tasks (most in a run) | ' +
    'longest while reading | longest while growing | longest drawing a tree | longest (median of runs) | ' +
    'CPU: longest task | CPU: giving the workers the data | CPU: drawing a tree |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of rows) console.log(r);
