/**
 * The page's "why" section: tree A's SHAP summary, one row's waterfall and a feature's partial
 * dependence, computed and drawn as SVG text in the worker (explain-tree.ts); the main thread only
 * puts the pictures in place. The row and the feature are chosen in the section's own form. They
 * are computed while the section is open: on a deep tree TreeSHAP takes the grower a while, which
 * a user not looking at them should not wait for before a node's panel.
 */
import type { DataShape } from '../explore/embedded.js';
import { el } from './dom.js';
import type { Explained } from './explain-tree.js';
import { $, measured, report } from './page-status.js';
import type { Request } from './protocol.js';

const PARSER = new DOMParser();

/**
 * Put SVG text in `holder`. The text comes from the report's drawing code, which escapes every
 * name from the data; it is parsed as XML, not as HTML, so nothing in it runs.
 */
function place(holder: HTMLElement, svgText: string): void {
  const doc = PARSER.parseFromString(svgText, 'image/svg+xml');
  holder.replaceChildren(document.importNode(doc.documentElement, true));
}

/** The section's pictures for tree A, asked of the worker through `call`. */
export class WhyPane {
  /** Counts the requests: only the latest one's pictures are shown. */
  private asked = 0;

  constructor(private readonly call: <T>(req: Request) => Promise<T>) {
    const refresh = () => void this.refresh()?.catch(report);
    $('why-row').addEventListener('change', refresh);
    $('why-feature').addEventListener('change', refresh);
    $('why-box').addEventListener('toggle', refresh);
    $('why-form').addEventListener('submit', (e) => {
      e.preventDefault();
      refresh();
    });
  }

  /** Tree A's pictures asked for again when the section is open (undefined when it is closed). */
  refresh(): Promise<void> | undefined {
    return $<HTMLDetailsElement>('why-box').open ? this.show() : undefined;
  }

  /** Empty the pictures and offer `d`'s rows and features. */
  reset(d: DataShape): void {
    this.asked++;
    const row = $<HTMLInputElement>('why-row');
    row.max = String(d.rows);
    if (Number(row.value) > d.rows) row.value = '1';
    const feature = $<HTMLSelectElement>('why-feature');
    feature.replaceChildren(
      el('option', { value: '' }, 'the one contributing most'),
      ...d.features.map((f) => el('option', { value: f.name }, f.name)),
    );
    for (const id of ['why-summary', 'why-waterfall', 'why-partial']) $(id).replaceChildren();
    $('why-status').textContent = '';
  }

  /** Ask for tree A's pictures (the row and feature chosen in the form) and show them. */
  private async show(): Promise<void> {
    const asked = ++this.asked;
    const row = Math.max(1, Math.floor(Number($<HTMLInputElement>('why-row').value) || 1)) - 1;
    const feature = $<HTMLSelectElement>('why-feature').value || undefined;
    $('why-status').textContent = 'explaining…';
    const x = await this.call<Explained>({ type: 'explain', slot: 'a', row, feature });
    if (asked !== this.asked) return;
    measured('why pictures', () => this.place(x));
  }

  /** Set `x`'s pictures in place, with the numbers they show as data attributes (the tests read them). */
  private place(x: Explained): void {
    const summary = $('why-summary');
    place(summary, x.summary);
    summary.dataset.contributing = String(x.contributing);
    summary.dataset.rows = String(x.summaryRows);
    const waterfall = $('why-waterfall');
    place(waterfall, x.waterfall);
    waterfall.dataset.expected = String(x.expected);
    waterfall.dataset.prediction = String(x.prediction);
    waterfall.dataset.className = x.className;
    waterfall.dataset.row = String(x.row);
    const partial = $('why-partial');
    place(partial, x.partial);
    partial.dataset.feature = x.feature;
    $('why-status').textContent =
      `Mean |contribution| over ${x.summaryRows.toLocaleString('en')} rows; the waterfall explains ` +
      `P(${x.className}) = ${x.prediction.toFixed(3)}; computed in ${x.ms.toFixed(0)} ms.`;
  }
}
