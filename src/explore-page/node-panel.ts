import { color } from '../report/html.js';
import { count, el } from './dom.js';
import type { NodeDetail } from './protocol.js';
import { conditionOf, splitTextOf, type TreeView } from './tree-view.js';

/** The conditions from the root down to node `id`. */
export function conditionsTo(tree: TreeView, id: number): string[] {
  const out: string[] = [];
  for (let at = id; at > 0; at = tree.nodes.parent[at]) out.push(conditionOf(tree, at));
  return out.reverse();
}

function classTable(tree: TreeView, counts: number[]): HTMLTableElement {
  const table = el('table', { class: 'counts' });
  const total = counts.reduce((a, b) => a + b, 0) || 1;
  table.append(el('thead'));
  table.tHead!.append(row('th', ['class', 'rows', 'share']));
  const body = el('tbody');
  counts.forEach((c, k) => {
    const tr = row('td', ['', count(c), `${((100 * c) / total).toFixed(1)} %`]);
    const sw = el('span', { class: 'swatch' });
    sw.style.background = color(k);
    tr.cells[0].append(sw, document.createTextNode(` ${tree.classes[k]}`));
    body.append(tr);
  });
  table.append(body);
  return table;
}

function row(tag: 'td' | 'th', cells: string[]): HTMLTableRowElement {
  const tr = el('tr');
  for (const c of cells) tr.append(el(tag, {}, c));
  return tr;
}

/**
 * The ten measures' table: one row per feature, one column per measure, each cell that measure's
 * value of the feature's best split (as `grove score --criterion <measure>` prints it) with the
 * split in its tooltip; the tree's measure is the highlighted column, each measure's best feature
 * in bold.
 */
function scoresTable(detail: NodeDetail, measure: string): HTMLElement {
  const s = detail.scores!;
  const table = el('table', { id: 'scores', class: 'scores' });
  const head = el('tr');
  head.append(el('th', {}, 'feature'), el('th', {}, 'type'));
  for (const m of s.measures) {
    const binary = m.binaryCategories ? ' (binary categorical splits: it scores no others)' : '';
    const th = el(
      'th',
      { 'data-measure': m.name, title: `${m.better} is better${binary}` },
      `${m.name}${binary ? '*' : ''} ${m.better === 'higher' ? '↑' : '↓'}`,
    );
    if (m.name === measure) th.classList.add('chosen');
    head.append(th);
  }
  table.append(el('thead'));
  table.tHead!.append(head);
  const body = el('tbody');
  for (const f of s.features) {
    const tr = el('tr', { 'data-feature': f.name });
    tr.append(el('td', {}, f.name), el('td', {}, f.type));
    f.scores.forEach((v, i) => {
      const m = s.measures[i];
      const td = el('td', { 'data-measure': m.name, 'data-score': v === null ? '' : String(v), title: f.splits[i] });
      td.textContent = v === null ? '—' : v.toFixed(4);
      if (m.name === measure) td.classList.add('chosen');
      if (m.best === f.name) td.classList.add('best');
      tr.append(td);
    });
    body.append(tr);
  }
  table.append(body);
  const wrap = el('div', { class: 'scroll' });
  wrap.append(table);
  return wrap;
}

/**
 * The node panel's body for `detail` of node `detail.node` in `tree` (grown with `measure`): its
 * top (the node, its classes and rows), and the ten measures' table below it, which the page puts
 * in a frame of its own.
 */
export function nodePanel(
  tree: TreeView,
  label: string,
  detail: NodeDetail,
  measure: string,
): { top: HTMLElement[]; scores: HTMLElement[] } {
  const splitText = splitTextOf(tree, detail.node);
  const out: HTMLElement[] = [];
  out.push(
    el(
      'h3',
      {},
      `${label}, node ${detail.node} (depth ${tree.nodes.depth[detail.node]})` +
        (splitText ? `: split ${splitText}` : ': leaf'),
    ),
  );
  const path = conditionsTo(tree, detail.node);
  out.push(el('p', { class: 'path-text' }, path.length ? path.join(' AND ') : 'the root: every row'));
  out.push(classTable(tree, detail.counts));
  const rowsNote = detail.fractional
    ? ' (C4.5 fractional missing values: a row with the split value missing is counted at every branch)'
    : '';
  out.push(el('p', {}, `Rows reaching it: ${detail.rows.length}${rowsNote}. Scored in ${detail.ms.toFixed(0)} ms.`));
  const det = el('details', { class: 'rows' });
  det.append(el('summary', {}, 'row numbers and the first rows'));
  const area = el('textarea', {
    id: 'node-rows',
    readonly: '',
    rows: '3',
    'aria-label': 'row numbers, 1 = first data row',
  });
  area.value = detail.rows.join(', ');
  det.append(el('p', { class: 'muted' }, 'Row numbers (1 = the first data row of the file):'), area);
  if (detail.preview.length) {
    const t = el('table', { class: 'preview' });
    const headCells = [...tree.features.map((f) => f.name), 'class'];
    t.append(el('thead'));
    t.tHead!.append(row('th', ['row', ...headCells]));
    const b = el('tbody');
    detail.preview.forEach((cells, i) => b.append(row('td', [String(detail.rows[i]), ...cells])));
    t.append(b);
    const wrap = el('div', { class: 'scroll' });
    wrap.append(t);
    det.append(wrap);
  }
  out.push(det);
  if (!detail.scores) {
    out.push(el('p', { class: 'muted' }, 'No training rows reach this node: nothing to score.'));
    return { top: out, scores: [] };
  }
  const heading = 'Every feature’s best split at this node, under each of the ten measures (as grove score prints it)';
  return { top: out, scores: [el('h4', {}, heading), scoresTable(detail, measure)] };
}
