import { mulberry32 } from '../../src/core/random.js';
import { type Dataset, datasetFromRows } from '../../src/index.js';

/** n rows: 6 numeric features (3 informative), one categorical, 3 classes, 10 % label noise. */
export function synthetic(n: number, seed: number): Dataset {
  const random = mulberry32(seed);
  const rows = Array.from({ length: n }, () => {
    const y = Math.floor(random() * 3);
    const row: Record<string, unknown> = {};
    for (let f = 0; f < 6; f++) row[`x${f}`] = (f < 3 ? y * (f + 1) * 0.4 : 0) + random() * 2;
    row.colour = ['red', 'green', 'blue', 'grey'][(y + Math.floor(random() * 2)) % 4];
    row.y = random() < 0.1 ? `c${Math.floor(random() * 3)}` : `c${y}`;
    return row;
  });
  return datasetFromRows(rows, { target: 'y' });
}

/** `synthetic`'s rows with a share of cells blank (missing), numeric and categorical alike. */
export function withMissing(n: number, seed: number, share: number): Dataset {
  const random = mulberry32(seed + 100);
  const base = synthetic(n, seed);
  const rows = Array.from({ length: n }, (_, i) => {
    const row: Record<string, unknown> = {};
    base.features.forEach((f) => {
      const v = f.kind === 'numeric' ? f.values[i] : f.categories[f.codes[i]];
      row[f.name] = random() < share ? null : v;
    });
    row.y = base.classes[base.labels[i]];
    return row;
  });
  return datasetFromRows(rows, { target: 'y' });
}
