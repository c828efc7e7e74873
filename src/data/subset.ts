import type { Column, Dataset } from './dataset.js';

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
  return { ...data, features, labels, nRows: n, ...(weights ? { weights } : {}) };
}
