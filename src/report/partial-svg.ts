import type { PartialDependence } from '../explain/partial.js';
import { color, esc, niceTicks, tickLabel } from './html.js';
import { CHARS, LABEL, label, ROW, svgOpen, WIDTH } from './shap-svg.js';

/**
 * SVG of a partial dependence curve (shared by the HTML report and the explore page): the
 * probability of each class as the feature sweeps its grid. A numeric feature is a line per class;
 * a categorical one a row per category with a dot per class. Same 360-unit viewBox and 12-unit
 * labels as the SHAP pictures, so it stays legible on a phone.
 */

const M = { l: 40, r: 12, t: 22, b: 34 };
const PLOT_H = 150;
/** Legend entries a line, and characters of a class name in one. */
const LEGEND_COLUMNS = 3;
const LEGEND_CHARS = 14;

/** The probability range the curves span, widened to round ticks and kept within [0, 1]. */
function probabilityRange(values: Float64Array): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (!(hi > lo)) [lo, hi] = [lo - 0.05, hi + 0.05];
  const ticks = niceTicks(lo, hi, 4);
  const step = ticks.length > 1 ? ticks[1] - ticks[0] : 0.05;
  return [Math.max(0, Math.floor(lo / step) * step), Math.min(1, Math.ceil(hi / step) * step)];
}

/** One swatch and class name per class shown, `LEGEND_COLUMNS` a line, from `top`. */
function legendRows(classes: readonly string[], top: number): string[] {
  const width = (WIDTH - 8) / LEGEND_COLUMNS;
  return classes.map((name, c) => {
    const x = 8 + (c % LEGEND_COLUMNS) * width;
    const y = top + Math.floor(c / LEGEND_COLUMNS) * 16;
    return (
      `<g class="pd-key"><rect x="${x.toFixed(1)}" y="${y}" width="10" height="10" fill="${color(c)}"/>` +
      `${label(name, LEGEND_CHARS, x + 14, y + 9, 'start')}</g>`
    );
  });
}

/** A numeric feature: one polyline per class over the grid. */
function numericCurves(pd: PartialDependence, classes: number): { body: string[]; height: number } {
  const grid = pd.grid as number[];
  const k = pd.classes.length;
  const [y0, y1] = probabilityRange(pd.average);
  let x0 = grid[0];
  let x1 = grid[grid.length - 1];
  if (!(x1 > x0)) [x0, x1] = [x0 - 1, x1 + 1];
  const x = (v: number) => M.l + ((v - x0) / (x1 - x0)) * (WIDTH - M.l - M.r);
  const y = (p: number) => M.t + PLOT_H - ((p - y0) / (y1 - y0 || 1)) * PLOT_H;
  const body: string[] = [];
  for (const t of niceTicks(y0, y1, 4).filter((t) => t >= y0 - 1e-12 && t <= y1 + 1e-12))
    body.push(
      `<line x1="${M.l}" x2="${WIDTH - M.r}" y1="${y(t).toFixed(1)}" y2="${y(t).toFixed(1)}" stroke="#dde1e7"/>` +
        `<text x="${M.l - 4}" y="${(y(t) + 4).toFixed(1)}" text-anchor="end">${tickLabel(t)}</text>`,
    );
  for (const t of niceTicks(x0, x1, 4).filter((t) => t >= x0 && t <= x1))
    body.push(`<text x="${x(t).toFixed(1)}" y="${M.t + PLOT_H + 15}" text-anchor="middle">${esc(tickLabel(t))}</text>`);
  body.push(`<line x1="${M.l}" x2="${WIDTH - M.r}" y1="${M.t + PLOT_H}" y2="${M.t + PLOT_H}" stroke="#555"/>`);
  for (let c = 0; c < classes; c++) {
    const points = grid.map((g, i) => `${x(g).toFixed(1)},${y(pd.average[i * k + c]).toFixed(1)}`).join(' ');
    body.push(
      `<polyline class="pd-line" points="${points}" fill="none" stroke="${color(c)}" stroke-width="2">` +
        `<title>P(${esc(String(pd.classes[c]))})</title></polyline>`,
    );
  }
  const axis = `${M.t + PLOT_H + 30}`;
  body.push(`<text x="${(M.l + WIDTH - M.r) / 2}" y="${axis}" text-anchor="middle">${esc(pd.feature)}</text>`);
  return { body, height: M.t + PLOT_H + M.b };
}

/** A categorical feature: a row per category (at most `maxCategories`), a dot per class on [0, 1]. */
function categoryDots(
  pd: PartialDependence,
  classes: number,
  maxCategories: number,
): { body: string[]; height: number } {
  const k = pd.classes.length;
  const shown = Math.min(pd.grid.length, maxCategories);
  const plot = WIDTH - LABEL - M.r;
  const x = (p: number) => LABEL + p * plot;
  const body: string[] = [];
  // Below the title, with room for the axis labels above the rows.
  const top = M.t + 14;
  const bottom = top + shown * ROW;
  for (const t of [0, 0.25, 0.5, 0.75, 1])
    body.push(
      `<line x1="${x(t).toFixed(1)}" x2="${x(t).toFixed(1)}" y1="${top}" y2="${bottom}" stroke="#dde1e7"/>` +
        `<text x="${x(t).toFixed(1)}" y="${top - 4}" text-anchor="middle">${t}</text>`,
    );
  for (let g = 0; g < shown; g++) {
    const y = top + g * ROW + ROW / 2;
    body.push(`<g class="pd-category">${label(String(pd.grid[g]), CHARS, LABEL - 6, y + 4, 'end')}`);
    for (let c = 0; c < classes; c++) {
      const p = pd.average[g * k + c];
      body.push(
        `<circle cx="${x(p).toFixed(1)}" cy="${y}" r="4" fill="${color(c)}">` +
          `<title>P(${esc(String(pd.classes[c]))}) = ${p.toFixed(3)}</title></circle>`,
      );
    }
    body.push('</g>');
  }
  let height = bottom + 8;
  if (pd.grid.length > shown) {
    body.push(`<text x="${LABEL}" y="${height + 10}" fill="#555">${pd.grid.length - shown} more categories</text>`);
    height += ROW;
  }
  return { body, height };
}

/**
 * The partial dependence of `pd`: the predicted probability of each class (at most `maxClasses`,
 * the first ones) as `pd.feature` takes each grid value, with a legend of the classes below.
 */
export function partialDependenceSvg(pd: PartialDependence, maxClasses = 10, maxCategories = 30): string {
  const classes = Math.min(pd.classes.length, maxClasses);
  const numeric = pd.grid.length > 0 && typeof pd.grid[0] === 'number';
  const { body, height } = numeric ? numericCurves(pd, classes) : categoryDots(pd, classes, maxCategories);
  const names = pd.classes.slice(0, classes).map(String);
  const keyRows = Math.ceil(names.length / LEGEND_COLUMNS);
  const total = height + 6 + keyRows * 16;
  return [
    svgOpen(total, `partial dependence of the class probabilities on ${pd.feature}`, 'partial-dependence'),
    `<text x="${M.l}" y="12">P(class) as ${esc(pd.feature)} varies</text>`,
    ...body,
    ...legendRows(names, height + 6),
    '</svg>',
  ].join('');
}
