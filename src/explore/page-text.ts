import type { DataShape } from './embedded.js';

/**
 * The explore page's texts about its data set, as plain text: `grove explore` writes them into the
 * page (escaped), and the page writes them again when the user opens a file of their own.
 */

/** The page's title and heading. */
export function pageTitle(data: DataShape | undefined): string {
  return data ? `grove explore: ${data.source}` : 'grove explore';
}

/** The line under the heading: the data set's size, or what to do without one. */
export function dataSummary(data: DataShape | undefined): string {
  if (!data) return `No data yet: open a file (${FORMATS}) with the button or drop it on the page.`;
  return (
    `${data.rows} rows, ${data.features.length} features, ${data.classes.length} classes of ` +
    `${data.target}. Grow, click a node, compare two measures.`
  );
}

/** What the page says when it holds a sample of the file's rows ('' when it holds them all). */
export function sampleNotice(data: DataShape | undefined): string {
  if (!data?.sample) return '';
  return (
    `This page holds a sample of ${data.sample.rows} of the ${data.totalRows} rows (stratified by class, seed ` +
    `${data.sample.seed}): ${data.source} is over the page's limit. Trees, scores and row numbers are the ` +
    "sample's (row numbers are the file's)."
  );
}

/** The formats a file opened in the page may be in, for the page's texts. */
export const FORMATS = 'CSV, TSV, JSON Lines, Parquet, Arrow IPC or ARFF; .gz too, but not Parquet';

/** The page's limits for a file opened in it: rows held (a larger file is sampled) and the sample's seed. */
export interface PageSettings {
  maxRows: number;
  seed: number;
}
