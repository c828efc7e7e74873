import { disagreementText, firstDisagreements } from './disagree.js';
import { type DrawnTree, drawTree } from './tree-svg.js';
import { childrenOf, splitOf, type TreeView } from './tree-view.js';
import { type Zoomable, zoomable } from './zoom.js';

/** Draw tree `v` zoomable into `holder` (focus inside it stays in the pane); the drawn tree. */
export function drawInPane(holder: HTMLElement, v: TreeView, onPick: Parameters<typeof drawTree>[1]): DrawnTree {
  let zoom: Zoomable | undefined;
  const d = drawTree(v, onPick, (area, minPx) => zoom?.reveal(area, minPx));
  zoom = zoomable(d.svg, d.width, d.height, d.showDetail);
  const hadFocus = holder.contains(document.activeElement);
  holder.replaceChildren(zoom.element);
  if (hadFocus) zoom.element.focus();
  d.showDetail();
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
