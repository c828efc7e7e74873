/** Where the explorer draws each node, and how keys and clicks find a node in the drawing. */
import type { TreeView } from './tree-view.js';

/** A node's box and the drawing's spacing, in the drawing's units. */
export const BOX_W = 124;
export const BOX_H = 40;
const GAP_X = 14;
const LEVEL_H = 78;

/** Keys that move between nodes. */
export const NAV_KEYS = new Set(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home']);

/** Where the nodes sit in the drawing's units: a box's left and top edge, and the drawing's size. */
export interface Geometry {
  /** Each node's x in leaf slots (`layout`, computed in the worker). */
  x: Float64Array;
  width: number;
  height: number;
  left(id: number): number;
  top(id: number): number;
}

export function geometry(tree: TreeView): Geometry {
  const { size, firstChild, depth, x } = tree.nodes;
  let leaves = 0;
  for (let id = 0; id < size; id++) if (firstChild[id] < 0) leaves++;
  return {
    x,
    width: Math.max(1, leaves) * (BOX_W + GAP_X) + GAP_X,
    height: (tree.stats.height + 1) * LEVEL_H + 10,
    left: (id: number) => GAP_X + x[id] * (BOX_W + GAP_X),
    top: (id: number) => 8 + depth[id] * LEVEL_H,
  };
}

/** The nodes of each depth, left to right, and each node's place in its depth's list. */
export interface Levels {
  byDepth: number[][];
  place: Int32Array;
}

export function levels(tree: TreeView, x: Float64Array): Levels {
  const { size, depth } = tree.nodes;
  const byDepth: number[][] = [];
  for (let id = 0; id < size; id++) (byDepth[depth[id]] ??= []).push(id);
  for (const ids of byDepth) ids?.sort((a, b) => x[a] - x[b]);
  const place = new Int32Array(size);
  for (const ids of byDepth) ids?.forEach((id, i) => (place[id] = i));
  return { byDepth, place };
}

/** The node a navigation key moves to from `id` (undefined: none that way). */
export function step(tree: TreeView, { byDepth, place }: Levels, id: number, key: string): number | undefined {
  const { parent, firstChild, depth } = tree.nodes;
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
}

/** The node clicked: a box, or a light rectangle (found by position: depth by y, then the box by x). */
export function nodeAt(e: MouseEvent, root: SVGSVGElement, geo: Geometry, { byDepth }: Levels): number | undefined {
  const g = (e.target as Element).closest('g.node');
  if (g) return Number(g.getAttribute('data-node'));
  const ctm = root.getScreenCTM();
  if (!ctm) return undefined;
  const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(ctm.inverse());
  const depth = Math.floor((p.y - 8) / LEVEL_H);
  if (p.y - 8 - depth * LEVEL_H > BOX_H) return undefined;
  return byDepth[depth]?.find((id) => p.x >= geo.left(id) && p.x <= geo.left(id) + BOX_W);
}
