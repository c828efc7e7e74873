/**
 * The report's explanation pictures: per data set, each configuration's mean |SHAP| per feature,
 * one representative row's waterfall and the partial dependence of the features contributing most,
 * drawn with the SVG code the explore page uses, from the numbers `grove compare` stored.
 */
import type { CompareResults, ExplanationRecord } from '../eval/results.js';
import type { ShapValues } from '../explain/shap.js';
import { shapSummary } from '../explain/summary.js';
import { color, esc } from './html.js';
import { partialDependenceSvg } from './partial-svg.js';
import { shapSummarySvg, shapWaterfallSvg } from './shap-svg.js';

const NOTE =
  '<p class="note">Each configuration\'s model fitted on all rows (a forest too), explained with exact ' +
  'path-dependent TreeSHAP on a seeded sample of the rows (at most 500, fewer for large models). Bars: the ' +
  'mean |contribution| of each feature to the predicted class probabilities, summed over classes. ' +
  'Waterfall: a representative row (among the rows predicted as the most often predicted class, the one whose ' +
  'contributions are nearest their mean), from the expected probability to its prediction. Curves: the partial ' +
  'dependence of the class probabilities on the features contributing most.</p>';

const NONE =
  '<p class="note">This results file holds no explanations (written by an earlier grove, or with ' +
  '<code>--no-models</code>); run the comparison again to see them.</p>';

/** `x`'s numbers as the SHAP values of one row (`values`: features × classes), for the drawing code. */
function asShap(x: ExplanationRecord, values: readonly number[]): ShapValues {
  return {
    nRows: 1,
    features: x.features,
    classes: x.classes,
    values: Float64Array.from(values),
    expected: Float64Array.from(x.expected),
  };
}

/** One configuration's pictures on one data set. */
function cellPictures(x: ExplanationRecord, j: number): string {
  // The mean |SHAP| table is one row of non-negative values, so its summary is itself.
  const summary = shapSummarySvg(shapSummary(asShap(x, x.meanAbs)));
  const waterfall = shapWaterfallSvg(asShap(x, x.row.contributions), 0, x.row.class, 10, `row ${x.row.index + 1}`);
  const curves = x.partial.map((p) =>
    partialDependenceSvg({ ...p, classes: x.classes, average: Float64Array.from(p.average) }),
  );
  return (
    `<div class="why" data-dataset="${esc(x.dataset)}" data-config="${esc(x.config)}">` +
    `<h4><i class="swatch" style="background:${color(j)}"></i> ${esc(x.config)}</h4>` +
    `<p class="small">${x.rows.toLocaleString('en')} rows explained; the waterfall is row ${x.row.index + 1} ` +
    'of the data set.</p>' +
    `<div class="why-pictures">${[summary, waterfall, ...curves].map((s) => `<div>${s}</div>`).join('')}</div></div>`
  );
}

/** The section's HTML: one collapsible block per data set (the first open), or a note when there is nothing. */
export function explanationSection(results: CompareResults): string {
  const byCell = new Map((results.explanations ?? []).map((x) => [`${x.dataset}\u0000${x.config}`, x]));
  const blocks: string[] = [];
  for (const d of results.datasets) {
    const cells = results.configs.flatMap((c, j) => {
      const x = byCell.get(`${d.name}\u0000${c.label}`);
      return x ? [cellPictures(x, j)] : [];
    });
    if (cells.length === 0) continue;
    const open = blocks.length === 0 ? ' open' : '';
    blocks.push(`<details${open}><summary>${esc(d.name)}</summary>${cells.join('')}</details>`);
  }
  const body = blocks.length ? NOTE + blocks.join('\n') : NONE;
  return `<section id="why">\n<h2>Why the models predict what they do</h2>\n${body}\n</section>`;
}
