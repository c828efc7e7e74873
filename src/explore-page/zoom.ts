import { el } from './dom.js';

/** What a key does while the view has focus: zoom, fit, or pan by a tenth of the view. */
const KEYS = new Map<string, 'in' | 'out' | 'fit' | [number, number]>([
  ['+', 'in'],
  ['=', 'in'],
  ['-', 'out'],
  ['0', 'fit'],
  ['ArrowLeft', [-1, 0]],
  ['ArrowRight', [1, 0]],
  ['ArrowUp', [0, -1]],
  ['ArrowDown', [0, 1]],
]);

/**
 * Zoom and pan for a drawn SVG through its viewBox: the wheel zooms about the pointer, dragging
 * pans, and the buttons (and the keys + − 0 and the arrows while the view has focus) do the same
 * from the keyboard. Starts fitted to the whole drawing. `onView` runs after every change of view.
 */
export function zoomable(svgEl: SVGSVGElement, width: number, height: number, onView?: () => void): HTMLElement {
  const frame = el('div', {
    class: 'zoom-frame',
    tabindex: '0',
    'aria-label': 'tree view: + − zoom, arrows pan, 0 fits',
  });
  const bar = el('div', { class: 'zoom-bar' });
  const buttons: [string, string, () => void][] = [
    ['+', 'zoom in', () => zoomBy(0.8)],
    ['−', 'zoom out', () => zoomBy(1.25)],
    ['fit', 'fit the whole tree', () => fit()],
  ];
  for (const [text, label, act] of buttons) {
    const b = el('button', { type: 'button', 'aria-label': label, title: label }, text);
    b.addEventListener('click', act);
    bar.append(b);
  }
  frame.append(bar, svgEl);
  let vb = { x: 0, y: 0, w: width, h: height };
  const apply = () => {
    svgEl.setAttribute('viewBox', `${vb.x} ${vb.y} ${vb.w} ${vb.h}`);
    onView?.();
  };
  function fit() {
    vb = { x: 0, y: 0, w: width, h: height };
    apply();
  }
  function zoomBy(f: number, cx = vb.x + vb.w / 2, cy = vb.y + vb.h / 2) {
    const w = Math.min(Math.max(vb.w * f, 40), width * 4);
    const h = (w / vb.w) * vb.h;
    vb = { x: cx - ((cx - vb.x) * w) / vb.w, y: cy - ((cy - vb.y) * h) / vb.h, w, h };
    apply();
  }
  const toUser = (e: { clientX: number; clientY: number }) => {
    const r = svgEl.getBoundingClientRect();
    const s = Math.max(vb.w / r.width, vb.h / r.height);
    // preserveAspectRatio xMidYMid meet: the drawing is centred in the element.
    const ox = (r.width - vb.w / s) / 2;
    const oy = (r.height - vb.h / s) / 2;
    return { x: vb.x + (e.clientX - r.left - ox) * s, y: vb.y + (e.clientY - r.top - oy) * s, s };
  };
  svgEl.addEventListener(
    'wheel',
    (e) => {
      e.preventDefault();
      const p = toUser(e);
      zoomBy(e.deltaY > 0 ? 1.15 : 1 / 1.15, p.x, p.y);
    },
    { passive: false },
  );
  let drag: { x: number; y: number; vx: number; vy: number; s: number; moved: boolean } | null = null;
  svgEl.addEventListener('pointerdown', (e) => {
    const p = toUser(e);
    drag = { x: e.clientX, y: e.clientY, vx: vb.x, vy: vb.y, s: p.s, moved: false };
  });
  svgEl.addEventListener('pointermove', (e) => {
    if (!drag) return;
    const dx = e.clientX - drag.x;
    const dy = e.clientY - drag.y;
    if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 4) return;
    if (!drag.moved) svgEl.setPointerCapture(e.pointerId);
    drag.moved = true;
    vb = { ...vb, x: drag.vx - dx * drag.s, y: drag.vy - dy * drag.s };
    apply();
  });
  const end = () => {
    drag = null;
  };
  svgEl.addEventListener('pointerup', end);
  svgEl.addEventListener('pointercancel', end);
  frame.addEventListener('keydown', (e) => {
    if (e.target !== frame) return;
    const act = KEYS.get(e.key);
    if (!act) return;
    e.preventDefault();
    const step = vb.w * 0.1;
    if (act === 'in') zoomBy(0.8);
    else if (act === 'out') zoomBy(1.25);
    else if (act === 'fit') fit();
    else {
      vb = { ...vb, x: vb.x + act[0] * step, y: vb.y + act[1] * step };
      apply();
    }
  });
  fit();
  return frame;
}
