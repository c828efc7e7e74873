/**
 * The report's gap section: for each optimal configuration, every greedy configuration of its
 * depth by data set, with its training-error gap to the optimal tree and its test accuracy.
 * Present only when the comparison has an optimal configuration.
 */
import { gapBlocks } from '../eval/gap-table.js';
import { type GapAnalysis, isOptimalConfig } from '../eval/optimal-gap.js';
import type { CellSummary, CompareResults } from '../eval/results.js';
import { esc, fmt } from './html.js';

const NOTE =
  '<p class="note">Each cell: the configuration\'s training error minus the optimal tree\'s on the same folds ' +
  '(percentage points, mean over folds) and, below it, its test accuracy %. The optimal column gives its own ' +
  "training error % and test accuracy %. ρ is Spearman's rank correlation, over the configurations of the " +
  'row, of gap with test accuracy (negative: the closer to optimal in training error, the more accurate). ' +
  'A negative gap means the greedy tree used tests the optimal search did not have (other bins, or a subset ' +
  'of several categories). * marks cells where the optimal search stopped at its limit on some folds.</p>';

/** A cell of a figure over a smaller second one (a test accuracy under its gap or error). */
const twoLine = (main: string, sub: string) => `<td>${main}<br><span class="sub">${sub}</span></td>`;

const signed = (points: number) => (Number.isFinite(points) ? `${points >= 0 ? '+' : ''}${points.toFixed(2)}` : '—');

/** The section's HTML, or an empty string when no configuration is an optimal tree. */
export function gapSection(results: CompareResults, gaps: GapAnalysis, cells: readonly CellSummary[]): string {
  if (!results.configs.some((c) => isOptimalConfig(c.options))) return '';
  const rho = new Map(gaps.correlations.map((r) => [`${r.dataset}\u0000${r.optimal}`, r.rho]));
  const tables = gapBlocks(results, gaps).map((b) => {
    const cellOf = new Map(
      gaps.cells.filter((c) => c.optimal === b.optimal).map((c) => [`${c.dataset}\u0000${c.config}`, c]),
    );
    const head =
      `<tr><th>data set</th><th>${esc(b.optimal)}</th>` +
      `${b.configs.map((c) => `<th>${esc(c)}</th>`).join('')}<th>ρ</th></tr>`;
    const body = results.datasets.map((d) => {
      const opt = cells.find((c) => c.dataset === d.name && c.config === b.optimal);
      const optCell =
        opt && opt.done > 0
          ? twoLine(fmt(100 * opt.trainError.mean, 2), fmt(100 * opt.testAccuracy.mean, 1))
          : '<td class="muted">—</td>';
      const gapCells = b.configs.map((config) => {
        const c = cellOf.get(`${d.name}\u0000${config}`);
        if (!c) return '<td class="muted">—</td>';
        const tip =
          `${config} on ${d.name}: gap ${signed(100 * c.gap.mean)} ± ${fmt(100 * c.gap.sd, 2)} points over ` +
          `${c.folds} folds; test accuracy ${fmt(100 * c.testAccuracy.mean, 2)} % (optimal ` +
          `${fmt(100 * c.optimalTestAccuracy.mean, 2)} %)` +
          (c.unproven ? `; the optimal search stopped early on ${c.unproven} folds` : '');
        return (
          `<td class="${c.gap.mean < 0 ? 'sig' : ''}" data-tip="${esc(tip)}">${signed(100 * c.gap.mean)}` +
          `${c.unproven ? '*' : ''}<br><span class="sub">${fmt(100 * c.testAccuracy.mean, 1)}</span></td>`
        );
      });
      const r = rho.get(`${d.name}\u0000${b.optimal}`);
      return `<tr><td>${esc(d.name)}</td>${optCell}${gapCells.join('')}<td>${fmt(r ?? NaN, 2)}</td></tr>`;
    });
    const foot =
      `<tr><td><b>mean (${b.datasets.length} sets)</b></td><td><span class="sub">` +
      `${fmt(100 * b.optimalAccuracy, 1)}</span></td>` +
      b.configs
        .map((_, j) => twoLine(`<b>${signed(100 * b.meanGap[j])}</b>`, fmt(100 * b.meanAccuracy[j], 1)))
        .join('') +
      '<td></td></tr>' +
      `<tr><td><b>avg rank (gap)</b></td><td></td>` +
      `${b.gapRank.map((r) => `<td>${fmt(r, 2)}</td>`).join('')}<td></td></tr>`;
    return (
      `<h3>Depth ${b.depth}: against ${esc(b.optimal)}</h3>` +
      `<div class="scroll"><table class="gap-table" data-optimal="${esc(b.optimal)}"><thead>${head}</thead>` +
      `<tbody>${body.join('')}${foot}</tbody></table></div>`
    );
  });
  const none = gaps.pairings.filter((p) => !p.optimal);
  const noGap = none.length
    ? `<p class="note">No gap: ${none.map((p) => `${esc(p.config)} (${esc(p.reason ?? '')})`).join('; ')}.</p>`
    : '';
  return `<section id="gap">\n<h2>Gap to the optimal tree</h2>\n${NOTE}\n${tables.join('\n')}\n${noGap}\n</section>`;
}
