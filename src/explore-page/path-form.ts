/** The form of a row's values that the explore page traces down tree A. */
import type { DataShape } from '../explore/embedded.js';
import { el } from './dom.js';
import type { PathResult } from './protocol.js';

/** A field per feature (a select of its categories, or a text box; empty = missing); `onTrace` runs on submit. */
export function pathForm(features: DataShape['features'], onTrace: () => void): HTMLElement {
  const form = el('form', { id: 'path-form', class: 'path-form' });
  features.forEach((f, i) => {
    const id = `path-f${i}`;
    const cell = el('div', { class: 'cell' });
    cell.append(el('label', { for: id }, f.name));
    if (f.kind === 'categorical') {
      const s = el('select', { id });
      s.append(el('option', { value: '' }, '(missing)'));
      for (const c of f.categories) s.append(el('option', { value: c }, c));
      cell.append(s);
    } else cell.append(el('input', { id, type: 'text', inputmode: 'decimal', placeholder: 'missing' }));
    form.append(cell);
  });
  const go = el('button', { type: 'submit' }, 'Trace in tree A');
  form.append(go);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    onTrace();
  });
  return form;
}

/** Show in `out` the path `r` of the row traced: its conditions from the root, and the prediction. */
export function showPath(out: HTMLElement, r: PathResult): void {
  const list = el('ol');
  list.append(el('li', {}, 'root'));
  for (const c of r.conditions) list.append(el('li', {}, c));
  const tail =
    r.path.spreadAt !== undefined
      ? ' (the value at the last node is missing: the tree sends the row down every branch, weighted; ' +
        'all are highlighted)'
      : '';
  out.replaceChildren(list, el('p', { id: 'path-prediction' }, `Prediction: ${r.predicted}${tail}`));
  out.dataset.nodes = r.path.nodes.join(',');
}
