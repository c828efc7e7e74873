#!/usr/bin/env node
/**
 * The per-node sorting grower (src/learn/grow-node-sort.ts) on and off in one process: CPU time of
 * a forest (or, with --single, a single tree) grown each way, alternating, and whether the trees
 * are the same. Where the grower does not apply (docs/performance.md, "Per-node sorting") both
 * runs use the presorted grower.
 *
 *   npx tsc -p tsconfig.json
 *   node bench/ab-node-sort.mjs [--sets spambase,letter-recognition] [--trees 20] [--rounds 3]
 *        [--single] [--options '{"maxFeatures":"sqrt"}'] [--data ../shared/datasets]
 */
import { createHash } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values: opt } = parseArgs({
  options: {
    sets: { type: 'string', default: 'spambase,letter-recognition' },
    trees: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '3' },
    single: { type: 'boolean', default: false },
    options: { type: 'string', default: '{}' },
    data: { type: 'string', default: resolve(ROOT, '../shared/datasets') },
  },
});
const grove = await import(pathToFileURL(join(ROOT, 'dist', 'node.js')).href);
const { NodeSortGrower } = await import(pathToFileURL(join(ROOT, 'dist', 'learn', 'grow-node-sort.js')).href);
const extra = JSON.parse(opt.options);
const trees = Number(opt.trees);
for (const set of opt.sets.split(',')) {
  const data = await grove.readDataset(join(opt.data, `${set}.csv`));
  const grow = () =>
    opt.single
      ? [grove.fit(data, { prune: 'none', ...extra })]
      : grove.fitForest(data, { trees, threads: 1, seed: 3, ...extra }).trees;
  const cpu = { on: [], off: [] };
  const hash = {};
  for (let r = 0; r < Number(opt.rounds); r++)
    for (const side of ['on', 'off']) {
      NodeSortGrower.enabled = side === 'on';
      const c0 = process.cpuUsage();
      const grown = grow();
      const c = process.cpuUsage(c0);
      cpu[side].push((c.user + c.system) / 1000 / grown.length);
      hash[side] = createHash('sha1')
        .update(JSON.stringify(grown.map((t) => t.nodes)))
        .digest('hex');
    }
  const fmt = (xs) => xs.map((x) => x.toFixed(1)).join(', ');
  console.log(
    `${set} ${opt.single ? 'single tree' : `${trees} trees`} ${opt.options}: per-node sorting ${fmt(cpu.on)} ms, ` +
      `presorted ${fmt(cpu.off)} ms of CPU a tree; same trees: ${hash.on === hash.off}`,
  );
}
