import { maxOf } from '../core/extent.js';
import type { Analysis, MetricAnalysis, PairComparison } from './analysis.js';
import { gapText } from './gap-table.js';
import { optimalGaps } from './optimal-gap.js';
import { type CellSummary, type CompareResults, configAverages } from './results.js';

/** p-value for humans: 2–3 significant digits, tiny ones as "< 1e-6". */
export function formatP(p: number | undefined): string {
  if (p === undefined || Number.isNaN(p)) return 'n/a';
  if (p < 1e-6) return '< 1e-6';
  return p < 0.001 ? p.toExponential(2) : p.toFixed(p < 0.01 ? 4 : 3);
}

/** `p = 0.013`, or `p < 1e-6`. */
export function pText(p: number | undefined): string {
  const s = formatP(p);
  return s.startsWith('<') ? `p ${s}` : `p = ${s}`;
}

const num = (x: number, digits: number) => (Number.isFinite(x) ? x.toFixed(digits) : '—');

function cellFor(cells: CellSummary[], d: string, c: string): CellSummary | undefined {
  return cells.find((x) => x.dataset === d && x.config === c);
}

/** The statistics of one metric in a few lines. */
export function statisticsText(m: MetricAnalysis, maxPairs = 15): string[] {
  const lines: string[] = [];
  if (!m.friedman) return [`${m.label}: ${m.note}`];
  const f = m.friedman;
  const id = f.imanDavenport;
  lines.push(
    `Friedman test on ${m.label} (N = ${f.N} data sets, k = ${f.k}): ` +
      `χ²_F = ${f.chiSquare.toFixed(3)} (df ${f.df}), ${pText(f.pValue)}; ` +
      (Number.isFinite(id.F)
        ? `Iman–Davenport F_F = ${id.F.toFixed(3)} (df ${id.df1}, ${id.df2}), ${pText(id.pValue)}`
        : 'Iman–Davenport F_F not finite: every data set ranks the configurations in the same order ' +
          `(χ²_F at its largest, N(k−1) = ${f.N * (f.k - 1)})`),
  );
  const sig = m.pairs.filter((p) => p.nemenyiSignificant);
  const better = (p: PairComparison) => (p.rankDifference > 0 ? `${p.a} > ${p.b}` : `${p.b} > ${p.a}`);
  lines.push(
    `Nemenyi critical difference CD = ${num(m.cd05!, 3)} (α = 0.05), ${num(m.cd10!, 3)} (α = 0.10); ` +
      (sig.length
        ? `pairs whose average ranks differ by ≥ CD(0.05), better-ranked first: ${sig.map(better).join(', ')}`
        : 'no pair differs by CD(0.05) or more'),
  );
  const shown = m.pairs.length <= maxPairs ? m.pairs : m.pairs.filter((p) => p.wilcoxon.pValue < 0.05);
  lines.push(
    `Wilcoxon signed-rank on ${m.label}, two-sided (as R's wilcox.test(paired = TRUE))` +
      (shown.length < m.pairs.length
        ? `, pairs with p < 0.05 only (${shown.length} of ${m.pairs.length}; all in results.json):`
        : ':'),
  );
  const w = maxOf(m.pairs.map((p) => `${p.a} vs ${p.b}`.length));
  for (const p of shown) {
    const method = p.wilcoxon.method === 'exact' ? 'exact' : 'normal approx.';
    lines.push(
      `  ${`${p.a} vs ${p.b}`.padEnd(w)}  ${p.wins}/${p.ties}/${p.losses} (better/equal/worse)  ` +
        `V = ${p.wilcoxon.statistic}, ${pText(p.wilcoxon.pValue)} (${method})`,
    );
  }
  return lines;
}

/** The terminal report: accuracy table with ranks, per-configuration averages, and the statistics. */
export function renderTable(results: CompareResults, analysis: Analysis): string {
  const { cells } = analysis;
  const labels = results.configs.map((c) => c.label);
  const datasets = results.datasets.map((d) => d.name);
  const s = results.settings;
  const lines = [
    `${s.folds}-fold stratified CV${s.repeats > 1 ? ` × ${s.repeats} repeats` : ''}, seed ${s.seed}: ` +
      'test accuracy % mean±sd (mean leaves)',
    '',
  ];
  const cellText = (d: string, c: string) => {
    const x = cellFor(cells, d, c);
    if (!x || x.done === 0) return '—';
    const text = `${num(100 * x.testAccuracy.mean, 1)}±${num(100 * x.testAccuracy.sd, 1)} (${num(x.leaves.mean, 0)})`;
    return x.complete ? text : `${text} [${x.done}/${x.planned}]`;
  };
  const width = maxOf(
    datasets.map((d) => d.length),
    'avg rank (accuracy)'.length,
  );
  let colWidth = maxOf(
    labels.map((l) => l.length),
    16,
  );
  for (const d of datasets) for (const l of labels) colWidth = Math.max(colWidth, cellText(d, l).length);
  const row = (first: string, rest: string[]) =>
    [first.padEnd(width), ...rest.map((r) => r.padStart(colWidth))].join('  ');
  lines.push(row('dataset', labels));
  for (const d of datasets)
    lines.push(
      row(
        d,
        labels.map((l) => cellText(d, l)),
      ),
    );
  const ranks = (m: MetricAnalysis) => m.configs.map((_, j) => num(m.averageRanks[j], 2));
  if (analysis.accuracy.datasets.length) {
    lines.push(row('avg rank (accuracy)', ranks(analysis.accuracy)));
    lines.push(row('avg rank (leaves)', ranks(analysis.leaves)));
  }

  // Per configuration, averaged over the data sets on which it finished.
  const complete = new Set(analysis.accuracy.datasets);
  lines.push(
    '',
    `Averages over ${complete.size} complete data set${complete.size === 1 ? '' : 's'} ` +
      '(error %, tree shape, time per fold):',
  );
  const heads = ['test err', 'train err', 'nodes', 'leaves', 'height', 'needless', 'fit ms', 'predict ms'];
  const lw = maxOf(
    labels.map((l) => l.length),
    6,
  );
  lines.push(['config'.padEnd(lw), ...heads.map((h) => h.padStart(10))].join('  '));
  for (const l of labels) {
    const avg = configAverages(cells, l, complete);
    const vals = [
      num(100 * avg.testError, 2),
      num(100 * avg.trainError, 2),
      num(avg.nodes, 1),
      num(avg.leaves, 1),
      num(avg.height, 1),
      num(avg.needlessFeatures, 1),
      num(avg.fitMs, 1),
      num(avg.predictMs, 2),
    ];
    lines.push([l.padEnd(lw), ...vals.map((v) => v.padStart(10))].join('  '));
  }
  for (const l of ['', ...statisticsText(analysis.accuracy), '', ...statisticsText(analysis.leaves)]) lines.push(l);
  for (const l of gapText(results, optimalGaps(results), cells)) lines.push(l);
  if (!results.complete)
    lines.push(
      '',
      'INCOMPLETE: the run was interrupted; [done/planned] marks unfinished cells; ' +
        'statistics use complete data sets only.',
    );
  return `${lines.join('\n')}\n`;
}
