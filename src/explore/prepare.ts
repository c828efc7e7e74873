import type { Dataset } from '../data/dataset.js';
import { subsetRows } from '../data/subset.js';
import { checkExplorable, type EmbeddedData, embedDataset } from './embedded.js';
import { stratifiedSample } from './sample.js';

/**
 * Rows the page holds by default: every corpus data set up to `magic` (19,020 rows × 10 features)
 * whole; `letter-recognition`, `adult` and `shuttle` are sampled. Above it the page's JSON passes
 * ~10 MB and growing stops feeling live.
 */
export const DEFAULT_MAX_ROWS = 20_000;

/**
 * The data set as the page embeds it: checked (GroveError for one class or no usable feature), and
 * over `maxRows` rows a stratified, seeded sample of `maxRows`, marked so the page says so.
 * `packed`: in typed arrays (see EmbeddedData), for a file the page's reader worker read.
 */
export function prepareForPage(
  data: Dataset,
  source: string,
  maxRows: number,
  seed: number,
  packed = false,
): EmbeddedData {
  checkExplorable(data);
  if (data.nRows <= maxRows) return embedDataset(data, source, data.nRows, undefined, packed);
  const picked = stratifiedSample(data.labels, data.classes.length, maxRows, seed);
  const sample = subsetRows(data, picked);
  checkExplorable(sample);
  return embedDataset(sample, source, data.nRows, { seed, rows: picked.length, picked }, packed);
}
