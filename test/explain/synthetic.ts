/** Small seeded data sets for the explanation tests. */
import { mulberry32 } from '../../src/core/random.js';
import type { Dataset } from '../../src/data/dataset.js';
import { datasetFromRows } from '../../src/data/encode.js';

/** Rows of 3 numeric and 2 categorical features, 3 classes, a share of each value missing. */
export function synthetic(n: number, seed: number, missing = 0): Dataset {
  const rnd = mulberry32(seed);
  const gap = () => rnd() < missing;
  const rows = Array.from({ length: n }, () => {
    const x0 = Math.round(rnd() * 100) / 10;
    const x1 = Math.round(rnd() * 50) / 10;
    const c0 = 'abcde'[Math.floor(rnd() * 5)];
    const c1 = 'pqr'[Math.floor(rnd() * 3)];
    const x2 = Math.round(rnd() * 20);
    let y = x0 > 6 ? 'hi' : x1 + (c0 === 'a' || c0 === 'c' ? 2 : 0) > 3 ? 'mid' : 'lo';
    if (c1 === 'r' && x2 > 12) y = 'mid';
    if (rnd() < 0.1) y = ['hi', 'mid', 'lo'][Math.floor(rnd() * 3)];
    return {
      x0: gap() ? null : x0,
      x1: gap() ? null : x1,
      c0: gap() ? null : c0,
      c1: gap() ? null : c1,
      x2: gap() ? null : x2,
      y,
    };
  });
  return datasetFromRows(rows, { target: 'y' });
}

/** The rows of `data` as objects keyed by feature name (missing values as null), without the target. */
export function rowsOf(data: Dataset): Record<string, unknown>[] {
  return Array.from({ length: data.nRows }, (_, i) => {
    const row: Record<string, unknown> = {};
    for (const col of data.features) {
      if (col.kind === 'categorical') row[col.name] = col.codes[i] < 0 ? null : col.categories[col.codes[i]];
      else row[col.name] = Number.isNaN(col.values[i]) ? null : col.values[i];
    }
    return row;
  });
}
