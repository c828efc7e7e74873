import { maxOf } from '../core/extent.js';
import { csvField } from '../data/csv-write.js';
import { summarize } from './cross-validate.js';
import { type GapAnalysis, type GapCell, isOptimalConfig } from './optimal-gap.js';
import type { CellSummary, CompareResults } from './results.js';
import { averageRanks } from './stats/index.js';

const num = (x: number, digits: number) => (Number.isFinite(x) ? x.toFixed(digits) : '—');
const signed = (points: number) => (Number.isFinite(points) ? `${points >= 0 ? '+' : ''}${points.toFixed(2)}` : '—');

/** One block of the gap table: an optimal configuration and the greedy configurations measured against it. */
export interface GapBlock {
  optimal: string;
  depth: number;
  configs: string[];
  /** Data sets on which every configuration of the block has a gap. */
  datasets: string[];
  /** matrix[i][j]: mean gap (a rate) of configs[j] on datasets[i]. */
  matrix: number[][];
  /**
   * Per configuration over `datasets`: mean of the mean gaps, mean test accuracy, average rank of
   * the gap (1 = smallest).
   */
  meanGap: number[];
  meanAccuracy: number[];
  gapRank: number[];
  /** Mean over `datasets` of the optimal tree's mean test accuracy. */
  optimalAccuracy: number;
}

/** The gap analysis grouped by optimal configuration, with means and average ranks over the data sets all share. */
export function gapBlocks(results: CompareResults, gaps: GapAnalysis): GapBlock[] {
  const blocks: GapBlock[] = [];
  const optimals = [...new Set(gaps.pairings.flatMap((p) => (p.optimal ? [p.optimal] : [])))];
  for (const optimal of optimals) {
    const configs = gaps.pairings.filter((p) => p.optimal === optimal).map((p) => p.config);
    const depth = gaps.pairings.find((p) => p.optimal === optimal)!.depth!;
    const cellOf = new Map(
      gaps.cells.filter((c) => c.optimal === optimal).map((c) => [`${c.dataset}\u0000${c.config}`, c]),
    );
    const rows = results.datasets
      .map((d) => ({ name: d.name, cells: configs.map((c) => cellOf.get(`${d.name}\u0000${c}`)) }))
      .filter((r): r is { name: string; cells: GapCell[] } => r.cells.every((c) => c !== undefined));
    const matrix = rows.map((r) => r.cells.map((c) => c.gap.mean));
    const column = (j: number, get: (c: GapCell) => number) => summarize(rows.map((r) => get(r.cells[j]))).mean;
    blocks.push({
      optimal,
      depth,
      configs,
      datasets: rows.map((r) => r.name),
      matrix,
      meanGap: configs.map((_, j) => column(j, (c) => c.gap.mean)),
      meanAccuracy: configs.map((_, j) => column(j, (c) => c.testAccuracy.mean)),
      gapRank: rows.length ? averageRanks(matrix, false) : configs.map(() => NaN),
      optimalAccuracy: summarize(rows.map((r) => r.cells[0].optimalTestAccuracy.mean)).mean,
    });
  }
  return blocks;
}

/** The terminal's gap section: one table per optimal configuration, then what has no gap and why. */
export function gapText(results: CompareResults, gaps: GapAnalysis, cells: readonly CellSummary[]): string[] {
  const lines: string[] = [];
  if (!results.configs.some((c) => isOptimalConfig(c.options))) return lines;
  const rho = new Map(gaps.correlations.map((r) => [`${r.dataset}\u0000${r.optimal}`, r.rho]));
  for (const b of gapBlocks(results, gaps)) {
    const mine = gaps.cells.filter((c) => c.optimal === b.optimal);
    const gapCell = (d: string, config: string) => {
      const c = mine.find((x) => x.dataset === d && x.config === config);
      if (!c) return '—';
      return `${signed(100 * c.gap.mean)}/${num(100 * c.testAccuracy.mean, 1)}${c.unproven ? '*' : ''}`;
    };
    const optCell = (d: string) => {
      const c = cells.find((x) => x.dataset === d && x.config === b.optimal);
      return c && c.done > 0 ? `${num(100 * c.trainError.mean, 2)}/${num(100 * c.testAccuracy.mean, 1)}` : '—';
    };
    const heads = [b.optimal, ...b.configs, 'ρ'];
    const body = results.datasets.map((d) => [
      d.name,
      optCell(d.name),
      ...b.configs.map((c) => gapCell(d.name, c)),
      num(rho.get(`${d.name}\u0000${b.optimal}`) ?? NaN, 2),
    ]);
    const n = b.datasets.length;
    const foot = [
      [
        `mean gap (${n} sets)`,
        `—/${num(100 * b.optimalAccuracy, 1)}`,
        ...b.meanGap.map((g, j) => `${signed(100 * g)}/${num(100 * b.meanAccuracy[j], 1)}`),
        '',
      ],
      ['avg rank (gap)', '', ...b.gapRank.map((r) => num(r, 2)), ''],
    ];
    const all = [['dataset', ...heads], ...body, ...foot];
    const widths = all[0].map((_, j) => maxOf(all.map((r) => r[j].length)));
    lines.push(
      '',
      `Gap to ${b.optimal} (depth ${b.depth}): each configuration's training error minus ${b.optimal}'s on the ` +
        'same folds (percentage points) / its test accuracy %, means over folds',
      `${b.optimal}'s column: its training error % / test accuracy %; ρ: Spearman's rank correlation of gap with ` +
        'test accuracy over the configurations (negative: closer to optimal, more accurate)',
    );
    for (const r of all)
      lines.push(r.map((v, j) => (j === 0 ? v.padEnd(widths[j]) : v.padStart(widths[j]))).join('  '));
    const unproven = mine.filter((c) => c.unproven > 0 && c.config === b.configs[0]);
    if (unproven.length)
      lines.push(
        `* ${b.optimal} stopped at its time or memory limit on ${unproven
          .map((c) => `${c.unproven} of ${c.folds} folds of ${c.dataset}`)
          .join(', ')}: the gap there is to the best tree it found`,
      );
  }
  const none = gaps.pairings.filter((p) => !p.optimal);
  if (none.length)
    lines.push('', `No gap to an optimal tree: ${none.map((p) => `${p.config} (${p.reason})`).join('; ')}`);
  return lines;
}

/** gaps.csv: one row per data set × configuration measured against an optimal one (gaps and accuracies as rates). */
export function gapsToCsv(gaps: GapAnalysis): string {
  const header = [
    'dataset',
    'config',
    'optimal_config',
    'depth',
    'folds',
    'train_error_gap',
    'train_error_gap_sd',
    'test_accuracy',
    'test_accuracy_sd',
    'optimal_test_accuracy',
    'optimal_unproven_folds',
  ];
  const round = (x: number) => (Number.isFinite(x) ? Number(x.toFixed(15)) : '');
  const rows = gaps.cells.map((c) =>
    [
      c.dataset,
      c.config,
      c.optimal,
      c.depth,
      c.folds,
      round(c.gap.mean),
      round(c.gap.sd),
      round(c.testAccuracy.mean),
      round(c.testAccuracy.sd),
      round(c.optimalTestAccuracy.mean),
      c.unproven,
    ]
      .map(csvField)
      .join(','),
  );
  return `${[header.join(','), ...rows].join('\n')}\n`;
}
