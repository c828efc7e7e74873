import { niceTicks, tickLabel } from '../report/html.js';
import { svg } from './dom.js';
import type { ThresholdCurve } from './node-detail.js';

const W = 520;
const H = 220;
const M = { l: 58, r: 14, t: 14, b: 40 };

/**
 * A measure's value against the threshold of `feature <= t` at one node, the best threshold marked
 * and, when the node splits on that feature, the threshold the tree chose.
 */
export function curveChart(curve: ThresholdCurve, chosen?: number): SVGSVGElement {
  const root = svg('svg', {
    class: 'chart curve',
    viewBox: `0 0 ${W} ${H}`,
    role: 'img',
    'aria-label': `${curve.measure} against the threshold on ${curve.feature}`,
  });
  const pts = curve.points.filter(([, v]) => Number.isFinite(v));
  if (pts.length === 0) {
    root.append(svg('text', { x: W / 2, y: H / 2, 'text-anchor': 'middle' }, 'no threshold: one distinct known value'));
    return root;
  }
  let x0 = pts[0][0];
  let x1 = pts[pts.length - 1][0];
  let y0 = Infinity;
  let y1 = -Infinity;
  for (const [, v] of pts) {
    if (v < y0) y0 = v;
    if (v > y1) y1 = v;
  }
  if (!(x1 > x0)) [x0, x1] = [x0 - 1, x1 + 1];
  if (!(y1 > y0)) [y0, y1] = [y0 - 1, y1 + 1];
  const x = (t: number) => M.l + ((t - x0) / (x1 - x0)) * (W - M.l - M.r);
  const y = (v: number) => H - M.b - ((v - y0) / (y1 - y0)) * (H - M.t - M.b);
  for (const t of niceTicks(y0, y1, 4).filter((t) => t >= y0 && t <= y1)) {
    root.append(svg('line', { x1: M.l, x2: W - M.r, y1: y(t), y2: y(t), class: 'grid' }));
    root.append(svg('text', { x: M.l - 4, y: y(t) + 3.5, 'text-anchor': 'end', class: 'tick' }, tickLabel(t)));
  }
  for (const t of niceTicks(x0, x1, 5).filter((t) => t >= x0 && t <= x1))
    root.append(svg('text', { x: x(t), y: H - M.b + 14, 'text-anchor': 'middle', class: 'tick' }, tickLabel(t)));
  root.append(svg('line', { x1: M.l, x2: W - M.r, y1: H - M.b, y2: H - M.b, class: 'axis' }));
  root.append(
    svg('polyline', {
      points: pts.map(([t, v]) => `${x(t).toFixed(1)},${y(v).toFixed(1)}`).join(' '),
      class: 'curve-line',
      fill: 'none',
    }),
  );
  const sign = curve.better === 'higher' ? 1 : -1;
  let best = pts[0];
  for (const p of pts) if (sign * p[1] > sign * best[1]) best = p;
  root.append(svg('circle', { cx: x(best[0]), cy: y(best[1]), r: 4, class: 'best-point' }));
  if (chosen !== undefined && chosen >= x0 && chosen <= x1)
    root.append(svg('line', { x1: x(chosen), x2: x(chosen), y1: M.t, y2: H - M.b, class: 'chosen-line' }));
  root.append(
    svg('text', { x: (M.l + W - M.r) / 2, y: H - 6, 'text-anchor': 'middle', class: 'muted' }, `${curve.feature} <= t`),
  );
  root.append(
    svg(
      'text',
      { transform: `translate(12 ${(M.t + H - M.b) / 2}) rotate(-90)`, 'text-anchor': 'middle', class: 'muted' },
      `${curve.measure} (${curve.better} is better)`,
    ),
  );
  return root;
}
