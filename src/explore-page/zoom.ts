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

/** A rectangle in the drawing's units. */
export interface Area {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** A zoomable view: its element, and a way to bring part of the drawing into view. */
export interface Zoomable {
  element: HTMLElement;
  /**
   * Bring `area` into view at least `minPx` pixels wide: zoom in about it when it is smaller, centre
   * on it when it is not wholly in view, else leave the view as it is.
   */
  reveal(area: Area, minPx: number): void;
}

/**
 * Zoom and pan for a drawn SVG through its viewBox: the wheel zooms about the pointer, dragging
 * pans, and the buttons (and the keys + − 0 and the arrows while the view has focus; + − 0 also
 * from a node inside it) do the same from the keyboard. Starts fitted to the whole drawing.
 * `onView` runs after every change of view.
 */
export function zoomable(svgEl: SVGSVGElement, width: number, height: number, onView?: () => void): Zoomable {
  const frame = el('div', {
    class: 'zoom-frame',
    tabindex: '0',
    'aria-label': 'tree view: + − zoom, arrows pan, 0 fits; Tab to its nodes, where arrows move between nodes',
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
  // The drawing first: Tab goes from the frame to the tree's nodes, then to the buttons.
  frame.append(svgEl, bar);
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
    const act = KEYS.get(e.key);
    // From a node (the tree's own keys move between nodes), only zoom and fit.
    if (!act || (e.target !== frame && Array.isArray(act))) return;
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
  const reveal = (a: Area, minPx: number) => {
    const r = svgEl.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return;
    const perPx = Math.max(vb.w / r.width, vb.h / r.height);
    const inView = a.x >= vb.x && a.y >= vb.y && a.x + a.w <= vb.x + vb.w && a.y + a.h <= vb.y + vb.h;
    if (a.w / perPx >= minPx && inView) return;
    // Zoomed in just enough, with the area in the middle of the view.
    const f = Math.min(1, a.w / minPx / perPx);
    const w = vb.w * f;
    const h = vb.h * f;
    vb = { x: a.x + a.w / 2 - w / 2, y: a.y + a.h / 2 - h / 2, w, h };
    apply();
  };
  fit();
  return { element: frame, reveal };
}
