#!/usr/bin/env node
/**
 * Markdown tables for docs/reproduction.md from the results.json of a `grove compare --out DIR` run.
 *   node scripts/repro-tables.mjs dcsm DIR/results.json     # accuracy and size per data set, ranks, tests
 *   node scripts/repro-tables.mjs cmbsv DIR/results.json    # the C-MBSV paper's Tables 2–4 beside ours
 * Needs the built package (npm run build).
 */
import { readFileSync } from 'node:fs';
import { analyze } from '../dist/eval/analysis.js';
import { parseResults } from '../dist/eval/results-file.js';
import { pText } from '../dist/eval/table.js';

const [mode, file] = process.argv.slice(2);
const results = parseResults(JSON.parse(readFileSync(file, 'utf8')), file);
const a = analyze(results);
const labels = results.configs.map((c) => c.label);
const cell = (d, c) => a.cells.find((x) => x.dataset === d && x.config === c);
const f = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : '—');
const row = (xs) => `| ${xs.join(' | ')} |`;
const out = [];

function statistics(m) {
  const fr = m.friedman;
  if (!fr) return [`${m.label}: ${m.note}`];
  const lines = [
    `- Average ranks on ${m.label} (1 = best): ${m.configs.map((c, j) => `${c} ${f(m.averageRanks[j], 2)}`).join(', ')}.`,
    `- Friedman χ²_F = ${f(fr.chiSquare, 2)} (df ${fr.df}), ${pText(fr.pValue)}; Iman–Davenport F_F = ${f(fr.imanDavenport.F, 2)} (df ${fr.imanDavenport.df1}, ${fr.imanDavenport.df2}), ${pText(fr.imanDavenport.pValue)}.`,
    `- Nemenyi CD = ${f(m.cd05, 3)} at α = 0.05 (${f(m.cd10, 3)} at α = 0.10), N = ${fr.N}, k = ${fr.k}; ` +
      (m.pairs.some((p) => p.nemenyiSignificant)
        ? `significant: ${m.pairs
            .filter((p) => p.nemenyiSignificant)
            .map((p) => (p.rankDifference > 0 ? `${p.a} better than ${p.b}` : `${p.b} better than ${p.a}`))
            .join('; ')}.`
        : 'no pair differs by CD.'),
  ];
  for (const p of m.pairs) {
    lines.push(
      `- ${p.a} vs ${p.b}: better/equal/worse on ${p.wins}/${p.ties}/${p.losses} data sets; Wilcoxon V = ${p.wilcoxon.statistic}, ${pText(p.wilcoxon.pValue)} (${p.wilcoxon.method === 'exact' ? 'exact' : 'normal approximation'}); Nemenyi ${pText(p.nemenyiP)}.`,
    );
  }
  return lines;
}

if (mode === 'dcsm') {
  out.push(row(['data set', 'rows', ...labels.map((l) => `${l} acc. %`), ...labels.map((l) => `${l} leaves`)]));
  out.push(row(['---', '---:', ...labels.flatMap(() => ['---:', '---:'])]));
  for (const d of results.datasets) {
    const cs = labels.map((l) => cell(d.name, l));
    const best = Math.max(...cs.map((c) => c.testAccuracy.mean));
    const fewest = Math.min(...cs.map((c) => c.leaves.mean));
    out.push(
      row([
        d.name,
        d.rows,
        ...cs.map((c) =>
          Math.abs(c.testAccuracy.mean - best) < 1e-12
            ? `**${f(100 * c.testAccuracy.mean, 2)}** ± ${f(100 * c.testAccuracy.sd)}`
            : `${f(100 * c.testAccuracy.mean, 2)} ± ${f(100 * c.testAccuracy.sd)}`,
        ),
        ...cs.map((c) => (Math.abs(c.leaves.mean - fewest) < 1e-12 ? `**${f(c.leaves.mean)}**` : f(c.leaves.mean))),
      ]),
    );
  }
  const mean = (get) =>
    labels.map((l) => a.cells.filter((c) => c.config === l).reduce((s, c) => s + get(c), 0) / results.datasets.length);
  out.push(
    row([
      '**mean**',
      '',
      ...mean((c) => 100 * c.testAccuracy.mean).map((x) => f(x, 2)),
      ...mean((c) => c.leaves.mean).map((x) => f(x)),
    ]),
  );
  out.push(
    row([
      '**avg rank**',
      '',
      ...a.accuracy.averageRanks.map((x) => f(x, 2)),
      ...a.leaves.averageRanks.map((x) => f(x, 2)),
    ]),
  );
  out.push('', ...statistics(a.accuracy), '', ...statistics(a.leaves));
  // The slowest cells, for the record.
  const slow = a.cells
    .slice()
    .sort((x, y) => y.fitMs.mean - x.fitMs.mean)
    .slice(0, 5);
  out.push(
    '',
    `Slowest fits (mean per fold): ${slow.map((c) => `${c.dataset} × ${c.config} ${f(c.fitMs.mean / 1000, 2)} s`).join(', ')}.`,
  );
} else if (mode === 'cmbsv') {
  // Salehi-Moghaddami, Sadoghi Yazdi & Poostchi (2011), Tables 2–4, in the paper's row order.
  const paper = {
    'balance-scale': {
      tr: [30.72, 24.37, 25.69],
      te: [39.19, 39.19, 33.78, 35.06],
      h: [6.67, 8.0, 8.0],
      nf: [0.0, 0.0],
    },
    glass: { tr: [5.24, 11.85, 7.2], te: [32.29, 31.81, 31.97, 32.79], h: [6.53, 10.33, 9.8], nf: [1.0, 0.13] },
    haberman: { tr: [17.58, 13.82, 23.62], te: [25.79, 25.79, 33.6, 30.3], h: [4.73, 13.13, 5.0], nf: [0.34, 1.33] },
    ionosphere: { tr: [8.61, 1.59, 1.36], te: [11.71, 11.71, 11.97, 9.45], h: [4.0, 9.4, 9.0], nf: [26.8, 23.2] },
    iris: { tr: [1.0, 2.33, 1.96], te: [3.33, 3.33, 6.0, 4.0], h: [2.07, 4.0, 3.87], nf: [1.94, 2.0] },
    magic: { tr: [15.38, 4.0, 9.05], te: [17.26, 17.26, 17.9, 14.93], h: [5.26, 33.66, 21.5], nf: [5.67, 0.0] },
    'pima-indians-diabetes': {
      tr: [24.83, 7.2, 15.73],
      te: [25.12, 25.12, 29.04, 25.27],
      h: [2.2, 12.87, 9.4],
      nf: [5.94, 1.2],
    },
    spambase: { tr: [7.48, 2.06, 2.71], te: [9.08, 9.08, 8.04, 7.95], h: [11, 30, 28.5], nf: [33.47, 17] },
    wine: { tr: [0.04, 1.68, 1.08], te: [6.77, 6.77, 13.99, 7.82], h: [3.67, 4.27, 3.07], nf: [5.8, 9.4] },
    zoo: { tr: [0.99, 5.79, 0.22], te: [7.93, 7.93, 11.11, 3.18], h: [5.93, 6.13, 5.06], nf: [9.14, 11.4] },
  };
  const ours = labels;
  const names = results.datasets.map((d) => d.name);
  out.push('**Table 2: error rates %** (paper: C-MBSV, CART, C4.5; grove: mean over the folds)', '');
  out.push(
    row([
      'data set',
      'paper train C-MBSV',
      'paper train CART',
      'paper train C4.5',
      ...ours.map((l) => `grove train ${l}`),
      'paper test C-MBSV',
      'paper test CART',
      'paper test C4.5',
      ...ours.map((l) => `grove test ${l}`),
    ]),
  );
  out.push(row(['---', ...Array(6 + 2 * ours.length).fill('---:')]));
  for (const d of names) {
    const p = paper[d];
    out.push(
      row([
        d,
        ...p.tr.map((x) => f(x, 2)),
        ...ours.map((l) => f(100 * cell(d, l).trainError.mean, 2)),
        f(p.te[0], 2),
        f(p.te[2], 2),
        f(p.te[3], 2),
        ...ours.map((l) => `${f(100 * cell(d, l).testError.mean, 2)} ± ${f(100 * cell(d, l).testError.sd)}`),
      ]),
    );
  }
  out.push('', '**Table 3: average height of the tree**', '');
  out.push(row(['data set', 'paper C-MBSV', 'paper CART', 'paper C4.5', ...ours.map((l) => `grove ${l}`)]));
  out.push(row(['---', ...Array(3 + ours.length).fill('---:')]));
  for (const d of names)
    out.push(row([d, ...paper[d].h.map((x) => f(x, 2)), ...ours.map((l) => f(cell(d, l).height.mean, 2))]));
  out.push('', '**Table 4: number of needless features**', '');
  out.push(row(['data set', 'features', 'paper C-MBSV', 'paper C4.5', ...ours.map((l) => `grove ${l}`)]));
  out.push(row(['---', '---:', ...Array(2 + ours.length).fill('---:')]));
  for (const d of results.datasets)
    out.push(
      row([
        d.name,
        d.features,
        ...paper[d.name].nf.map((x) => f(x, 2)),
        ...ours.map((l) => f(cell(d.name, l).needlessFeatures.mean, 2)),
      ]),
    );
  out.push('', ...statistics(a.accuracy));
  const slow = a.cells
    .slice()
    .sort((x, y) => y.fitMs.mean - x.fitMs.mean)
    .slice(0, 4);
  out.push(
    '',
    `Slowest fits (mean per fold): ${slow.map((c) => `${c.dataset} × ${c.config} ${f(c.fitMs.mean / 1000, 2)} s`).join(', ')}.`,
  );
} else {
  console.error('usage: node scripts/repro-tables.mjs dcsm|cmbsv results.json');
  process.exit(2);
}
console.log(out.join('\n'));
