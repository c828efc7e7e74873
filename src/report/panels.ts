import { maxOf, minOf } from '../core/extent.js';
import type { CellSummary } from '../eval/results.js';
import { esc, fmt, niceTicks, tickLabel } from './html.js';

const W = 270;
const H = 210;
const M = { l: 46, r: 12, t: 26, b: 38 };

function frame(cls: string, dataset: string, width: number, body: string[], xLabel: string, yLabel: string): string {
  return (
    `<svg class="chart ${cls}" data-dataset="${esc(dataset)}" viewBox="0 0 ${width} ${H}" ` +
    `width="${width}" height="${H}" role="img" aria-label="${esc(`${cls} for ${dataset}`)}">` +
    `<text x="${width / 2}" y="15" text-anchor="middle" class="panel-title">${esc(dataset)}</text>` +
    body.join('') +
    `<text x="${(M.l + width - M.r) / 2}" y="${H - 4}" text-anchor="middle" class="small muted">${esc(xLabel)}</text>` +
    `<text transform="translate(11 ${(M.t + H - M.b) / 2}) rotate(-90)" text-anchor="middle" class="small muted">` +
    `${esc(yLabel)}</text>` +
    '</svg>'
  );
}

function yAxis(ticks: number[], y: (v: number) => number, x0: number, x1: number): string[] {
  return ticks.map(
    (t) =>
      `<line x1="${x0}" y1="${y(t)}" x2="${x1}" y2="${y(t)}" class="grid"/>` +
      `<text x="${x0 - 4}" y="${y(t) + 3.5}" text-anchor="end" class="tick">${tickLabel(t)}</text>`,
  );
}

/**
 * The accuracy axis in %: the data's range `lo`..`hi` (± sd) widened to whole tick steps inside
 * [0, 100], never of zero width, so equal accuracies (every configuration at 100 %, say) still give
 * a scale instead of a division by zero.
 */
export function accuracyDomain(lo: number, hi: number): [number, number] {
  const a = Number.isFinite(lo) ? Math.min(100, Math.max(0, lo)) : 0;
  const b = Number.isFinite(hi) ? Math.min(100, Math.max(a, hi)) : 100;
  const rough = niceTicks(a, Math.max(b, a + 1), 4);
  const step = rough.length > 1 ? rough[1] - rough[0] : 1;
  const y0 = Math.max(0, Math.floor(a / step) * step);
  const y1 = Math.min(100, Math.max(y0 + step, Math.ceil(b / step) * step));
  // Only a range at 100 % collapses (y0 = y1 = 100): give it the one point the rough ticks spanned.
  return y1 > y0 ? [y0, y1] : [Math.max(0, y1 - 1), y1];
}

/**
 * Accuracy against tree size on one data set: one point per configuration at (mean leaves, mean
 * test accuracy), with a whisker of ± one standard deviation of the accuracy over the folds.
 */
export function scatterPanel(dataset: string, cells: CellSummary[], colors: Map<string, string>): string {
  const done = cells.filter((c) => c.done > 0);
  const [y0, y1] = accuracyDomain(
    minOf(done.map((c) => 100 * (c.testAccuracy.mean - c.testAccuracy.sd))),
    maxOf(done.map((c) => 100 * (c.testAccuracy.mean + c.testAccuracy.sd))),
  );
  const yTicks = niceTicks(y0, y1, 4);
  const xMax =
    maxOf(
      done.map((c) => c.leaves.mean),
      1,
    ) * 1.08;
  const xTicks = niceTicks(0, xMax, 4);
  const x1 = Math.max(xMax, xTicks[xTicks.length - 1]);
  const x = (v: number) => M.l + (v / x1) * (W - M.l - M.r);
  const y = (v: number) => H - M.b - ((v - y0) / (y1 - y0)) * (H - M.t - M.b);
  const body = yAxis(
    yTicks.filter((t) => t >= y0 - 1e-9 && t <= y1 + 1e-9),
    y,
    M.l,
    W - M.r,
  );
  body.push(
    ...xTicks
      .filter((t) => t <= x1)
      .map((t) => `<text x="${x(t)}" y="${H - M.b + 13}" text-anchor="middle" class="tick">${tickLabel(t)}</text>`),
  );
  body.push(`<line x1="${M.l}" y1="${H - M.b}" x2="${W - M.r}" y2="${H - M.b}" class="axis"/>`);
  for (const c of done) {
    const cx = x(c.leaves.mean);
    const cy = y(100 * c.testAccuracy.mean);
    const col = colors.get(c.config) ?? '#333';
    const tip =
      `${c.config} on ${dataset}: ` +
      `accuracy ${fmt(100 * c.testAccuracy.mean, 2)} ± ${fmt(100 * c.testAccuracy.sd, 2)} %, ` +
      `${fmt(c.leaves.mean, 1)} leaves, ${fmt(c.nodes.mean, 1)} nodes, height ${fmt(c.height.mean, 1)}`;
    const top = y(Math.min(100, 100 * (c.testAccuracy.mean + c.testAccuracy.sd)));
    const bottom = y(Math.max(0, 100 * (c.testAccuracy.mean - c.testAccuracy.sd)));
    body.push(
      `<g class="point" data-config="${esc(c.config)}" data-tip="${esc(tip)}">` +
        `<line x1="${cx}" y1="${top}" x2="${cx}" y2="${bottom}" ` +
        `stroke="${col}" stroke-opacity="0.35" stroke-width="2"/>` +
        `<circle cx="${cx}" cy="${cy}" r="5.5" fill="${col}" stroke="#fff" stroke-width="1.2"/></g>`,
    );
  }
  return frame('scatter', dataset, W, body, 'mean leaves', 'test accuracy %');
}

/**
 * Test error per configuration on one data set: bars of the mean over folds, whiskers of ± one
 * standard deviation.
 */
export function barsPanel(dataset: string, cells: CellSummary[], colors: Map<string, string>): string {
  const k = cells.length;
  const slot = Math.max(14, Math.min(30, 180 / Math.max(1, k)));
  const width = Math.max(W, M.l + M.r + k * slot + 16);
  const top = maxOf(
    cells.filter((c) => c.done > 0).map((c) => 100 * (c.testError.mean + c.testError.sd)),
    1,
  );
  const ticks = niceTicks(0, top, 4);
  const y1 = Math.max(top, ticks[ticks.length - 1]);
  const y = (v: number) => H - M.b - (v / y1) * (H - M.t - M.b);
  const body = yAxis(ticks, y, M.l, width - M.r);
  const x0 = M.l + 8 + (width - M.l - M.r - 16 - k * slot) / 2;
  cells.forEach((c, i) => {
    if (c.done === 0) return;
    const col = colors.get(c.config) ?? '#333';
    const mean = 100 * c.testError.mean;
    const sd = 100 * c.testError.sd;
    const bx = x0 + i * slot + slot * 0.12;
    const bw = slot * 0.76;
    const mid = bx + bw / 2;
    const tip =
      `${c.config} on ${dataset}: test error ${fmt(mean, 2)} ± ${fmt(sd, 2)} % (accuracy ${fmt(100 - mean, 2)} %), ` +
      `training error ${fmt(100 * c.trainError.mean, 2)} %, over ${c.done} folds`;
    body.push(
      `<g class="bar" data-config="${esc(c.config)}" data-tip="${esc(tip)}">` +
        `<rect x="${bx}" y="${y(mean)}" width="${bw}" height="${Math.max(0, y(0) - y(mean))}" fill="${col}"/>` +
        `<line x1="${mid}" y1="${y(mean + sd)}" x2="${mid}" y2="${y(Math.max(0, mean - sd))}" class="whisker"/>` +
        `<line x1="${mid - 4}" y1="${y(mean + sd)}" x2="${mid + 4}" y2="${y(mean + sd)}" class="whisker"/></g>`,
    );
  });
  body.push(`<line x1="${M.l}" y1="${y(0)}" x2="${width - M.r}" y2="${y(0)}" class="axis"/>`);
  return frame('bars', dataset, width, body, 'configurations (colours: legend)', 'test error %');
}
