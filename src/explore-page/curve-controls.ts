/** The node panel's chart of the measure against a numeric feature's threshold, and its feature picker. */
import { curveChart } from './chart.js';
import { el } from './dom.js';
import type { ThresholdCurve } from './node-detail.js';
import { $, report } from './page-status.js';
import type { NodeDetail, Request, Slot } from './protocol.js';
import { splitOf, type TreeView } from './tree-view.js';

/**
 * Below node `node`'s panel: a picker of the numeric features and the chart of the measure against
 * the threshold on the one picked (asked of the worker through `call`), the node's own split's
 * feature first. Nothing when there is no numeric feature or the node has no rows.
 */
export function curveControls(
  slot: Slot,
  v: TreeView,
  node: number,
  detail: NodeDetail,
  call: <T>(req: Request) => Promise<T>,
): void {
  const numeric = v.features.map((f, i) => [f, i] as const).filter(([f]) => f.kind === 'numeric');
  if (numeric.length === 0 || detail.rows.length === 0) return;
  const panel = $('node-body');
  const box = el('div', { class: 'curve-box' });
  const label = el('label', { for: 'curve-feature' }, `${v.criterion} against the threshold on `);
  const sel = el('select', { id: 'curve-feature' });
  for (const [f, i] of numeric) sel.append(el('option', { value: String(i) }, f.name));
  const split = splitOf(v, node);
  if (split && split.kind === 'numeric' && v.features[split.feature].kind === 'numeric')
    sel.value = String(split.feature);
  const holder = el('div', { id: 'curve' });
  box.append(el('h4', {}, 'The measure against the threshold'), label, sel, holder);
  panel.append(box);
  const show = async () => {
    const f = Number(sel.value);
    try {
      const curve = await call<ThresholdCurve>({ type: 'curve', slot, node, feature: f });
      const chosen = split && split.kind === 'numeric' && split.feature === f ? split.thresholds[0] : undefined;
      holder.replaceChildren(
        curveChart(curve, chosen),
        el(
          'p',
          { class: 'muted' },
          `${curve.candidates} candidate thresholds (midpoints between distinct known values)` +
            `${curve.missing ? `, ${curve.missing} rows with a missing value left out` : ''}; ` +
            'dot: the best; line: the threshold the tree chose.',
        ),
      );
    } catch (err) {
      report(err);
    }
  };
  sel.addEventListener('change', () => void show());
  void show();
}
