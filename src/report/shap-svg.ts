import type { ShapValues } from '../explain/shap.js';
import type { ShapSummary } from '../explain/summary.js';
import { esc, fmt } from './html.js';

/**
 * SVG pictures of TreeSHAP results (shared by the HTML report and the explore page, which builds
 * them in its worker): the per-feature summary (mean |contribution| as bars) and a
 * row's waterfall from the expected value to the prediction. Drawn in a viewBox 360 units wide
 * (a phone's width in CSS pixels) and scaled with `width: 100%`, labels at 12 units, so they stay
 * legible on a phone and sharp on a desktop.
 */

export const WIDTH = 360;
export const LABEL = 124;
/** Characters of a label before it is cut (about 6.5 units each at 12 units). */
export const CHARS = 17;
export const ROW = 22;
const FONT = 'font-family="system-ui, sans-serif" font-size="12"';
const UP = '#d62728';
const DOWN = '#1f77b4';

export function svgOpen(height: number, label: string, cls: string): string {
  return (
    `<svg class="chart ${cls}" viewBox="0 0 ${WIDTH} ${height}" width="100%" style="max-width:${2 * WIDTH}px" ` +
    `role="img" aria-label="${esc(label)}" xmlns="http://www.w3.org/2000/svg" ${FONT}>`
  );
}

/** A label clipped to about `chars` characters (the full text in a <title>). */
export function label(text: string, chars: number, x: number, y: number, anchor: 'start' | 'end'): string {
  const shown = text.length > chars ? `${text.slice(0, chars - 1)}…` : text;
  return `<text x="${x}" y="${y}" text-anchor="${anchor}"><title>${esc(text)}</title>${esc(shown)}</text>`;
}

/**
 * Bars of each feature's mean |contribution| summed over classes, largest first (at most
 * `maxFeatures`, the rest summed into one bar); features that never contribute are counted in a
 * line below.
 */
export function shapSummarySvg(summary: ShapSummary, maxFeatures = 12): string {
  const used = summary.order.filter((j) => summary.total[j] > 0);
  const unused = summary.order.length - used.length;
  const shown = used.slice(0, maxFeatures);
  const rest = used.slice(maxFeatures);
  const bars = shown.map((j) => ({ name: summary.features[j], value: summary.total[j] }));
  if (rest.length > 0)
    bars.push({ name: `${rest.length} other features`, value: rest.reduce((a, j) => a + summary.total[j], 0) });
  const top = Math.max(1e-300, ...bars.map((b) => b.value));
  const plot = WIDTH - LABEL - 50;
  const height = 24 + bars.length * ROW + (unused > 0 ? ROW : 0);
  const parts = [svgOpen(height, 'mean absolute contribution per feature', 'shap-summary')];
  parts.push(`<text x="${LABEL}" y="14" class="small">mean |contribution| (all classes)</text>`);
  bars.forEach((b, i) => {
    const y = 22 + i * ROW;
    const w = (b.value / top) * plot;
    parts.push(
      `<g class="bar">${label(b.name, CHARS, LABEL - 6, y + 13, 'end')}` +
        `<rect x="${LABEL}" y="${y + 3}" width="${w.toFixed(2)}" height="${ROW - 8}" fill="${DOWN}"/>` +
        `<text x="${(LABEL + w + 4).toFixed(2)}" y="${y + 13}">${fmt(b.value, 3)}</text></g>`,
    );
  });
  if (unused > 0)
    parts.push(
      `<text x="${LABEL}" y="${22 + bars.length * ROW + 13}" fill="#555">` +
        `${unused} ${unused === 1 ? 'feature' : 'features'} without contribution</text>`,
    );
  parts.push('</svg>');
  return parts.join('');
}

/**
 * Row `row`'s waterfall for class index `c`: from the expected value, one step per feature
 * (largest |contribution| first, at most `maxFeatures`, the rest in one step) to the predicted
 * probability. Steps up are red, down blue; the axis spans what the steps reach. `rowName` names
 * the row in the picture's label.
 */
export function shapWaterfallSvg(
  shap: ShapValues,
  row: number,
  c: number,
  maxFeatures = 10,
  rowName = `row ${row + 1}`,
): string {
  const f = shap.features.length;
  const k = shap.classes.length;
  const contribution = (j: number) => shap.values[(row * f + j) * k + c];
  const order = Array.from({ length: f }, (_, j) => j)
    .filter((j) => contribution(j) !== 0)
    .sort((a, b) => Math.abs(contribution(b)) - Math.abs(contribution(a)) || a - b);
  const steps = order.slice(0, maxFeatures).map((j) => ({ name: shap.features[j], value: contribution(j) }));
  const rest = order.slice(maxFeatures);
  if (rest.length > 0)
    steps.push({ name: `${rest.length} other features`, value: rest.reduce((a, j) => a + contribution(j), 0) });
  const base = shap.expected[c];
  let lo = base;
  let hi = base;
  let at = base;
  for (const s of steps) {
    at += s.value;
    lo = Math.min(lo, at);
    hi = Math.max(hi, at);
  }
  const span = hi - lo || 1;
  const plot = WIDTH - LABEL - 20;
  const x = (v: number) => LABEL + ((v - lo) / span) * plot;
  const height = 40 + (steps.length + 1) * ROW;
  const what = `class ${String(shap.classes[c])}, ${rowName}`;
  const parts = [svgOpen(height, `contributions to the probability of ${what}`, 'shap-waterfall')];
  parts.push(`<text x="${LABEL}" y="14">P(${esc(String(shap.classes[c]))}): ${fmt(base, 3)} → ${fmt(at, 3)}</text>`);
  parts.push(`<line x1="${x(base).toFixed(2)}" y1="20" x2="${x(base).toFixed(2)}" y2="${height - 4}" stroke="#999"/>`);
  let from = base;
  steps.forEach((s, i) => {
    const y = 22 + i * ROW;
    const to = from + s.value;
    const x0 = Math.min(x(from), x(to));
    const w = Math.max(1, Math.abs(x(to) - x(from)));
    const sign = s.value > 0 ? '+' : '−';
    parts.push(
      `<g class="step">${label(s.name, CHARS, LABEL - 6, y + 13, 'end')}` +
        `<rect x="${x0.toFixed(2)}" y="${y + 3}" width="${w.toFixed(2)}" height="${ROW - 8}" ` +
        `fill="${s.value > 0 ? UP : DOWN}"><title>${esc(s.name)}: ${sign}${fmt(Math.abs(s.value), 4)}</title>` +
        '</rect></g>',
    );
    from = to;
  });
  const y = 22 + steps.length * ROW;
  parts.push(
    `<line x1="${x(at).toFixed(2)}" y1="${y - 2}" x2="${x(at).toFixed(2)}" y2="${y + ROW - 6}" ` +
      'stroke="#222" stroke-width="2"/>' +
      `<text x="${LABEL - 6}" y="${y + 13}" text-anchor="end">prediction</text>`,
  );
  parts.push('</svg>');
  return parts.join('');
}
