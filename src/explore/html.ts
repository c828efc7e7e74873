import { esc, scriptJson } from '../report/html.js';
import { STYLE } from '../report/style.js';
import { dataShape, type EmbeddedData } from './embedded.js';
import { dataSummary, FORMATS, type PageSettings, pageTitle, sampleNotice } from './page-text.js';
import { DEFAULT_MAX_ROWS } from './prepare.js';
import { EXPLORE_STYLE } from './style.js';

/** The page's bundled scripts (dist/explore-page/, built by `npm run build:browser`). */
export interface PageScripts {
  page: string;
  /** The workers that grow, inspect and cross-validate. */
  worker: string;
  /** The worker that reads a file opened in the page (started only then). */
  reader: string;
  /** The worker that holds the data set's columns and gives each other worker a copy. */
  keeper: string;
}

/**
 * Script text safe inside a <script> element: `</script` cannot end it early (`<\/` is `</` in JS
 * strings and regexes).
 */
export function inlineScript(code: string): string {
  return code.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
}

/**
 * The explore page: one self-contained HTML file (styles, scripts and data inline, no request
 * made), the data set as JSON in a `<script type="application/json">` (none: the page waits for
 * the user to open a file) with its shape beside it (what the main thread reads), the workers'
 * code in non-executed `<script>`s the page turns into Blob URLs. `settings` are the limits of a
 * file opened in the page.
 */
export function explorePage(
  data: EmbeddedData | undefined,
  scripts: PageScripts,
  settings: PageSettings = { maxRows: DEFAULT_MAX_ROWS, seed: 1 },
): string {
  const shape = data && dataShape(data);
  const notice = sampleNotice(shape);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(pageTitle(shape))}</title>
<style>${STYLE}${EXPLORE_STYLE}</style>
</head>
<body data-state="busy">
<header>
<h1 id="title">${esc(pageTitle(shape))}</h1>
<p id="summary">${esc(dataSummary(shape))}</p>
${OPEN_FILE}
</header>
<div class="page">
<p id="notice" class="warn" role="status"${notice ? '' : ' hidden'}>${esc(notice)}</p>
<p id="file-status" class="muted" role="status" hidden></p>
<div id="error" class="error" role="alert" hidden></div>
<form id="controls" class="sidebar" aria-label="tree options">
<h2>Tree A</h2>
<div id="controls-a"></div>
<label class="side"><input type="checkbox" id="side"> side by side with tree B</label>
${CONTROLS_B}
<button type="submit" id="grow">Grow</button>
</form>
<main>
<section id="trees" aria-label="trees">
${treePane('a')}
${treePane('b')}
</section>
<div id="legend" class="legend"></div>
<p id="disagree" class="muted"></p>
${NODE_SECTION}
${RULES_SECTION}
${PATH_SECTION}
${WHY_SECTION}
</main>
</div>
<script type="application/json" id="grove-data">${data ? scriptJson(data) : 'null'}</script>
<script type="application/json" id="grove-shape">${shape ? scriptJson(shape) : 'null'}</script>
<script type="application/json" id="grove-settings">${scriptJson(settings)}</script>
<script type="text/plain" id="grove-worker">${inlineScript(scripts.worker)}</script>
<script type="text/plain" id="grove-reader">${inlineScript(scripts.reader)}</script>
<script type="text/plain" id="grove-keeper">${inlineScript(scripts.keeper)}</script>
<script>${inlineScript(scripts.page)}</script>
</body>
</html>
`;
}

/** Tree `k`'s pane: its stats line, cross-validation line and drawing (B's starts hidden). */
function treePane(k: 'a' | 'b'): string {
  const name = k.toUpperCase();
  return (
    `<div id="pane-${k}" class="pane"${k === 'b' ? ' hidden' : ''}><h2>Tree ${name}</h2>` +
    `<p id="stats-${k}" class="stats-line" role="status"></p><p id="cv-${k}" class="cv"></p>` +
    `<div id="tree-${k}" class="tree-holder"></div></div>`
  );
}

/** Tree `k`'s rules: the text and the button that shows them all. */
function rulesBox(k: 'a' | 'b'): string {
  const name = k.toUpperCase();
  return (
    `<summary>Tree ${name}</summary>` +
    `<pre id="rules-${k}" tabindex="0" aria-label="Tree ${name}'s IF-THEN rules"></pre>` +
    `<button type="button" id="rules-${k}-all" aria-controls="rules-${k}" aria-expanded="false" hidden></button>`
  );
}

const NODE_SECTION =
  '<section id="node" aria-live="polite"><h2>Node</h2>' +
  '<div id="node-body"><p class="muted">Click a node (or focus it and press Enter).</p></div></section>';
const RULES_SECTION =
  `<section id="rules"><h2>IF-THEN rules</h2><details open>${rulesBox('a')}</details>` +
  `<details id="rules-b-box" hidden>${rulesBox('b')}</details></section>`;
const PATH_SECTION =
  '<section id="path"><h2>The path of a row</h2>' +
  '<p class="muted">Type a row\'s values (empty = missing) and trace it down tree A.</p>' +
  '<div id="path-box"></div></section>';
const WHY_SECTION =
  '<section id="why" aria-live="polite"><details id="why-box"><summary><h2>Why tree A says that</h2></summary>' +
  '<p class="muted">Exact TreeSHAP: how much each feature moves the predicted probabilities away from ' +
  'their expected value, and partial dependence: the probabilities as one feature varies. Computed while ' +
  'this section is open.</p>' +
  '<div id="why-summary" class="why-picture"></div>' +
  '<form id="why-form" class="why-form"><label>row <input type="number" id="why-row" min="1" value="1"></label>' +
  '<label>feature <select id="why-feature"></select></label></form>' +
  '<div id="why-waterfall" class="why-picture"></div><div id="why-partial" class="why-picture"></div>' +
  '<p id="why-status" class="muted" role="status"></p></details></section>';
const OPEN_FILE =
  '<p class="open-file"><label>Open a file <input type="file" id="file" ' +
  `aria-describedby="summary"></label> <span class="muted">or drop one on the page (${FORMATS}).</span> ` +
  '<label class="target">target <select id="target" disabled></select></label></p>';
const CONTROLS_B =
  '<div id="controls-b" hidden><h2>Tree B</h2>' +
  "<p class=\"muted\">Tree A's options, with B's preset (and its measure) and B's measure where given.</p></div>";
