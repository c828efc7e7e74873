#!/usr/bin/env node
// Do the growth limits cost more than the plain fit they restrict? For each data set and mode
// (exact, histogram), the best of `rounds` fit times of the plain fit and of the same fit with
// maxLeafNodes or maxFeatures, measured in one run, rounds interleaved so machine noise hits all
// alike; prints each restricted fit's time over the plain fit's.
//   npm run build && node bench/restrict.mjs [--rounds 5] [--data ../shared/datasets]
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fit, readDataset } from '../dist/node.js';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const rounds = Number(opt('--rounds', '5'));
const dataDir = resolve(opt('--data', resolve(here, '../../shared/datasets')));
const SETS = ['magic', 'letter-recognition', 'spambase', 'satellite'];
const MODES = [
  ['exact', {}],
  ['histogram', { bins: 255 }],
];
const LIMITS = [
  ['maxLeafNodes 16', { maxLeafNodes: 16 }],
  ['maxLeafNodes 256', { maxLeafNodes: 256 }],
  ['maxFeatures sqrt', { maxFeatures: 'sqrt' }],
  ['maxFeatures 0.5', { maxFeatures: 0.5 }],
];

console.log(`best of ${rounds} fits, ms; ratio = restricted / plain (node ${process.version})\n`);
console.log(`| data set | mode | plain | ${LIMITS.map(([n]) => n).join(' | ')} |`);
console.log(`|---|---|---|${LIMITS.map(() => '---').join('|')}|`);
for (const name of SETS) {
  const csv = resolve(dataDir, `${name}.csv`);
  if (!existsSync(csv)) {
    console.log(`| ${name} | skipped: ${csv} is absent |`);
    continue;
  }
  const data = await readDataset(csv);
  for (const [mode, modeOptions] of MODES) {
    const configs = [
      { prune: 'none', ...modeOptions },
      ...LIMITS.map(([, o]) => ({ prune: 'none', ...modeOptions, ...o })),
    ];
    const best = configs.map(() => Infinity);
    const leaves = configs.map((o) => fit(data, o).stats().leaves); // also the warm-up
    for (let r = 0; r < rounds; r++) {
      configs.forEach((o, i) => {
        const t = performance.now();
        fit(data, o);
        best[i] = Math.min(best[i], performance.now() - t);
      });
    }
    const cells = best
      .slice(1)
      .map((ms, i) => `${ms.toFixed(0)} (${(ms / best[0]).toFixed(2)}, ${leaves[i + 1]} leaves)`);
    console.log(`| ${name} | ${mode} | ${best[0].toFixed(0)} (${leaves[0]} leaves) | ${cells.join(' | ')} |`);
  }
}
