/**
 * Reading a table to train on when some rows have no class label: they are left out with a
 * warning (their count and the first one's row), or, with --require-labels, the read fails as
 * before. Tables where every row is labelled are read once, as always. A target that looks
 * continuous (many numeric values) gets a warning.
 */

import { GroveError } from '../core/errors.js';
import { counted } from '../core/text-table.js';
import type { Dataset } from '../data/dataset.js';
import { continuousTarget, idLikeColumns } from '../data/describe.js';
import { labelFromColumn } from '../data/label-column.js';
import type { DataSource, SourceReadOptions } from '../sources/index.js';
import { warn } from './output.js';
import { keepingColumn } from './read-flags.js';
import { readData } from './read-progress.js';

/** The message the readers give for a row without a label. */
const UNLABELLED = /every row needs a class label/;

/** True when `err` is a reader's refusal of a row without a class label (naming the column). */
export function isUnlabelledError(err: unknown): err is GroveError & { column: string } {
  return err instanceof GroveError && UNLABELLED.test(err.message) && err.column !== undefined;
}

/**
 * Read `open()`'s rows as a labelled Dataset. On a row without a label, unless `requireLabels`,
 * read the table again with the class column as text and leave the unlabelled rows out.
 */
export async function readLabelled(
  open: () => DataSource,
  options: SourceReadOptions,
  progress: boolean | undefined,
  requireLabels: boolean | undefined,
): Promise<Dataset> {
  const data = await readOrDrop(open, options, progress, requireLabels);
  const continuous = continuousTarget(data);
  if (continuous) warn(continuous);
  warnIdLike(data);
  return data;
}

/** A warning for each feature that looks like a row identifier, naming the flag that leaves it out. */
export function warnIdLike(data: Dataset): void {
  for (const { name, reason } of idLikeColumns(data))
    warn(
      `column '${name}' looks like a row identifier (${reason}): a tree learns nothing from it; ` +
        `leave it out with --drop ${name}`,
    );
}

async function readOrDrop(
  open: () => DataSource,
  options: SourceReadOptions,
  progress: boolean | undefined,
  requireLabels: boolean | undefined,
): Promise<Dataset> {
  try {
    return await readData(open(), options, progress);
  } catch (err) {
    if (requireLabels || !isUnlabelledError(err)) throw err;
    const target = err.column;
    const table = await readData(
      open(),
      keepingColumn({ ...options, noTarget: true, categorical: [...(options.categorical ?? []), target] }, target),
      progress,
    );
    const { data, unlabelled } = labelFromColumn(table, target);
    if (data.nRows === 0) throw new GroveError(`no row has a class label in '${target}'`, { code: 'E_DATA' });
    const where = err.row !== undefined ? ` (the first on row ${err.row})` : '';
    warn(
      `${counted(unlabelled, 'row')} without a class label in '${target}' left out${where}; ` +
        '--require-labels makes this an error',
    );
    return data;
  }
}
