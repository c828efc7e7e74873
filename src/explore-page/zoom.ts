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

/** The drawing's viewBox and the changes the controls make to it. */
class ViewBox {
  vb: Area;

  constructor(
    private readonly svgEl: SVGSVGElement,
    private readonly width: number,
    private readonly height: number,
    private readonly onView?: () => void,
  ) {
    this.vb = { x: 0, y: 0, w: width, h: height };
  }

  set(vb: Area): void {
    this.vb = vb;
    this.svgEl.setAttribute('viewBox', `${vb.x} ${vb.y} ${vb.w} ${vb.h}`);
    this.onView?.();
  }

  fit(): void {
    this.set({ x: 0, y: 0, w: this.width, h: this.height });
  }

  zoomBy(f: number, cx = this.vb.x + this.vb.w / 2, cy = this.vb.y + this.vb.h / 2): void {
    const { vb } = this;
    const w = Math.min(Math.max(vb.w * f, 40), this.width * 4);
    const h = (w / vb.w) * vb.h;
    this.set({ x: cx - ((cx - vb.x) * w) / vb.w, y: cy - ((cy - vb.y) * h) / vb.h, w, h });
  }

  pan(dx: number, dy: number): void {
    this.set({ ...this.vb, x: this.vb.x + dx, y: this.vb.y + dy });
  }

  /** A pointer position in the drawing's units, and drawing units per pixel. */
  toUser(e: { clientX: number; clientY: number }): { x: number; y: number; s: number } {
    const { vb } = this;
    const r = this.svgEl.getBoundingClientRect();
    const s = Math.max(vb.w / r.width, vb.h / r.height);
    // preserveAspectRatio xMidYMid meet: the drawing is centred in the element.
    const ox = (r.width - vb.w / s) / 2;
    const oy = (r.height - vb.h / s) / 2;
    return { x: vb.x + (e.clientX - r.left - ox) * s, y: vb.y + (e.clientY - r.top - oy) * s, s };
  }

  reveal(a: Area, minPx: number): void {
    const { vb } = this;
    const r = this.svgEl.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return;
    const perPx = Math.max(vb.w / r.width, vb.h / r.height);
    const inView = a.x >= vb.x && a.y >= vb.y && a.x + a.w <= vb.x + vb.w && a.y + a.h <= vb.y + vb.h;
    if (a.w / perPx >= minPx && inView) return;
    // Zoomed in just enough, with the area in the middle of the view.
    const f = Math.min(1, a.w / minPx / perPx);
    const w = vb.w * f;
    const h = vb.h * f;
    this.set({ x: a.x + a.w / 2 - w / 2, y: a.y + a.h / 2 - h / 2, w, h });
  }
}

/** The wheel zooms about the pointer; dragging (past 4 pixels, so a click stays a click) pans. */
function listenPointer(svgEl: SVGSVGElement, view: ViewBox): void {
  svgEl.addEventListener(
    'wheel',
    (e) => {
      e.preventDefault();
      const p = view.toUser(e);
      view.zoomBy(e.deltaY > 0 ? 1.15 : 1 / 1.15, p.x, p.y);
    },
    { passive: false },
  );
  let drag: { x: number; y: number; vx: number; vy: number; s: number; moved: boolean } | null = null;
  svgEl.addEventListener('pointerdown', (e) => {
    const p = view.toUser(e);
    drag = { x: e.clientX, y: e.clientY, vx: view.vb.x, vy: view.vb.y, s: p.s, moved: false };
  });
  svgEl.addEventListener('pointermove', (e) => {
    if (!drag) return;
    const dx = e.clientX - drag.x;
    const dy = e.clientY - drag.y;
    if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 4) return;
    if (!drag.moved) svgEl.setPointerCapture(e.pointerId);
    drag.moved = true;
    view.set({ ...view.vb, x: drag.vx - dx * drag.s, y: drag.vy - dy * drag.s });
  });
  const end = () => {
    drag = null;
  };
  svgEl.addEventListener('pointerup', end);
  svgEl.addEventListener('pointercancel', end);
}

/** The keys of `KEYS` on the frame; from a node inside it (whose own keys move between nodes), only zoom and fit. */
function listenKeys(frame: HTMLElement, view: ViewBox): void {
  frame.addEventListener('keydown', (e) => {
    const act = KEYS.get(e.key);
    if (!act || (e.target !== frame && Array.isArray(act))) return;
    e.preventDefault();
    const step = view.vb.w * 0.1;
    if (act === 'in') view.zoomBy(0.8);
    else if (act === 'out') view.zoomBy(1.25);
    else if (act === 'fit') view.fit();
    else view.pan(act[0] * step, act[1] * step);
  });
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
  const view = new ViewBox(svgEl, width, height, onView);
  const bar = el('div', { class: 'zoom-bar' });
  const buttons: [string, string, () => void][] = [
    ['+', 'zoom in', () => view.zoomBy(0.8)],
    ['−', 'zoom out', () => view.zoomBy(1.25)],
    ['fit', 'fit the whole tree', () => view.fit()],
  ];
  for (const [text, label, act] of buttons) {
    const b = el('button', { type: 'button', 'aria-label': label, title: label }, text);
    b.addEventListener('click', act);
    bar.append(b);
  }
  // The drawing first: Tab goes from the frame to the tree's nodes, then to the buttons.
  frame.append(svgEl, bar);
  listenPointer(svgEl, view);
  listenKeys(frame, view);
  view.fit();
  return { element: frame, reveal: (a, minPx) => view.reveal(a, minPx) };
}
