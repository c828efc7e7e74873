#!/usr/bin/env node
// A/B of a forest model's load, compile and predict in two builds of grove, in one run: child
// processes alternate, each does what `grove predict ROWS --model F` does, phase by phase: loads the
// model (decode: reading the file and `loadForest`), builds the compiled predictor (compile), reads
// the rows with the model's columns as numeric, as predict reads them (csv), and predicts them once
// (predict); CPU seconds (user + sys) per phase, best of the rounds, and after/before. The
// probabilities' SHA-256 must match.
//   nice -n 10 node bench/ab-forest-load.mjs BEFORE_DIST AFTER_DIST --model F.grove --rows X.csv [--rounds 5]
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const PHASES = ['decode', 'compile', 'csv', 'predict'];

if (args[0] === '--child') {
  const [, dist, model, rows] = args;
  const grove = await import(pathToFileURL(resolve(dist, 'node.js')).href);
  const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1e6;
  };
  const c0 = cpu();
  const forest = grove.loadForest(model);
  const c1 = cpu();
  void forest.compiled;
  const c2 = cpu();
  const data = await grove.readDataset(rows, {
    noTarget: true,
    ignoreUnknownColumns: true,
    categorical: forest.features.filter((f) => f.kind === 'categorical' || f.levels).map((f) => f.name),
    numeric: forest.features.filter((f) => f.kind === 'numeric' && !f.levels).map((f) => f.name),
  });
  const c3 = cpu();
  const proba = forest.predictProbaFlat(data);
  const c4 = cpu();
  const hash = createHash('sha256').update(new Uint8Array(proba.buffer, proba.byteOffset, proba.byteLength));
  console.log(
    JSON.stringify({ decode: c1 - c0, compile: c2 - c1, csv: c3 - c2, predict: c4 - c3, hash: hash.digest('hex') }),
  );
} else {
  const [before, after] = args;
  const model = resolve(opt('--model', '/tmp/lead-fp50k/forest-100.grove'));
  const rows = resolve(opt('--rows', '/tmp/lead-fp50k/x-50000x20.csv'));
  const rounds = Number(opt('--rounds', '5'));
  const load0 = loadavg()[0];
  const best = [{}, {}];
  const hashes = [new Set(), new Set()];
  for (let r = 0; r < rounds; r++) {
    for (const [i, dist] of [before, after].entries()) {
      const p = spawnSync(process.execPath, [process.argv[1], '--child', resolve(dist), model, rows], {
        encoding: 'utf8',
      });
      if (p.status !== 0) throw new Error(p.stderr);
      const got = JSON.parse(p.stdout.trim());
      for (const phase of PHASES) best[i][phase] = Math.min(best[i][phase] ?? Infinity, got[phase]);
      hashes[i].add(got.hash);
    }
  }
  console.log(
    `${model}, ${rows}; ${rounds} rounds, alternating; load average ${load0.toFixed(1)} at start, ${loadavg()[0].toFixed(1)} at end`,
  );
  for (const phase of PHASES) {
    const [b, a] = [best[0][phase], best[1][phase]];
    console.log(
      `${phase.padEnd(8)} before ${b.toFixed(3)} s  after ${a.toFixed(3)} s  after/before ${(a / b).toFixed(3)}`,
    );
  }
  const same = hashes[0].size === 1 && hashes[1].size === 1 && [...hashes[0]][0] === [...hashes[1]][0];
  console.log(`probabilities bit-identical: ${same}`);
}
