import { mulberry32 } from '../../src/core/random.js';
import { type Dataset, datasetFromRows } from '../../src/index.js';

/**
 * n rows, 20 numeric features, 4 classes with 15 % noise: coarse values (long runs of ties),
 * integers over a wide range, continuous values. `extra`: a few missing values, or a categorical
 * feature besides.
 */
export function numericData(n: number, seed: number, extra?: 'missing' | 'categorical'): Dataset {
  const random = mulberry32(seed);
  const rows = Array.from({ length: n }, (_, i) => {
    const y = Math.floor(random() * 4);
    const row: Record<string, unknown> = {};
    for (let f = 0; f < 20; f++) {
      const signal = f % 3 === 0 ? y : 0;
      if (f < 7) row[`x${f}`] = Math.round((signal + random() * 3) * 2) / 4;
      else if (f < 14) row[`x${f}`] = Math.floor((signal + random() * 4) * 1500);
      else row[`x${f}`] = signal * 0.3 + random() - (f === 19 ? 0.5 : 0);
    }
    if (extra === 'missing' && i % 17 === 0) row.x4 = null;
    if (extra === 'categorical') row.colour = ['red', 'green', 'blue'][(y + i) % 3];
    row.y = random() < 0.15 ? `c${Math.floor(random() * 4)}` : `c${y}`;
    return row;
  });
  return datasetFromRows(rows, { target: 'y' });
}
