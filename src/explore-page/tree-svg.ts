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
}

/** One node's group, cloned per node (cheaper than building each from scratch). */
function nodeTemplate(): SVGGElement {
  const g = svg('g', { tabindex: 0, role: 'button' });
  g.append(
    svg('rect', { width: BOX_W, height: BOX_H, rx: 5, class: 'box' }),
    svg('text', { x: BOX_W / 2, y: 14, 'text-anchor': 'middle', class: 'box-title' }),
    svg('text', { x: BOX_W / 2, y: 37, 'text-anchor': 'middle', class: 'box-sub' }),
    svg('title'),
  );
  return g;
}

/**
 * The tree as SVG: a box per node with the split (or the leaf's class), a bar of its class mix
 * whose length grows with the rows reaching it, and each branch's condition on the edge. Node
 * groups are focusable buttons (`data-node`); `onPick` runs on click, Enter or Space. Built for
 * trees of thousands of nodes: one path holds every edge, node groups are clones of one template,
 * and one listener serves them all.
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
  const edges = svg('g', { class: 'edges' });
  const boxes = svg('g', { class: 'boxes' });
  root.append(edges, boxes);
  const curves: string[] = [];
  const labels = document.createDocumentFragment();
  const template = nodeTemplate();
  const groups: SVGGElement[] = [];
  nodes.forEach((node, id) => {
    const cx = px(id);
    const top = py(id);
    for (const child of node.children ?? []) {
      const x2 = px(child);
      const y2 = py(child);
      const mid = (top + BOX_H + y2) / 2;
      curves.push(`M${cx},${top + BOX_H}C${cx},${mid} ${x2},${mid} ${x2},${y2}`);
      labels.append(
        svg(
          'text',
          { x: x2, y: y2 - 5, class: 'edge-label', 'text-anchor': 'middle' },
          clip(nodes[child].condition, 22),
        ),
      );
    }
    const m = majority(node.counts);
    const g = template.cloneNode(true) as SVGGElement;
    g.setAttribute('class', node.children ? 'node inner' : 'node leaf');
    g.setAttribute('data-node', String(id));
    g.setAttribute('transform', `translate(${cx - BOX_W / 2},${top})`);
    // The split as data, for tests and for anyone reading the page's DOM.
    if (node.split) g.setAttribute('data-split', JSON.stringify(node.split));
    const title = node.children ? node.splitText! : (node.unclassified ?? `${tree.classes[m]}`);
    g.setAttribute(
      'aria-label',
      `node ${id}${node.condition ? `, ${node.condition}` : ''}: ${node.children ? `split ${title}` : `leaf ${title}`}, ${count(node.n)} rows`,
    );
    const [, head, sub, tip] = g.children;
    head.textContent = clip(title, 21);
    sub.textContent = `n = ${count(node.n)}`;
    tip.textContent = `${node.condition || 'root'}\n${node.counts.map((c, k) => `${tree.classes[k]}: ${count(c)}`).join(', ')}`;
    // Class mix: one stacked bar, its length ∝ √(rows at the node / rows at the root).
    const barW = Math.max(4, (BOX_W - 8) * Math.sqrt(node.n / total));
    const sum = node.counts.reduce((a, b) => a + b, 0) || 1;
    let at = (BOX_W - barW) / 2;
    node.counts.forEach((c, k) => {
      if (c <= 0) return;
      const w = (barW * c) / sum;
      sub.before(svg('rect', { x: at, y: 20, width: w, height: 7, fill: color(k), class: 'mix' }));
      at += w;
    });
    boxes.append(g);
    groups.push(g);
  });
  edges.append(svg('path', { d: curves.join(''), class: 'edge' }), labels);
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
  return { svg: root, nodes: groups, width, height };
}
