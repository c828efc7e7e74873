import type { ClassLabel } from '../../data/dataset.js';
import { type OutColumn, writeParquetFile } from '../../sources/index.js';

/**
 * `grove predict --out x.parquet`: the same columns as the CSV (`predicted`, then one probability
 * per class with --proba). `predicted` is an integer or float column when every class is a number
 * and no row is unclassified, else text; an unclassified row has `unclassified` and null probabilities.
 * `leaf` and `path` columns follow, as with --leaf and --path.
 */
export async function writePredictionsParquet(
  path: string,
  classes: readonly ClassLabel[],
  codes: Int32Array,
  proba: Float64Array | undefined,
  extra: { leaves?: Int32Array; path?: (i: number) => string } = {},
): Promise<void> {
  const k = classes.length;
  const numeric = classes.every((c) => typeof c === 'number') && codes.every((c) => c >= 0);
  const predicted: OutColumn = numeric
    ? {
        name: 'predicted',
        type: classes.every((c) => Number.isSafeInteger(c)) ? 'BIGINT' : 'DOUBLE',
        value: (i) => classes[codes[i]] as number,
      }
    : { name: 'predicted', type: 'VARCHAR', value: (i) => (codes[i] < 0 ? 'unclassified' : String(classes[codes[i]])) };
  const columns: OutColumn[] = [predicted];
  if (proba)
    classes.forEach((c, j) =>
      columns.push({
        name: String(c),
        type: 'DOUBLE',
        value: (i) => (codes[i] < 0 ? null : proba[i * k + j]),
      }),
    );
  const { leaves, path: pathOf } = extra;
  if (leaves) columns.push({ name: 'leaf', type: 'BIGINT', value: (i) => leaves[i] });
  if (pathOf) columns.push({ name: 'path', type: 'VARCHAR', value: pathOf });
  await writeParquetFile(path, columns, codes.length);
}
