import { color } from '../report/html.js';
import { clip, count, svg } from './dom.js';
import { measured } from './page-status.js';
import { BOX_H, BOX_W, type Geometry, geometry, type Levels, levels, NAV_KEYS, nodeAt, step } from './tree-geometry.js';
import { conditionOf, countsOf, splitOf, splitTextOf, type TreeView, unclassifiedOf } from './tree-view.js';
import type { Area } from './zoom.js';

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
  /** Resolves when every node is drawn, light (and boxed, in a small tree), over several tasks. */
  light: Promise<void>;
}

/** Trees up to this many nodes get every node's box at once; larger ones only where zoomed in. */
const BOX_ALL = 400;
/** Boxes made in one task when a tree gets them all (the frame after it lays out their text). */
const BOX_CHUNK = 50;
/** Below this many pixels a box's text cannot be read: it is not made. */
const LEGIBLE_PX = 60;
/** The most boxes made in one pass. */
const BOX_BATCH = 800;

/** Nodes whose light drawing is made in one task: more are drawn in later tasks. */
const LIGHT_CHUNK = 500;
/** The first task's nodes: it also lays the tree out and puts it in the page. */
const FIRST_LIGHT = 100;

/**
 * The light drawing of nodes `from` to `to` (ids) into `edges` and `light`: their edges to their
 * children as one path, and each node as a rectangle in its majority class's colour (one path per class).
 */
function lightChunk(tree: TreeView, geo: Geometry, from: number, to: number, edges: SVGGElement, light: SVGGElement) {
  const { firstChild, branches } = tree.nodes;
  const { left, top } = geo;
  const curves: string[] = [];
  const shapes = tree.classes.map((): string[] => []);
  for (let id = from; id < to; id++) {
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
  if (curves.length) edges.append(svg('path', { d: curves.join(''), class: 'edge' }));
  shapes.forEach(
    (d, k) => d.length && light.append(svg('path', { d: d.join(''), fill: color(k), class: 'light-box' })),
  );
}

/**
 * Run `steps` one per task, the first now (so a large drawing never holds the page's thread for
 * long), while `root` is in the page (a newer drawing may replace it); resolves when all have run
 * or `root` left the page, and says which in `root`'s `data-drawn` (`all`, `dropped`).
 */
function stepByStep(root: SVGSVGElement, steps: readonly (() => void)[]): Promise<void> {
  steps[0]?.();
  return new Promise<void>((done) => {
    const next = (i: number) => {
      if (i >= steps.length || !root.isConnected) {
        root.dataset.drawn = i >= steps.length ? 'all' : 'dropped';
        done();
        return;
      }
      measured('tree nodes drawn', steps[i]);
      setTimeout(() => next(i + 1), 0);
    };
    // The second step once the caller has put the drawing in the page.
    setTimeout(() => next(1), 0);
  });
}

/** `size` ids in ranges of `chunk` (the first of `first`), as [from, to) pairs. */
function ranges(size: number, chunk: number, first = chunk): [number, number][] {
  const out: [number, number][] = [];
  for (let from = 0; from < size; ) {
    const to = Math.min(size, from + (out.length ? chunk : first));
    out.push([from, to]);
    from = to;
  }
  return out;
}

/** A node's place among its siblings, for assistive technology (boxes are made lazily). */
function siblingPosition(tree: TreeView, id: number): Record<string, number> {
  const { parent, branches, firstChild } = tree.nodes;
  const p = parent[id];
  return p >= 0
    ? { 'aria-setsize': branches[p], 'aria-posinset': id - firstChild[p] + 1 }
    : { 'aria-setsize': 1, 'aria-posinset': 1 };
}

/** Node `id`'s box: text, class mix and tooltip; `tabStop`: it holds the tree's tab stop. */
function nodeBox(tree: TreeView, geo: Geometry, id: number, tabStop: boolean): SVGGElement {
  const inner = tree.nodes.firstChild[id] >= 0;
  const n = tree.nodes.n[id];
  const counts = countsOf(tree, id);
  const condition = conditionOf(tree, id);
  const title = nodeTitle(tree, id);
  const what = inner ? `split ${title}` : `leaf ${title}`;
  const g = svg('g', {
    class: inner ? 'node inner' : 'node leaf',
    'data-node': id,
    tabindex: tabStop ? 0 : -1,
    role: 'treeitem',
    'aria-level': tree.nodes.depth[id] + 1,
    ...(inner ? { 'aria-expanded': 'true' } : {}),
    ...siblingPosition(tree, id),
    transform: `translate(${geo.left(id)},${geo.top(id)})`,
    'aria-label': `node ${id}${condition ? `, ${condition}` : ''}: ${what}, ${count(n)} rows`,
  });
  // The split as data, for tests and for anyone reading the page's DOM.
  if (inner) g.setAttribute('data-split', JSON.stringify(splitOf(tree, id)));
  g.append(
    svg('rect', { width: BOX_W, height: BOX_H, rx: 5, class: 'box' }),
    svg('text', { x: BOX_W / 2, y: 14, 'text-anchor': 'middle', class: 'box-title' }, clip(title, 21)),
  );
  classMix(g, counts, n / (tree.nodes.n[0] || 1));
  g.append(svg('text', { x: BOX_W / 2, y: 37, 'text-anchor': 'middle', class: 'box-sub' }, `n = ${count(n)}`));
  if (condition)
    g.append(svg('text', { x: BOX_W / 2, y: -5, class: 'edge-label', 'text-anchor': 'middle' }, clip(condition, 22)));
  g.append(
    svg('title', {}, `${condition || 'root'}\n${counts.map((c, k) => `${tree.classes[k]}: ${count(c)}`).join(', ')}`),
  );
  return g;
}

/** Class mix: one stacked bar in `g`, its length ∝ √`share` (rows at the node / rows at the root). */
function classMix(g: SVGGElement, counts: number[], share: number): void {
  const barW = Math.max(4, (BOX_W - 8) * Math.sqrt(share));
  const sum = counts.reduce((a, b) => a + b, 0) || 1;
  let at = (BOX_W - barW) / 2;
  counts.forEach((c, k) => {
    if (c <= 0) return;
    const w = (barW * c) / sum;
    g.append(svg('rect', { x: at, y: 20, width: w, height: 7, fill: color(k), class: 'mix' }));
    at += w;
  });
}

/**
 * The nodes without a box (`made`) in the part of the drawing in view, at most `BOX_BATCH` of
 * them; none when boxes there would be too small to read.
 */
function unmadeInView(root: SVGSVGElement, geo: Geometry, size: number, made: Map<number, unknown>): number[] {
  const r = root.getBoundingClientRect();
  const view = root.viewBox.baseVal;
  if (r.width === 0 || view.width === 0) return [];
  // preserveAspectRatio meet: the larger of the two ratios is the drawing's units per pixel.
  const perPx = Math.max(view.width / r.width, view.height / r.height);
  if (BOX_W / perPx < LEGIBLE_PX) return [];
  const ids: number[] = [];
  for (let id = 0; id < size && ids.length < BOX_BATCH; id++) {
    if (made.has(id)) continue;
    const l = geo.left(id);
    const t = geo.top(id);
    if (l + BOX_W < view.x || l > view.x + view.width || t + BOX_H < view.y || t - 12 > view.y + view.height) continue;
    ids.push(id);
  }
  return ids;
}

/** A drawing's boxes, each made once when first needed, with their marks and the tree's tab stop. */
class NodeBoxes {
  readonly made = new Map<number, SVGGElement>();
  private readonly marks = new Map<NodeMark, Set<number>>();
  /** The node that takes the tree's tab stop (roving tabindex). */
  current = 0;
  /** What a node's focus does (set with the keyboard's other handlers). */
  focused = (_id: number): void => undefined;

  constructor(
    private readonly tree: TreeView,
    private readonly geo: Geometry,
    readonly group: SVGGElement,
  ) {}

  /** Node `id`'s box, made once, with its marks. */
  get(id: number): SVGGElement {
    const have = this.made.get(id);
    if (have) return have;
    const g = nodeBox(this.tree, this.geo, id, id === this.current);
    for (const [m, ids] of this.marks) if (ids.has(id)) g.classList.add(m);
    if (this.marks.get('selected')?.has(id)) g.setAttribute('aria-selected', 'true');
    // On each node, not on their group: Chromium makes an SVG element with a focus listener focusable.
    g.addEventListener('focus', () => this.focused(id));
    this.made.set(id, g);
    this.group.append(g);
    return g;
  }

  /** Mark exactly the nodes `ids` with `m`. */
  mark(m: NodeMark, ids: Iterable<number>): void {
    for (const id of this.marks.get(m) ?? []) {
      this.made.get(id)?.classList.remove(m);
      if (m === 'selected') this.made.get(id)?.removeAttribute('aria-selected');
    }
    const now = new Set(ids);
    this.marks.set(m, now);
    for (const id of now) {
      this.get(id).classList.add(m);
      if (m === 'selected') this.get(id).setAttribute('aria-selected', 'true');
    }
  }

  /** Make `id` the tree's tab stop. */
  rove(id: number): void {
    this.made.get(this.current)?.setAttribute('tabindex', '-1');
    this.current = id;
    this.get(id).setAttribute('tabindex', '0');
  }
}

/**
 * Clicks, focus and keys on the drawing `root`: a node clicked, or Enter or Space on it, is
 * picked (`onPick`); a node focused by Tab or moved to by the keys takes the tab stop and is
 * brought into view (`reveal`).
 */
function listen(
  tree: TreeView,
  geo: Geometry,
  root: SVGSVGElement,
  boxes: NodeBoxes,
  onPick: (id: number) => void,
  reveal: (area: Area, minPx: number) => void,
): void {
  // Made on the first click or key: sorting every depth's nodes is work a drawing may never need.
  let made: Levels | undefined;
  const where = () => (made ??= levels(tree, geo.x));
  root.addEventListener('click', (e) => {
    const id = nodeAt(e, root, geo, where());
    if (id === undefined) return;
    boxes.rove(id);
    onPick(id);
  });
  /** Bring `id` into view, legible, with its branch's condition above it. */
  const show = (id: number) =>
    reveal({ x: geo.left(id), y: geo.top(id) - 14, w: BOX_W, h: BOX_H + 14 }, LEGIBLE_PX * 1.5);
  // A node reached by Tab is shown as one moved to by arrows; one clicked is not (the view stays put).
  let pointer = false;
  // (A pointer focuses on its down; its up ends what it may have focused.)
  root.addEventListener('pointerdown', () => (pointer = true));
  for (const type of ['pointerup', 'pointercancel']) root.addEventListener(type, () => (pointer = false));
  boxes.focused = (id: number) => {
    if (id !== boxes.current) boxes.rove(id);
    if (!pointer) show(id);
    pointer = false;
  };
  boxes.group.addEventListener('keydown', (e) => {
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
    const to = step(tree, where(), id, e.key);
    if (to === undefined) return;
    boxes.rove(to);
    show(to);
    boxes.get(to).focus();
  });
}

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
 * its majority class's colour (a path per class and one for the edges, per chunk of
 * `LIGHT_CHUNK` nodes, the first `FIRST_LIGHT`, each chunk in its own task; a click on one is
 * found by position), and gets its box of text only when it is in view at a legible size
 * (`showDetail`), or marked. Trees up to `BOX_ALL` nodes get every box, `BOX_CHUNK` per task.
 */
export function drawTree(
  tree: TreeView,
  onPick: (id: number) => void,
  reveal: (area: Area, minPx: number) => void,
): DrawnTree {
  const geo = geometry(tree);
  const { width, height } = geo;
  const size = tree.nodes.size;
  const root = svg('svg', {
    class: 'tree-svg',
    viewBox: `0 0 ${width} ${height}`,
    role: 'tree',
    'aria-label': `tree of ${tree.stats.nodes} nodes`,
  });
  const group = svg('g', { class: 'boxes' });
  const edges = svg('g', { class: 'edges' });
  const lightBoxes = svg('g', { class: 'light', 'aria-hidden': 'true' });
  root.append(edges, lightBoxes, group);

  const boxes = new NodeBoxes(tree, geo, group);
  const showDetail = () => {
    if (!root.isConnected || boxes.made.size === size) return;
    for (const id of unmadeInView(root, geo, size, boxes.made)) boxes.get(id);
  };
  // Every node light, then (a small tree) every box, a chunk per task.
  const steps = ranges(size, LIGHT_CHUNK, FIRST_LIGHT).map(
    ([from, to]) =>
      () =>
        lightChunk(tree, geo, from, to, edges, lightBoxes),
  );
  if (size <= BOX_ALL)
    for (const [from, to] of ranges(size, BOX_CHUNK))
      steps.push(() => {
        for (let id = from; id < to; id++) boxes.get(id);
      });
  const light = stepByStep(root, steps);
  listen(tree, geo, root, boxes, onPick, reveal);
  // The tab stop exists from the start, even in a light drawing.
  boxes.get(boxes.current);
  const mark = (m: NodeMark, ids: Iterable<number>) => boxes.mark(m, ids);
  return { svg: root, width, height, showDetail, mark, light };
}

/** What a node's box says: its split, or its leaf's class (or unclassified region). */
function nodeTitle(tree: TreeView, id: number): string {
  return splitTextOf(tree, id) ?? unclassifiedOf(tree, id) ?? `${tree.classes[majority(tree, id)]}`;
}
