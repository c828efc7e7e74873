#!/usr/bin/env node
import { spawnSync } from 'node:child_process';
// A/B fit time of two builds of grove in one run, alternating so machine noise hits both alike.
//   node bench/ab-fit.mjs BEFORE_DIST AFTER_DIST [--rounds 5] [--data DIR]
// Prints, per (data set, configuration), the best fit time of each build and after/before.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const [before, after] = args;
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const rounds = Number(opt('--rounds', '5'));
const dataDir = resolve(opt('--data', '../shared/datasets'));
const CASES = [
  ['magic', { algorithm: 'cart', prune: 'none' }],
  ['magic', { algorithm: 'cart', prune: 'none', bins: 255 }],
  ['letter-recognition', { algorithm: 'c45' }],
  ['spambase', { algorithm: 'cart' }],
  ['adult', { algorithm: 'c45' }],
  ['adult', { algorithm: 'cart', prune: 'none', bins: 64, missing: 'learned' }],
  ['satellite', { algorithm: 'cmbsv' }],
  ['magic', { criterion: 'dcsm', prune: 'none', threads: 2 }],
];

if (args[0] === '--child') {
  // One build, one case: warm up, then the best of `rounds` fits, in ms.
  const [, dist, name, json, n] = args;
  const grove = await import(pathToFileURL(resolve(dist, 'node.js')).href);
  const data = await grove.readDataset(resolve(dataDir, `${name}.csv`));
  const options = JSON.parse(json);
  grove.fit(data, options);
  let best = Infinity;
  for (let i = 0; i < Number(n); i++) {
    const t = performance.now();
    grove.fit(data, options);
    best = Math.min(best, performance.now() - t);
  }
  console.log(best.toFixed(1));
} else {
  for (const [name, options] of CASES) {
    const best = [Infinity, Infinity];
    for (let r = 0; r < rounds; r++) {
      for (const [i, dist] of [before, after].entries()) {
        const p = spawnSync(
          process.execPath,
          [process.argv[1], '--child', resolve(dist), name, JSON.stringify(options), '2', '--data', dataDir],
          { encoding: 'utf8' },
        );
        if (p.status !== 0) throw new Error(p.stderr);
        best[i] = Math.min(best[i], Number(p.stdout.trim()));
      }
    }
    console.log(
      `${name.padEnd(20)} ${JSON.stringify(options).padEnd(70)} before ${best[0].toFixed(0).padStart(6)} ms  after ${best[1].toFixed(0).padStart(6)} ms  ratio ${(best[1] / best[0]).toFixed(3)}`,
    );
  }
}
