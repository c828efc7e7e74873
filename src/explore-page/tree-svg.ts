import { color } from '../report/html.js';
import { clip, count, svg } from './dom.js';
import type { TreeView } from './tree-view.js';

const BOX_W = 124;
const BOX_H = 40;
const GAP_X = 14;
const LEVEL_H = 78;

/**
 * x (leaf slots) of every node: leaves in depth-first order one slot apart, an inner node centred
 * over its first and last child. Iterative (no recursion over the tree's depth).
 */
export function layout(tree: TreeView): Float64Array {
  const nodes = tree.nodes;
  const x = new Float64Array(nodes.length);
  let next = 0;
  // Pre-order visit to place leaves, then children before parents (ids grow downwards) to centre.
  const stack = [0];
  while (stack.length > 0) {
    const id = stack.pop()!;
    const kids = nodes[id].children;
    if (!kids) x[id] = next++;
    else for (let b = kids.length - 1; b >= 0; b--) stack.push(kids[b]);
  }
  const order: number[] = [];
  const walk = [0];
  while (walk.length > 0) {
    const id = walk.pop()!;
    order.push(id);
    for (const c of nodes[id].children ?? []) walk.push(c);
  }
  for (let i = order.length - 1; i >= 0; i--) {
    const kids = nodes[order[i]].children;
    if (kids) x[order[i]] = (x[kids[0]] + x[kids[kids.length - 1]]) / 2;
  }
  return x;
}

function majority(counts: number[]): number {
  let b = 0;
  for (let c = 1; c < counts.length; c++) if (counts[c] > counts[b]) b = c;
  return b;
}

/** The drawn tree: its SVG and the node groups by id. */
export interface DrawnTree {
  svg: SVGSVGElement;
  nodes: SVGGElement[];
  width: number;
  height: number;
  /** Add the text of the nodes in view, when they are large enough to read (call after a zoom or pan). */
  showDetail(): void;
}

/** Trees up to this many nodes get every node's text at once; larger ones only where zoomed in. */
const DETAIL_ALL = 400;
/** Below this many pixels a box's text cannot be read: it is not drawn. */
const LEGIBLE_PX = 60;
/** The most nodes given text in one pass. */
const DETAIL_BATCH = 800;

/**
 * The tree as SVG: a box per node with the split (or the leaf's class), a bar of its class mix
 * whose length grows with the rows reaching it, and each branch's condition above the box. Node
 * groups are focusable buttons (`data-node`, `aria-label` with the split and the row count);
 * `onPick` runs on click, Enter or Space. A large tree is drawn light: a box filled with its
 * majority class's colour per node and one path for every edge; the text comes for the boxes in
 * view once they are zoomed to a legible size (`showDetail`), or when one gets the focus. That
 * keeps a tree of thousands of nodes quick to draw, and its view quick to lay out and paint.
 */
export function drawTree(tree: TreeView, onPick: (id: number) => void): DrawnTree {
  const x = layout(tree);
  const nodes = tree.nodes;
  let leaves = 0;
  for (const n of nodes) if (!n.children) leaves++;
  const width = Math.max(1, leaves) * (BOX_W + GAP_X) + GAP_X;
  const height = (tree.stats.height + 1) * LEVEL_H + 10;
  const total = nodes[0].n || 1;
  const px = (id: number) => GAP_X + x[id] * (BOX_W + GAP_X) + BOX_W / 2;
  const py = (id: number) => 8 + nodes[id].depth * LEVEL_H;
  const root = svg('svg', {
    class: 'tree-svg',
    viewBox: `0 0 ${width} ${height}`,
    role: 'group',
    'aria-label': `tree of ${tree.stats.nodes} nodes`,
  });
  const curves: string[] = [];
  const boxes = svg('g', { class: 'boxes' });
  const template = svg('g', { tabindex: 0, role: 'button' });
  template.append(svg('rect', { width: BOX_W, height: BOX_H, rx: 5, class: 'box' }));
  const groups: SVGGElement[] = [];
  const detailed = new Uint8Array(nodes.length);
  nodes.forEach((node, id) => {
    const cx = px(id);
    const top = py(id);
    for (const child of node.children ?? []) {
      const x2 = px(child);
      const y2 = py(child);
      const mid = (top + BOX_H + y2) / 2;
      curves.push(`M${cx},${top + BOX_H}C${cx},${mid} ${x2},${mid} ${x2},${y2}`);
    }
    const g = template.cloneNode(true) as SVGGElement;
    g.setAttribute('class', node.children ? 'node inner' : 'node leaf');
    g.setAttribute('data-node', String(id));
    g.setAttribute('transform', `translate(${cx - BOX_W / 2},${top})`);
    // The split as data, for tests and for anyone reading the page's DOM.
    if (node.split) g.setAttribute('data-split', JSON.stringify(node.split));
    g.setAttribute(
      'aria-label',
      `node ${id}${node.condition ? `, ${node.condition}` : ''}: ${node.children ? `split ${nodeTitle(tree, id)}` : `leaf ${nodeTitle(tree, id)}`}, ${count(node.n)} rows`,
    );
    (g.firstChild as SVGRectElement).style.fill = color(majority(node.counts));
    boxes.append(g);
    groups.push(g);
  });
  root.append(svg('path', { d: curves.join(''), class: 'edge' }), boxes);

  /** Node `id`'s text, class mix and tooltip, once. */
  const detail = (id: number) => {
    if (detailed[id]) return;
    detailed[id] = 1;
    const node = nodes[id];
    const g = groups[id];
    (g.firstChild as SVGRectElement).style.fill = '';
    g.append(
      svg('text', { x: BOX_W / 2, y: 14, 'text-anchor': 'middle', class: 'box-title' }, clip(nodeTitle(tree, id), 21)),
    );
    // Class mix: one stacked bar, its length ∝ √(rows at the node / rows at the root).
    const barW = Math.max(4, (BOX_W - 8) * Math.sqrt(node.n / total));
    const sum = node.counts.reduce((a, b) => a + b, 0) || 1;
    let at = (BOX_W - barW) / 2;
    node.counts.forEach((c, k) => {
      if (c <= 0) return;
      const w = (barW * c) / sum;
      g.append(svg('rect', { x: at, y: 20, width: w, height: 7, fill: color(k), class: 'mix' }));
      at += w;
    });
    g.append(svg('text', { x: BOX_W / 2, y: 37, 'text-anchor': 'middle', class: 'box-sub' }, `n = ${count(node.n)}`));
    if (node.condition)
      g.append(
        svg('text', { x: BOX_W / 2, y: -5, class: 'edge-label', 'text-anchor': 'middle' }, clip(node.condition, 22)),
      );
    g.append(
      svg(
        'title',
        {},
        `${node.condition || 'root'}\n${node.counts.map((c, k) => `${tree.classes[k]}: ${count(c)}`).join(', ')}`,
      ),
    );
  };

  const showDetail = () => {
    if (!root.isConnected) return;
    const r = root.getBoundingClientRect();
    const view = root.viewBox.baseVal;
    if (r.width === 0 || view.width === 0) return;
    // preserveAspectRatio meet: the larger of the two ratios is the drawing's units per pixel.
    const perPx = Math.max(view.width / r.width, view.height / r.height);
    if (BOX_W / perPx < LEGIBLE_PX) return;
    let done = 0;
    for (let id = 0; id < nodes.length && done < DETAIL_BATCH; id++) {
      if (detailed[id]) continue;
      const left = px(id) - BOX_W / 2;
      const top = py(id);
      if (
        left + BOX_W < view.x ||
        left > view.x + view.width ||
        top + BOX_H < view.y ||
        top - 12 > view.y + view.height
      )
        continue;
      detail(id);
      done++;
    }
  };
  if (nodes.length <= DETAIL_ALL) for (let id = 0; id < nodes.length; id++) detail(id);

  const picked = (e: Event) => {
    const g = (e.target as Element).closest('g.node');
    if (g) onPick(Number(g.getAttribute('data-node')));
  };
  boxes.addEventListener('click', picked);
  boxes.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      picked(e);
    }
  });
  boxes.addEventListener('focusin', (e) => {
    const g = (e.target as Element).closest('g.node');
    if (g) detail(Number(g.getAttribute('data-node')));
  });
  return { svg: root, nodes: groups, width, height, showDetail };
}

/** What a node's box says: its split, or its leaf's class (or unclassified region). */
function nodeTitle(tree: TreeView, id: number): string {
  const node = tree.nodes[id];
  return node.children ? node.splitText! : (node.unclassified ?? `${tree.classes[majority(node.counts)]}`);
}
