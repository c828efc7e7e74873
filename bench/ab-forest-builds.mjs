#!/usr/bin/env node
/**
 * Two builds' forests in one process, alternating: CPU time a tree of
 * `fitForest(data, { trees, threads, seed: 3 })` (process.cpuUsage) with each build's dist/node.js,
 * the order swapped every round, and the trees' node counts (the same trees give the same counts).
 * A build copied out of the tree (`cp -r dist /tmp/before`) needs node_modules beside or above it.
 *
 *   npx tsc -p tsconfig.json
 *   node bench/ab-forest-builds.mjs BEFORE_DIST AFTER_DIST [--threads 1] [--rounds 8] [--trees 25]
 *        [--sets spambase,letter-recognition] [--data ../shared/datasets]
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const { values: opt, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    threads: { type: 'string', default: '1' },
    rounds: { type: 'string', default: '8' },
    trees: { type: 'string', default: '25' },
    sets: { type: 'string', default: 'spambase,letter-recognition' },
    data: { type: 'string', default: '../shared/datasets' },
  },
});
if (positionals.length !== 2) throw new Error('usage: ab-forest-builds.mjs BEFORE_DIST AFTER_DIST [options]');
const builds = await Promise.all(positionals.map((d) => import(pathToFileURL(resolve(d, 'node.js')).href)));
const threads = Number(opt.threads);
const trees = Number(opt.trees);
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const fmt = (xs) => xs.map((x) => x.toFixed(2)).join(' ');
for (const set of opt.sets.split(',')) {
  const file = resolve(opt.data, `${set}.csv`);
  const data = await Promise.all(builds.map((g) => g.readDataset(file)));
  const cpu = [[], []];
  const nodes = [0, 0];
  for (let r = 0; r < Number(opt.rounds); r++)
    for (const side of r % 2 === 0 ? [0, 1] : [1, 0]) {
      const c0 = process.cpuUsage();
      const forest = builds[side].fitForest(data[side], { trees, threads, seed: 3 });
      const c = process.cpuUsage(c0);
      cpu[side].push((c.user + c.system) / 1000 / trees);
      nodes[side] = forest.trees.reduce((n, t) => n + t.grown().size, 0);
    }
  console.log(
    `${set}, ${trees} trees, ${threads} thread(s): ms of CPU a tree, before ${fmt(cpu[0])}; after ${fmt(cpu[1])}; ` +
      `median after / before ${(median(cpu[1]) / median(cpu[0])).toFixed(3)}, ` +
      `min ${(Math.min(...cpu[1]) / Math.min(...cpu[0])).toFixed(3)}; nodes ${nodes[0]} and ${nodes[1]}`,
  );
}
