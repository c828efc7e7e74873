#!/usr/bin/env node
// A/B predict throughput of two builds of grove in one run, alternating child processes.
//   node bench/ab-predict.mjs BEFORE_DIST AFTER_DIST [--rounds 5] [--data DIR]
// Cases: magic (binary numeric tree: the fast path) and adult under c45 (categorical splits and
// fractional missing values: the general walk). Prints best rows/s of CPU time and after/before.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const dataDir = resolve(opt('--data', '../shared/datasets'));
const CASES = [
  ['magic', { algorithm: 'cart', prune: 'none' }, 'predictCodes'],
  ['magic', { algorithm: 'cart', prune: 'none' }, 'predictProba'],
  ['adult', { algorithm: 'c45' }, 'predictCodes'],
];

if (args[0] === '--child') {
  const [, dist, name, json, method] = args;
  const grove = await import(pathToFileURL(resolve(dist, 'node.js')).href);
  const data = await grove.readDataset(resolve(dataDir, `${name}.csv`));
  const tree = grove.fit(data, JSON.parse(json));
  tree[method](data);
  let reps = 0;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  while (performance.now() - t0 < 1500) {
    tree[method](data);
    reps++;
  }
  const cpu = process.cpuUsage(c0);
  console.log(Math.round((reps * data.nRows) / ((cpu.user + cpu.system) / 1e6)));
} else {
  const [before, after] = args;
  const rounds = Number(opt('--rounds', '5'));
  for (const [name, options, method] of CASES) {
    const best = [0, 0];
    for (let r = 0; r < rounds; r++) {
      for (const [i, dist] of [before, after].entries()) {
        const p = spawnSync(
          process.execPath,
          [process.argv[1], '--child', resolve(dist), name, JSON.stringify(options), method, '--data', dataDir],
          { encoding: 'utf8' },
        );
        if (p.status !== 0) throw new Error(p.stderr);
        best[i] = Math.max(best[i], Number(p.stdout.trim()));
      }
    }
    const label = `${name} ${JSON.stringify(options)} ${method}`.padEnd(60);
    console.log(
      `${label} before ${best[0]} rows/s  after ${best[1]} rows/s  after/before ${(best[1] / best[0]).toFixed(3)}`,
    );
  }
}
