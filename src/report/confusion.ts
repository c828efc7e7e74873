/**
 * The report's cross-validated confusion matrices: for each data set, one table per
 * configuration of its test rows over every fold and repeat, actual class by row and predicted
 * class by column, each cell shaded by its share of the actual class's rows.
 */

import { pooledConfusion } from '../eval/cross-validate.js';
import type { CompareResults, DatasetInfo } from '../eval/results.js';
import { color, esc } from './html.js';

const NOTE =
  '<p class="note">Test rows of every fold and repeat pooled: rows are the actual class, columns the ' +
  'predicted one; the diagonal (outlined) holds the rows classified right. A cell is shaded by its share ' +
  'of its row.</p>';

const NONE =
  '<p class="note">This results file records no confusion matrices (it was written by an earlier grove; ' +
  'run the comparison again to see them).</p>';

/** One configuration's matrix on one data set, or an empty string when its folds recorded none. */
function matrixTable(d: DatasetInfo, labels: readonly string[], config: string, j: number, m: number[][]): string {
  const head = `<tr><th>actual \\ predicted</th>${labels.map((l) => `<th>${esc(l)}</th>`).join('')}</tr>`;
  const rows = m.map((row, a) => {
    const total = row.reduce((s, n) => s + n, 0);
    const cells = row.map((n, p) => {
      const share = total > 0 ? n / total : 0;
      const outline = a === p ? ';outline:1px solid #4e79a7' : '';
      const style = `background:rgba(78,121,167,${(0.75 * share).toFixed(3)})${outline}`;
      const tip = `${config} on ${d.name}: ${n} of ${total} rows of '${labels[a]}' predicted '${labels[p]}'`;
      return `<td style="${style}" data-tip="${esc(tip)}">${n}</td>`;
    });
    return `<tr><th>${esc(labels[a])}</th>${cells.join('')}</tr>`;
  });
  return (
    `<div class="confusion"><h4><i class="swatch" style="background:${color(j)}"></i> ${esc(config)}</h4>` +
    `<table class="confusion-matrix" data-dataset="${esc(d.name)}" data-config="${esc(config)}">` +
    `<thead>${head}</thead><tbody>${rows.join('')}</tbody></table></div>`
  );
}

/** The section's HTML: one collapsible block per data set (the first open). */
export function confusionSection(results: CompareResults): string {
  const blocks: string[] = [];
  for (const d of results.datasets) {
    const k = d.classes;
    const labels = d.classLabels ?? Array.from({ length: k }, (_, c) => `class ${c + 1}`);
    const tables = results.configs.flatMap((c, j) => {
      const m = pooledConfusion(
        results.folds.filter((f) => f.dataset === d.name && f.config === c.label),
        k,
      );
      return m ? [matrixTable(d, labels, c.label, j, m)] : [];
    });
    if (tables.length === 0) continue;
    const open = blocks.length === 0 ? ' open' : '';
    blocks.push(
      `<details${open}><summary>${esc(d.name)} (${k} classes)</summary>` +
        `<div class="panels">${tables.join('')}</div></details>`,
    );
  }
  const body = blocks.length ? NOTE + blocks.join('\n') : NONE;
  return `<section id="confusion">\n<h2>Confusion matrices</h2>\n${body}\n</section>`;
}
