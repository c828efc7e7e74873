/** The TreeSHAP pictures: bars in order and to scale, a waterfall that ends at the prediction, names escaped. */
import { describe, expect, it } from 'vitest';
import { fit } from '../../src/algorithms/fit.js';
import { datasetFromRows } from '../../src/data/encode.js';
import { shapValues } from '../../src/explain/shap.js';
import { shapSummary } from '../../src/explain/summary.js';
import { shapSummarySvg, shapWaterfallSvg } from '../../src/report/shap-svg.js';
import { synthetic } from '../explain/synthetic.js';

const numbers = (svg: string, re: RegExp) => [...svg.matchAll(re)].map((m) => Number(m[1]));

describe('TreeSHAP pictures', () => {
  const data = synthetic(300, 9);
  const tree = fit(data, { algorithm: 'cart', maxDepth: 5 });
  const shap = shapValues(tree, data);

  it('draws the summary as bars, largest first, to scale', () => {
    const summary = shapSummary(shap);
    const svg = shapSummarySvg(summary);
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg.endsWith('</svg>')).toBe(true);
    const widths = numbers(svg, /<rect x="[\d.]+" y="[\d.]+" width="([\d.]+)"/g);
    const totals = summary.order.map((j) => summary.total[j]).filter((t) => t > 0);
    expect(widths.length).toBe(totals.length);
    expect(totals.length).toBeGreaterThan(2);
    widths.forEach((w, i) => expect(w / widths[0]).toBeCloseTo(totals[i] / totals[0], 3));
    const two = shapSummarySvg(summary, 2);
    expect(two).toContain(`${totals.length - 2} other features`);
    if (totals.length < 5) expect(svg).toContain(`${5 - totals.length} feature`);
  });

  it('draws a waterfall from the expected value to the predicted probability', () => {
    const proba = tree.predictProba(data);
    const svg = shapWaterfallSvg(shap, 7, 1);
    expect(svg).toContain(`${shap.expected[1].toFixed(3)} → ${proba[7][1].toFixed(3)}`);
    const f = shap.features.length;
    const k = shap.classes.length;
    let nonzero = 0;
    for (let j = 0; j < f; j++) if (shap.values[(7 * f + j) * k + 1] !== 0) nonzero++;
    expect((svg.match(/<rect /g) ?? []).length).toBe(nonzero);
    expect((svg.match(/<g /g) ?? []).length).toBe((svg.match(/<\/g>/g) ?? []).length);
  });

  it('escapes feature and class names', () => {
    const rows = Array.from({ length: 40 }, (_, i) => ({ '<b>&"x': i, y: i < 20 ? '<no>' : 'yes' }));
    const t = fit(datasetFromRows(rows, { target: 'y' }), { algorithm: 'cart' });
    const s = shapValues(
      t,
      rows.map(({ y: _, ...r }) => r),
    );
    const svg = shapSummarySvg(shapSummary(s)) + shapWaterfallSvg(s, 0, 0);
    expect(svg).not.toContain('<b>');
    expect(svg).not.toContain('<no>');
    expect(svg).toContain('&lt;b&gt;&amp;&quot;x');
  });
});
