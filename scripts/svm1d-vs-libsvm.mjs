#!/usr/bin/env node
// Compare grove's exact 1-D soft-margin SVM (src/algorithms/cmbsv/svm1d.ts) with libsvm's linear kernel on
// random one-dimensional problems: separable, overlapping and imbalanced, with the C-MBSV paper's
// imbalance weights (C1 = C·n2/(n1+n2), C2 = C·n1/(n1+n2), passed to libsvm as -w1 / -w-1).
//
//   apt-get install -y libsvm-tools     # Debian: svm-train
//   npm run build && node scripts/svm1d-vs-libsvm.mjs [--trials 300] [--seed 7] [--eps 1e-10]
//
// Each problem is solved as C-MBSV solves it — x standardised to mean 0 and sd 1 (svmScaling
// 'standardize') — and, with --raw, on raw values whose scale varies from 0.01 to 100.
//
// For each problem: w from both, the primal objective of each solution (evaluated by one formula;
// libsvm stops at a KKT tolerance `eps`, so its objective can only be ≥ the exact optimum), and the
// threshold t = −b/w. When the optimal b is unique, |t_grove − t_libsvm| is reported; when it is
// not (every α at a bound: any b in grove's [bLow, bHigh] is optimal; grove takes the midpoint and
// libsvm's choice depends on which α its last iterate leaves strictly inside the box), the check is
// whether libsvm's b lies in grove's optimal interval. Not part of `npm test`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mulberry32 } from '../dist/core/random.js';
import { solveSvm1d } from '../dist/extend.js';

const args = process.argv.slice(2);
const arg = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const trials = Number(arg('--trials', '300'));
const random = mulberry32(Number(arg('--seed', '7')));
const eps = arg('--eps', '1e-10');
const raw = args.includes('--raw');
const gauss = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());

try {
  execFileSync('svm-train', [], { stdio: 'ignore' });
} catch (e) {
  if (e.code === 'ENOENT') {
    console.error('svm-train not found: apt-get install -y libsvm-tools');
    process.exit(2);
  }
}

const dir = mkdtempSync(join(tmpdir(), 'svm1d-'));
const kinds = ['separable', 'overlapping', 'imbalanced'];
const worst = Object.fromEntries(
  kinds.map((k) => [
    k,
    { dt: 0, relDt: 0, dw: 0, objGap: 0, objWorse: 0, n: 0, unique: 0, nonUnique: 0, inInterval: 0 },
  ]),
);
let skipped = 0;
for (let trial = 0; trial < trials; trial++) {
  const kind = kinds[trial % 3];
  const n1 = kind === 'imbalanced' ? 20 + Math.floor(random() * 200) : 5 + Math.floor(random() * 60);
  const n2 = kind === 'imbalanced' ? 2 + Math.floor(random() * 15) : 5 + Math.floor(random() * 60);
  const scale = [0.01, 1, 100][Math.floor(random() * 3)];
  const gap = kind === 'separable' ? 4 + random() * 4 : random() * 2;
  const C = [0.1, 1, 10][Math.floor(random() * 3)];
  const x = [];
  const y = [];
  for (let i = 0; i < n1; i++) {
    x.push(scale * (kind === 'separable' ? -gap / 2 - Math.abs(gauss()) * 0.5 : gauss()));
    y.push(1);
  }
  for (let i = 0; i < n2; i++) {
    x.push(scale * (kind === 'separable' ? gap / 2 + Math.abs(gauss()) * 0.5 : gap + gauss()));
    y.push(-1);
  }
  if (!raw) {
    const mean = x.reduce((a, b) => a + b, 0) / x.length;
    const sd = Math.sqrt(x.reduce((a, b) => a + (b - mean) ** 2, 0) / (x.length - 1));
    for (let i = 0; i < x.length; i++) x[i] = (x[i] - mean) / sd;
  }
  const C1 = (C * n2) / (n1 + n2);
  const C2 = (C * n1) / (n1 + n2);
  const c = y.map((v) => (v > 0 ? C1 : C2));
  const grove = solveSvm1d(x, y, c);

  // libsvm: class +1 first in the file, so its decision value is w x − rho with the same sign.
  const data = join(dir, 'train');
  const model = join(dir, 'model');
  writeFileSync(data, `${x.map((v, i) => `${y[i] > 0 ? '+1' : '-1'} 1:${v.toPrecision(17)}`).join('\n')}\n`);
  execFileSync('svm-train', [
    '-s',
    '0',
    '-t',
    '0',
    '-c',
    String(C),
    '-w1',
    (C1 / C).toPrecision(17),
    '-w-1',
    (C2 / C).toPrecision(17),
    '-e',
    eps,
    '-h',
    '0',
    '-q',
    data,
    model,
  ]);
  const text = readFileSync(model, 'utf8');
  const rho = Number(/^rho (\S+)/m.exec(text)[1]);
  const labels = /^label (\S+) (\S+)/m.exec(text);
  const sign = labels[1] === '1' ? 1 : -1;
  let w = 0;
  for (const line of text.slice(text.indexOf('SV\n') + 3).split('\n')) {
    const m = /^(\S+) 1:(\S+)/.exec(line);
    if (m) w += Number(m[1]) * Number(m[2]);
  }
  w *= sign;
  const b = -rho * sign;
  if (grove.w === 0 || w === 0) {
    skipped++;
    continue;
  }
  const tLib = -b / w;
  const objective = (ww, bb) => x.reduce((f, v, i) => f + c[i] * Math.max(0, 1 - y[i] * (ww * v + bb)), 0.5 * ww * ww);
  const spread = Math.max(...x) - Math.min(...x);
  const r = worst[kind];
  r.n++;
  const fG = objective(grove.w, grove.b);
  const fL = objective(w, b);
  r.objGap = Math.max(r.objGap, (fL - fG) / Math.max(1, fG));
  r.objWorse = Math.max(r.objWorse, (fG - fL) / Math.max(1, fG));
  r.dw = Math.max(r.dw, Math.abs(grove.w - w) / Math.max(1, Math.abs(w)));
  const tol = 1e-6 * Math.max(1, Math.abs(grove.bLow), Math.abs(grove.bHigh));
  if (grove.bHigh - grove.bLow > tol) {
    r.nonUnique++;
    if (b >= grove.bLow - tol && b <= grove.bHigh + tol) r.inInterval++;
    else if (process.env.DEBUG) console.log('b outside', kind, { ...grove, alpha: undefined, bl: b, wl: w });
  } else {
    r.unique++;
    r.dt = Math.max(r.dt, Math.abs(grove.threshold - tLib));
    r.relDt = Math.max(r.relDt, Math.abs(grove.threshold - tLib) / spread);
  }
}
rmSync(dir, { recursive: true, force: true });

console.log(
  `grove solveSvm1d vs libsvm svm-train -t 0 (-e ${eps}, -h 0) on ${trials} random 1-D problems, ${raw ? 'raw values (scale 0.01 to 100)' : 'standardised values'} (${skipped} with w = 0 skipped)\n`,
);
console.log(
  '| problems | n | b unique | max abs(t_grove − t_libsvm) (b unique) | same / range of x | b not unique: libsvm b in grove interval | max rel. abs(w_grove − w_libsvm) | max (f_libsvm − f_grove)/max(1, f) | max (f_grove − f_libsvm)/max(1, f) |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
for (const k of kinds) {
  const r = worst[k];
  console.log(
    `| ${k} | ${r.n} | ${r.unique} | ${r.dt.toExponential(2)} | ${r.relDt.toExponential(2)} | ${r.inInterval} of ${r.nonUnique} | ${r.dw.toExponential(2)} | ${r.objGap.toExponential(2)} | ${r.objWorse.toExponential(2)} |`,
  );
}
