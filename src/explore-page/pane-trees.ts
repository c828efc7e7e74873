import { disagreementText, firstDisagreements } from './disagree.js';
import { measured } from './page-status.js';
import { type DrawnTree, drawTree } from './tree-svg.js';
import { childrenOf, splitOf, type TreeView } from './tree-view.js';
import { type Zoomable, zoomable } from './zoom.js';

/** Draw tree `v` zoomable into `holder` (focus inside it stays in the pane); the drawn tree. */
export function drawInPane(holder: HTMLElement, v: TreeView, onPick: Parameters<typeof drawTree>[1]): DrawnTree {
  let zoom: Zoomable | undefined;
  // Each step is measured: the benchmarks name the steps a long task overlaps.
  const d = measured('tree layout, first nodes', () => drawTree(v, onPick, (area, minPx) => zoom?.reveal(area, minPx)));
  zoom = zoomable(d.svg, d.width, d.height, d.showDetail);
  const hadFocus = holder.contains(document.activeElement);
  measured('tree put in the page', () => holder.replaceChildren(zoom.element));
  if (hadFocus) zoom.element.focus();
  // Once every node is drawn, in a task of its own: it reads the drawing's size, which lays the page out.
  void d.light.then(() => measured('tree boxes in view', () => d.showDetail()));
  return d;
}

/**
 * Mark where trees `a` and `b` first disagree in their drawings and say so in `out`; with no pair
 * to compare (`a` or `b` absent), clear both.
 */
export function markDisagreements(
  drawn: ReadonlyMap<string, DrawnTree>,
  a: TreeView | undefined,
  b: TreeView | undefined,
  out: HTMLElement,
): void {
  for (const d of drawn.values()) d.mark('disagree', []);
  if (!a || !b) {
    out.textContent = '';
    return;
  }
  const nodeOf = (v: TreeView) => (id: number) => ({ split: splitOf(v, id), children: childrenOf(v, id) });
  const [na, nb] = firstDisagreements(nodeOf(a), nodeOf(b));
  drawn.get('a')?.mark('disagree', na);
  drawn.get('b')?.mark('disagree', nb);
  out.textContent = disagreementText(na, nb);
}
