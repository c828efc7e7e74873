import { color } from '../report/html.js';
import { clip, count, svg } from './dom.js';
import { conditionOf, countsOf, splitOf, splitTextOf, type TreeView, unclassifiedOf } from './tree-view.js';
import type { Area } from './zoom.js';

const BOX_W = 124;
const BOX_H = 40;
const GAP_X = 14;
const LEVEL_H = 78;

/**
 * x (leaf slots) of every node: leaves in depth-first order one slot apart, an inner node centred
 * over its first and last child. Iterative (no recursion over the tree's depth).
 */
export function layout(tree: TreeView): Float64Array {
  const { size, firstChild, branches } = tree.nodes;
  const x = new Float64Array(size);
  let next = 0;
  // Pre-order visit to place leaves, then children before parents (ids grow downwards) to centre.
  const stack = [0];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (firstChild[id] < 0) x[id] = next++;
    else for (let b = branches[id] - 1; b >= 0; b--) stack.push(firstChild[id] + b);
  }
  const order: number[] = [];
  const walk = [0];
  while (walk.length > 0) {
    const id = walk.pop()!;
    order.push(id);
    for (let b = 0; b < branches[id]; b++) walk.push(firstChild[id] + b);
  }
  for (let i = order.length - 1; i >= 0; i--) {
    const id = order[i];
    if (firstChild[id] >= 0) x[id] = (x[firstChild[id]] + x[firstChild[id] + branches[id] - 1]) / 2;
  }
  return x;
}

/** The class of largest weight at node `id` (the first on a tie). */
function majority(tree: TreeView, id: number): number {
  const k = tree.classes.length;
  const counts = tree.nodes.counts;
  let b = 0;
  for (let c = 1; c < k; c++) if (counts[id * k + c] > counts[id * k + b]) b = c;
  return b;
}

/** The marks page.ts puts on nodes (each a CSS class of the node's group). */
export type NodeMark = 'selected' | 'disagree' | 'on-path';

/** The drawn tree: its SVG, and what the page does to it. */
export interface DrawnTree {
  svg: SVGSVGElement;
  width: number;
  height: number;
  /** Give the nodes in view their box of text, when they are large enough to read (call after a zoom or pan). */
  showDetail(): void;
  /** Mark exactly the nodes `ids` with `mark` (their boxes are made if they were not). */
  mark(mark: NodeMark, ids: Iterable<number>): void;
}

/** Keys that move between nodes. */
const NAV_KEYS = new Set(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home']);

/** Trees up to this many nodes get every node's box at once; larger ones only where zoomed in. */
const BOX_ALL = 400;
/** Below this many pixels a box's text cannot be read: it is not made. */
const LEGIBLE_PX = 60;
/** The most boxes made in one pass. */
const BOX_BATCH = 800;

/**
 * The tree as SVG: a box per node with the split (or the leaf's class), a bar of its class mix
 * whose length grows with the rows reaching it, and each branch's condition above the box. Boxes
 * are the items of an ARIA tree (`g.node`, `data-node`, `aria-label` with the split and the row
 * count); `onPick` runs on click, Enter or Space.
 *
 * Keyboard: the tree is one tab stop (a roving tabindex, starting at the root); from a node the
 * arrows move to its parent (up), its first child (down) and its neighbours at the same depth
 * (left, right), Home to the root. The node moved to gets its box even in a light drawing, and
 * `reveal` brings it into view at a legible size, so every node is reachable at any tree size.
 *
 * A tree of thousands of nodes would take longer to build, lay out and paint than to grow, and
 * its text is unreadable until zoomed in. So every node is first drawn light, as a rectangle in
 * its majority class's colour (one path per class, one path for all edges; a click on one is
 * found by position), and gets its box of text only when it is in view at a legible size
 * (`showDetail`), or marked. Trees up to `BOX_ALL` nodes get every box at once.
 */
export function drawTree(
  tree: TreeView,
  onPick: (id: number) => void,
  reveal: (area: Area, minPx: number) => void,
): DrawnTree {
  const x = layout(tree);
  const nodes = tree.nodes;
  const { size, firstChild, branches, depth, parent } = nodes;
  let leaves = 0;
  for (let id = 0; id < size; id++) if (firstChild[id] < 0) leaves++;
  const width = Math.max(1, leaves) * (BOX_W + GAP_X) + GAP_X;
  const height = (tree.stats.height + 1) * LEVEL_H + 10;
  const total = nodes.n[0] || 1;
  const left = (id: number) => GAP_X + x[id] * (BOX_W + GAP_X);
  const top = (id: number) => 8 + depth[id] * LEVEL_H;
  const root = svg('svg', {
    class: 'tree-svg',
    viewBox: `0 0 ${width} ${height}`,
    role: 'tree',
    'aria-label': `tree of ${tree.stats.nodes} nodes`,
  });
  const curves: string[] = [];
  const shapes = tree.classes.map((): string[] => []);
  for (let id = 0; id < size; id++) {
    const cx = left(id) + BOX_W / 2;
    const y = top(id);
    for (let b = 0; b < branches[id]; b++) {
      const child = firstChild[id] + b;
      const x2 = left(child) + BOX_W / 2;
      const y2 = top(child);
      const mid = (y + BOX_H + y2) / 2;
      curves.push(`M${cx},${y + BOX_H}C${cx},${mid} ${x2},${mid} ${x2},${y2}`);
    }
    shapes[majority(tree, id)].push(`M${left(id)},${y}h${BOX_W}v${BOX_H}h${-BOX_W}z`);
  }
  const light = svg('g', { class: 'light', 'aria-hidden': 'true' });
  shapes.forEach(
    (d, k) => d.length && light.append(svg('path', { d: d.join(''), fill: color(k), class: 'light-box' })),
  );
  const boxes = svg('g', { class: 'boxes' });
  root.append(svg('path', { d: curves.join(''), class: 'edge' }), light, boxes);

  const made = new Map<number, SVGGElement>();
  const marks = new Map<NodeMark, Set<number>>();
  /** What a node's focus does (set below, with the keyboard's other handlers). */
  let focused = (_id: number): void => undefined;
  /** The node that takes the tree's tab stop (roving tabindex). */
  let current = 0;
  /** A node's place among its siblings, for assistive technology (boxes are made lazily). */
  const siblingPosition = (id: number): Record<string, number> => {
    const p = parent[id];
    return p >= 0
      ? { 'aria-setsize': branches[p], 'aria-posinset': id - firstChild[p] + 1 }
      : { 'aria-setsize': 1, 'aria-posinset': 1 };
  };
  /** Node `id`'s box: text, class mix and tooltip, made once. */
  const box = (id: number): SVGGElement => {
    const have = made.get(id);
    if (have) return have;
    const inner = firstChild[id] >= 0;
    const n = nodes.n[id];
    const counts = countsOf(tree, id);
    const condition = conditionOf(tree, id);
    const title = nodeTitle(tree, id);
    const g = svg('g', {
      class: inner ? 'node inner' : 'node leaf',
      'data-node': id,
      tabindex: id === current ? 0 : -1,
      role: 'treeitem',
      'aria-level': depth[id] + 1,
      ...(inner ? { 'aria-expanded': 'true' } : {}),
      ...siblingPosition(id),
      transform: `translate(${left(id)},${top(id)})`,
      'aria-label': `node ${id}${condition ? `, ${condition}` : ''}: ${inner ? `split ${title}` : `leaf ${title}`}, ${count(n)} rows`,
    });
    // The split as data, for tests and for anyone reading the page's DOM.
    if (inner) g.setAttribute('data-split', JSON.stringify(splitOf(tree, id)));
    g.append(
      svg('rect', { width: BOX_W, height: BOX_H, rx: 5, class: 'box' }),
      svg('text', { x: BOX_W / 2, y: 14, 'text-anchor': 'middle', class: 'box-title' }, clip(title, 21)),
    );
    // Class mix: one stacked bar, its length ∝ √(rows at the node / rows at the root).
    const barW = Math.max(4, (BOX_W - 8) * Math.sqrt(n / total));
    const sum = counts.reduce((a, b) => a + b, 0) || 1;
    let at = (BOX_W - barW) / 2;
    counts.forEach((c, k) => {
      if (c <= 0) return;
      const w = (barW * c) / sum;
      g.append(svg('rect', { x: at, y: 20, width: w, height: 7, fill: color(k), class: 'mix' }));
      at += w;
    });
    g.append(svg('text', { x: BOX_W / 2, y: 37, 'text-anchor': 'middle', class: 'box-sub' }, `n = ${count(n)}`));
    if (condition)
      g.append(svg('text', { x: BOX_W / 2, y: -5, class: 'edge-label', 'text-anchor': 'middle' }, clip(condition, 22)));
    g.append(
      svg('title', {}, `${condition || 'root'}\n${counts.map((c, k) => `${tree.classes[k]}: ${count(c)}`).join(', ')}`),
    );
    for (const [m, ids] of marks) if (ids.has(id)) g.classList.add(m);
    if (marks.get('selected')?.has(id)) g.setAttribute('aria-selected', 'true');
    // On each node, not on their group: Chromium makes an SVG element with a focus listener focusable.
    g.addEventListener('focus', () => focused(id));
    made.set(id, g);
    boxes.append(g);
    return g;
  };

  const showDetail = () => {
    if (!root.isConnected || made.size === size) return;
    const r = root.getBoundingClientRect();
    const view = root.viewBox.baseVal;
    if (r.width === 0 || view.width === 0) return;
    // preserveAspectRatio meet: the larger of the two ratios is the drawing's units per pixel.
    const perPx = Math.max(view.width / r.width, view.height / r.height);
    if (BOX_W / perPx < LEGIBLE_PX) return;
    let done = 0;
    for (let id = 0; id < size && done < BOX_BATCH; id++) {
      if (made.has(id)) continue;
      const l = left(id);
      const t = top(id);
      if (l + BOX_W < view.x || l > view.x + view.width || t + BOX_H < view.y || t - 12 > view.y + view.height)
        continue;
      box(id);
      done++;
    }
  };
  if (size <= BOX_ALL) for (let id = 0; id < size; id++) box(id);

  const mark = (m: NodeMark, ids: Iterable<number>) => {
    for (const id of marks.get(m) ?? []) {
      made.get(id)?.classList.remove(m);
      if (m === 'selected') made.get(id)?.removeAttribute('aria-selected');
    }
    const now = new Set(ids);
    marks.set(m, now);
    for (const id of now) {
      box(id).classList.add(m);
      if (m === 'selected') box(id).setAttribute('aria-selected', 'true');
    }
  };

  // Clicks on a box, or on a light rectangle (found by position: depth by y, then the box by x).
  const byDepth: number[][] = [];
  for (let id = 0; id < size; id++) (byDepth[depth[id]] ??= []).push(id);
  const at = (e: MouseEvent): number | undefined => {
    const g = (e.target as Element).closest('g.node');
    if (g) return Number(g.getAttribute('data-node'));
    const ctm = root.getScreenCTM();
    if (!ctm) return undefined;
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(ctm.inverse());
    const depth = Math.floor((p.y - 8) / LEVEL_H);
    if (p.y - 8 - depth * LEVEL_H > BOX_H) return undefined;
    return byDepth[depth]?.find((id) => p.x >= left(id) && p.x <= left(id) + BOX_W);
  };
  root.addEventListener('click', (e) => {
    const id = at(e);
    if (id === undefined) return;
    rove(id);
    onPick(id);
  });

  /** Make `id` the tree's tab stop. */
  const rove = (id: number) => {
    made.get(current)?.setAttribute('tabindex', '-1');
    current = id;
    box(id).setAttribute('tabindex', '0');
  };
  /** Bring `id` into view, legible, with its branch's condition above it. */
  const show = (id: number) => reveal({ x: left(id), y: top(id) - 14, w: BOX_W, h: BOX_H + 14 }, LEGIBLE_PX * 1.5);
  const go = (id: number) => {
    rove(id);
    show(id);
    box(id).focus();
  };
  // A node reached by Tab is shown as one moved to by arrows; one clicked is not (the view stays put).
  let pointer = false;
  // (A pointer focuses on its down; its up ends what it may have focused.)
  root.addEventListener('pointerdown', () => (pointer = true));
  for (const type of ['pointerup', 'pointercancel']) root.addEventListener(type, () => (pointer = false));
  focused = (id: number) => {
    if (id !== current) rove(id);
    if (!pointer) show(id);
    pointer = false;
  };
  for (const ids of byDepth) ids?.sort((a, b) => x[a] - x[b]);
  const place = new Int32Array(size);
  for (const ids of byDepth) ids?.forEach((id, i) => (place[id] = i));
  const step = (id: number, key: string): number | undefined => {
    const level = byDepth[depth[id]];
    switch (key) {
      case 'ArrowUp':
        return parent[id] >= 0 ? parent[id] : undefined;
      case 'ArrowDown':
        return firstChild[id] >= 0 ? firstChild[id] : undefined;
      case 'ArrowLeft':
        return level[place[id] - 1];
      case 'ArrowRight':
        return level[place[id] + 1];
      case 'Home':
        return 0;
    }
    return undefined;
  };
  boxes.addEventListener('keydown', (e) => {
    const g = (e.target as Element).closest('g.node');
    if (!g) return;
    const id = Number(g.getAttribute('data-node'));
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      onPick(id);
      return;
    }
    if (!NAV_KEYS.has(e.key)) return;
    e.preventDefault();
    const to = step(id, e.key);
    if (to !== undefined) go(to);
  });
  // The tab stop exists from the start, even in a light drawing.
  box(current);
  return { svg: root, width, height, showDetail, mark };
}

/** What a node's box says: its split, or its leaf's class (or unclassified region). */
function nodeTitle(tree: TreeView, id: number): string {
  return splitTextOf(tree, id) ?? unclassifiedOf(tree, id) ?? `${tree.classes[majority(tree, id)]}`;
}
