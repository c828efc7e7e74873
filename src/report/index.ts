/**
 * The comparison report: one self-contained HTML page (inline CSS, SVG and script; no requests),
 * built from a results file alone, so `grove report results.json` rebuilds it anywhere. Browser-safe
 * (string in, string out).
 */
import { type Analysis, analyze, type MetricAnalysis } from '../eval/analysis.js';
import { type CompareResults, configAverages } from '../eval/results.js';
import { formatP, pText } from '../eval/table.js';
import { cdDiagram } from './cd-diagram.js';
import { CLIENT_JS } from './client.js';
import { color, esc, fmt, scriptJson } from './html.js';
import { barsPanel, scatterPanel } from './panels.js';
import { STYLE } from './style.js';
import { reportTree } from './tree-data.js';

export { type ReportTree, reportTree } from './tree-data.js';

function legend(configs: string[], colors: Map<string, string>): string {
  return `<div class="legend">${configs.map((c) => `<span><i class="swatch" style="background:${colors.get(c)}"></i>${esc(c)}</span>`).join('')}</div>`;
}

/** "a ranks significantly better than b and c; d ranks significantly better than e". */
function significantPairs(pairs: MetricAnalysis['pairs']): string {
  const better = new Map<string, string[]>();
  for (const p of pairs) {
    const [hi, lo] = p.rankDifference > 0 ? [p.a, p.b] : [p.b, p.a];
    better.set(hi, [...(better.get(hi) ?? []), lo]);
  }
  return [...better]
    .map(([hi, los]) => `<b>${esc(hi)}</b> ranks significantly better than ${los.map(esc).join(', ')}`)
    .join('; ');
}

function verdict(m: MetricAnalysis): string {
  if (!m.friedman) return `<p class="note">${esc(m.note ?? '')}</p>`;
  const f = m.friedman;
  const id = f.imanDavenport;
  const order = m.configs.map((_, i) => i).sort((a, b) => m.averageRanks[a] - m.averageRanks[b]);
  const best = m.configs[order[0]];
  const rejects = id.pValue < 0.05;
  const sig = m.pairs.filter((p) => p.nemenyiSignificant);
  return (
    `<p class="lead">On <b>${esc(m.label)}</b>, <b>${esc(best)}</b> has the best average rank (${fmt(m.averageRanks[order[0]], 2)} over ${f.N} data sets). ` +
    `The Friedman test ${rejects ? '<b>rejects</b>' : 'does <b>not</b> reject'} the hypothesis that all ${f.k} configurations perform alike ` +
    `(χ²<sub>F</sub> = ${fmt(f.chiSquare, 2)}, ${pText(f.pValue)}; Iman–Davenport F<sub>F</sub> = ${Number.isFinite(id.F) ? fmt(id.F, 2) : '∞'} on (${id.df1}, ${id.df2}) df, ${pText(id.pValue)}; α = 0.05). ` +
    (sig.length
      ? `By the Nemenyi test (CD = ${fmt(m.cd05!, 2)}), ${significantPairs(sig)}.`
      : `No two configurations differ by the Nemenyi critical difference (CD = ${fmt(m.cd05!, 2)} at α = 0.05).`) +
    '</p>'
  );
}

function rankTable(results: CompareResults, a: Analysis): string {
  const complete = new Set(a.accuracy.datasets);
  const rows = results.configs.map((c, j) => {
    const avg = configAverages(a.cells, c.label, complete);
    return (
      `<tr><td><i class="swatch" style="background:${color(j)}"></i> ${esc(c.label)}</td>` +
      `<td>${fmt(a.accuracy.averageRanks[j], 2)}</td><td>${fmt(a.leaves.averageRanks[j], 2)}</td>` +
      `<td>${fmt(100 * avg.testAccuracy, 2)}</td><td>${fmt(100 * avg.trainError, 2)}</td>` +
      `<td>${fmt(avg.nodes, 1)}</td><td>${fmt(avg.leaves, 1)}</td><td>${fmt(avg.height, 1)}</td>` +
      `<td>${fmt(avg.needlessFeatures, 1)}</td><td>${fmt(avg.fitMs, 1)}</td><td>${fmt(avg.predictMs, 2)}</td></tr>`
    );
  });
  return (
    `<div class="scroll"><table id="rank-table"><thead><tr><th>configuration</th><th>avg rank<br>accuracy</th><th>avg rank<br>leaves</th>` +
    `<th>mean test<br>accuracy %</th><th>mean train<br>error %</th><th>nodes</th><th>leaves</th><th>height</th><th>needless<br>features</th><th>fit ms<br>per fold</th><th>predict ms<br>per fold</th></tr></thead>` +
    `<tbody>${rows.join('')}</tbody></table></div>` +
    `<p class="note">Averages over the ${complete.size} data sets on which every configuration finished; rank 1 = best (most accurate, or fewest leaves), ties share the mean rank.</p>`
  );
}

function accuracyTable(results: CompareResults, a: Analysis, withModels: Set<string>): string {
  const labels = results.configs.map((c) => c.label);
  const head = `<tr><th>data set</th><th>rows</th>${labels.map((l, j) => `<th><i class="swatch" style="background:${color(j)}"></i> ${esc(l)}</th>`).join('')}</tr>`;
  const body = results.datasets.map((d) => {
    const cells = labels.map((l) => a.cells.find((c) => c.dataset === d.name && c.config === l)!);
    const best = Math.max(...cells.filter((c) => c.done > 0).map((c) => c.testAccuracy.mean));
    return (
      `<tr><td>${esc(d.name)}</td><td>${d.rows}</td>` +
      cells
        .map((c) => {
          if (c.done === 0) return '<td class="muted">—</td>';
          const link = withModels.has(`${c.dataset}\u0000${c.config}`);
          const cls = [Math.abs(c.testAccuracy.mean - best) < 1e-12 ? 'best' : '', link ? 'tree-link' : '']
            .filter(Boolean)
            .join(' ');
          const tip = `${c.config} on ${c.dataset}: ${fmt(100 * c.testAccuracy.mean, 2)} ± ${fmt(100 * c.testAccuracy.sd, 2)} % over ${c.done} folds; ${fmt(c.leaves.mean, 1)} leaves${link ? ' (click: show the tree)' : ''}`;
          return (
            `<td class="${cls}" data-dataset="${esc(c.dataset)}" data-config="${esc(c.config)}" data-tip="${esc(tip)}">${fmt(100 * c.testAccuracy.mean, 1)}<span class="sd"> ± ${fmt(100 * c.testAccuracy.sd, 1)}</span>` +
            ` <span class="sub">(${fmt(c.leaves.mean, 0)})</span>${c.complete ? '' : ` <span class="sig">[${c.done}/${c.planned}]</span>`}</td>`
          );
        })
        .join('') +
      '</tr>'
    );
  });
  const ranks = (m: MetricAnalysis, name: string) =>
    `<tr><td><b>avg rank (${name})</b></td><td></td>${m.averageRanks.map((r) => `<td><b>${fmt(r, 2)}</b></td>`).join('')}</tr>`;
  return (
    `<div class="scroll"><table id="accuracy-table"><thead>${head}</thead><tbody>${body.join('')}${ranks(a.accuracy, 'accuracy')}${ranks(a.leaves, 'leaves')}</tbody></table></div>` +
    `<p class="note">Test accuracy % (mean ± sd over folds), mean leaves in parentheses, the best of each row in bold. Click a cell to see that tree.</p>`
  );
}

function detailTable(results: CompareResults, a: Analysis): string {
  const rows = a.cells
    .filter((c) => c.done > 0)
    .map(
      (c) =>
        `<tr><td>${esc(c.dataset)}</td><td>${esc(c.config)}</td><td>${c.done}/${c.planned}</td><td>${fmt(100 * c.testAccuracy.mean, 2)} <span class="sd">± ${fmt(100 * c.testAccuracy.sd, 2)}</span></td>` +
        `<td>${fmt(100 * c.testError.mean, 2)}</td><td>${fmt(100 * c.trainError.mean, 2)}</td><td>${fmt(c.nodes.mean, 1)}</td><td>${fmt(c.leaves.mean, 1)}</td>` +
        `<td>${fmt(c.height.mean, 1)}</td><td>${fmt(c.needlessFeatures.mean, 1)}</td><td>${fmt(c.fitMs.mean, 2)}</td><td>${fmt(c.predictMs.mean, 3)}</td></tr>`,
    );
  return (
    `<details><summary>Every data set × configuration (${rows.length} rows)</summary><div class="scroll"><table id="detail-table"><thead><tr>` +
    `<th>data set</th><th>configuration</th><th>folds</th><th>test accuracy %</th><th>test error %</th><th>train error %</th><th>nodes</th><th>leaves</th><th>height</th><th>needless</th><th>fit ms</th><th>predict ms</th>` +
    `</tr></thead><tbody>${rows.join('')}</tbody></table></div><p class="note">Means over folds (${results.settings.repeats > 1 ? 'all repeats pooled' : 'one repeat'}); every fold's numbers are in results.csv and results.json.</p></details>`
  );
}

function pairTable(m: MetricAnalysis, id: string): string {
  if (!m.pairs.length) return '';
  const rows = m.pairs.map(
    (p) =>
      `<tr><td>${esc(p.a)} vs ${esc(p.b)}</td><td>${p.wins} / ${p.ties} / ${p.losses}</td><td>${fmt(p.rankDifference, 2)}</td>` +
      `<td class="${p.nemenyiSignificant ? 'sig' : ''}">${formatP(p.nemenyiP)}</td><td>${p.wilcoxon.statistic}</td>` +
      `<td class="${p.wilcoxon.pValue < 0.05 ? 'sig' : ''}">${formatP(p.wilcoxon.pValue)}</td><td class="muted" data-tip="${esc(p.wilcoxon.description)}">${p.wilcoxon.method === 'exact' ? 'exact' : 'normal approx.'}</td></tr>`,
  );
  return (
    `<div class="scroll"><table id="${id}"><thead><tr><th>pair (a vs b)</th><th>a better / equal / worse</th><th>rank b − rank a</th><th>Nemenyi p</th><th>Wilcoxon V</th><th>Wilcoxon p</th><th>p computed</th></tr></thead>` +
    `<tbody>${rows.join('')}</tbody></table></div>`
  );
}

/** The whole page. `analysis` defaults to `analyze(results)`. */
export function buildReport(results: CompareResults, analysis: Analysis = analyze(results)): string {
  const a = analysis;
  const labels = results.configs.map((c) => c.label);
  const colors = new Map(labels.map((l, j) => [l, color(j)]));
  const s = results.settings;
  const title = `grove compare: ${results.datasets.length} data set${results.datasets.length === 1 ? '' : 's'} × ${labels.length} configuration${labels.length === 1 ? '' : 's'}`;
  const trees = results.models.map(reportTree);
  const withModels = new Set(results.models.map((m) => `${m.dataset}\u0000${m.config}`));
  const byDataset = (name: string) => labels.map((l) => a.cells.find((c) => c.dataset === name && c.config === l)!);
  const withResults = results.datasets.filter((d) => byDataset(d.name).some((c) => c.done > 0));
  const configRows = results.configs
    .map(
      (c, j) =>
        `<tr><td><i class="swatch" style="background:${color(j)}"></i> ${esc(c.label)}</td><td><code>${esc(JSON.stringify(c.options))}</code></td></tr>`,
    )
    .join('');
  const dataRows = results.datasets
    .map(
      (d) =>
        `<tr><td>${esc(d.name)}</td><td>${d.rows}</td><td>${d.features} (${d.numeric} numeric, ${d.categorical} categorical)</td><td>${d.classes}</td><td>${d.foldsPlanned}</td><td><code>${esc(d.file)}</code></td></tr>`,
    )
    .join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>${esc(title)}</h1>
<p>${s.folds}-fold stratified cross-validation${s.repeats > 1 ? ` × ${s.repeats} repeats` : ''}, seed ${s.seed}: every configuration sees the same folds.</p>
<p class="small">grove ${esc(results.grove)}${results.runtime ? ` · ${esc(results.runtime)}` : ''} · ${esc(results.created)}</p>
</header>
<nav><a href="#summary">Summary</a><a href="#cd">Critical difference</a><a href="#accuracy">Accuracy</a><a href="#pairs">Pairwise tests</a><a href="#datasets">Per data set</a><a href="#trees">Trees</a><a href="#setup">Setup</a></nav>
<main>
${results.complete ? '' : '<p class="warn">This run was interrupted: unfinished cells are marked [done/planned], and the statistics use only the data sets on which every configuration finished. <code>grove compare ... --out DIR --resume</code> continues it.</p>'}
<section id="summary">
<h2>Summary</h2>
${verdict(a.accuracy)}
${verdict(a.leaves)}
${rankTable(results, a)}
</section>
<section id="cd">
<h2>Critical-difference diagrams</h2>
<p class="note">Average ranks over the data sets (1 = best). Configurations joined by a thick bar are not significantly different by the Nemenyi test at α = 0.05; the CD bar above the axis is the critical difference (Demšar 2006).</p>
<h3>Test accuracy</h3>
<div class="scroll">${cdDiagram(a.accuracy, colors)}</div>
<h3>Tree size (leaves)</h3>
<div class="scroll">${cdDiagram(a.leaves, colors)}</div>
</section>
<section id="accuracy">
<h2>Accuracy per data set</h2>
${accuracyTable(results, a, withModels)}
${detailTable(results, a)}
</section>
<section id="pairs">
<h2>Pairwise tests</h2>
<p class="note">Over data sets, on mean test accuracy: Wilcoxon signed-rank, two-sided, as R's <code>wilcox.test(paired = TRUE)</code> (exact when fewer than 50 non-zero differences and no ties, else the normal approximation with tie and continuity correction; zero differences dropped); Nemenyi all-pairs p from the studentized range. Red: p &lt; 0.05.</p>
${pairTable(a.accuracy, 'pairs-accuracy')}
<details><summary>Same tests on tree size (leaves)</summary>${pairTable(a.leaves, 'pairs-leaves')}</details>
</section>
<section id="datasets">
<h2>Per data set</h2>
${legend(labels, colors)}
<h3>Test error (mean ± sd over folds)</h3>
<div class="panels" id="bars">${withResults.map((d) => barsPanel(d.name, byDataset(d.name), colors)).join('')}</div>
<h3>Accuracy against tree size</h3>
<p class="note">One point per configuration: mean leaves against mean test accuracy, with a whisker of ± one sd. Up and to the left is better.</p>
<div class="panels" id="scatter">${withResults.map((d) => scatterPanel(d.name, byDataset(d.name), colors)).join('')}</div>
</section>
<section id="trees">
<h2>Trees</h2>
${
  trees.length
    ? `<p class="note">Each configuration's tree grown on all rows of each data set. Each node shows the test on the branch into it, its class distribution (hover for counts), its majority class and row count.</p>
<div class="controls"><label>data set <select id="tree-dataset"></select></label><label>configuration <select id="tree-config"></select></label><button id="tree-expand" type="button">expand all</button><button id="tree-collapse" type="button">collapse</button></div>
<p id="tree-stats" class="stats-line"></p>
<div id="tree-legend" class="legend"></div>
<div id="tree-view" class="tree"></div>`
    : '<p class="note">No models were saved (run without <code>--no-models</code> to see the trees).</p>'
}
</section>
<section id="setup">
<h2>Setup</h2>
<h3>Configurations (options passed to fit)</h3>
<table id="config-table"><thead><tr><th>label</th><th>options</th></tr></thead><tbody>${configRows}</tbody></table>
<h3>Data sets</h3>
<div class="scroll"><table id="data-table"><thead><tr><th>name</th><th>rows</th><th>features</th><th>classes</th><th>folds run</th><th>file</th></tr></thead><tbody>${dataRows}</tbody></table></div>
</section>
<footer>
<p>Statistics as in J. Demšar, “Statistical comparisons of classifiers over multiple data sets”, JMLR 7 (2006) 1–30: average ranks, Friedman’s χ²<sub>F</sub> (tie-corrected as in R and scipy) with the Iman–Davenport F<sub>F</sub>, the Nemenyi critical difference CD = q<sub>α</sub>√(k(k+1)/6N) with q<sub>α</sub> from Demšar’s Table 5(a), and Wilcoxon signed-rank tests. Generated by grove; this page is self-contained and makes no network requests.</p>
</footer>
</main>
<script type="application/json" id="grove-trees">${scriptJson(trees)}</script>
<script>${CLIENT_JS}</script>
</body>
</html>
`;
}
