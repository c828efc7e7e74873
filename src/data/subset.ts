import type { Column, Dataset } from './dataset.js';

/** A subset's parent and rows, when the rows are in strictly increasing order (src/split/column-order.ts). */
export interface SubsetOrigin {
  parent: Dataset;
  rows: Int32Array;
}

const origins = new WeakMap<Dataset, SubsetOrigin>();

/** Where `data` came from, if `subsetRows` made it from rows in increasing order. */
export function subsetOrigin(data: Dataset): SubsetOrigin | undefined {
  return origins.get(data);
}

/** The rows `rows` of `data` (dictionaries and class list kept, so codes stay comparable). */
export function subsetRows(data: Dataset, rows: ArrayLike<number>): Dataset {
  const n = rows.length;
  const features = data.features.map((col): Column => {
    if (col.kind === 'numeric') {
      const values = new Float64Array(n);
      for (let i = 0; i < n; i++) values[i] = col.values[rows[i]];
      return { kind: 'numeric', name: col.name, values };
    }
    const codes = new Int32Array(n);
    for (let i = 0; i < n; i++) codes[i] = col.codes[rows[i]];
    return { kind: 'categorical', name: col.name, codes, categories: col.categories };
  });
  const labels = new Int32Array(n);
  for (let i = 0; i < n; i++) labels[i] = data.labels[rows[i]];
  const weights = data.weights ? Float64Array.from({ length: n }, (_, i) => data.weights![rows[i]]) : undefined;
  const subset: Dataset = { ...data, features, labels, nRows: n, ...(weights ? { weights } : {}) };
  let increasing = true;
  for (let i = 1; i < n && increasing; i++) increasing = rows[i] > rows[i - 1];
  if (increasing) origins.set(subset, { parent: data, rows: Int32Array.from(rows) });
  return subset;
}
