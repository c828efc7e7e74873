/**
 * A class column read as a categorical feature (a table read with `noTarget` and the target
 * forced categorical) turned into labels, with its unlabelled rows left out. Used where rows
 * without a label are not an error: `grove fit` without --require-labels, `grove info`.
 */

import { GroveError } from '../core/errors.js';
import { orderClasses } from './class-order.js';
import type { CategoricalColumn, Column, Dataset } from './dataset.js';

/** A labelled Dataset and the rows that had no label. */
export interface LabelledRows {
  data: Dataset;
  /** Rows whose label was missing (left out of `data`). */
  unlabelled: number;
  /** 0-based index, in the table read, of the first unlabelled row; -1 when none. */
  firstUnlabelled: number;
}

/**
 * Make feature `target` of `table` (a categorical column: -1 = missing) the class column: its
 * texts become classes by the readers' rule ({@link orderClasses}, texts kept), its rows without
 * a label are left out. GroveError when the column is not there or not categorical.
 */
export function labelFromColumn(table: Dataset, target: string): LabelledRows {
  const column = table.features.find((f) => f.name === target);
  if (column === undefined)
    throw new GroveError(`no column '${target}' to read class labels from`, { code: 'E_OPTION', column: target });
  if (column.kind !== 'categorical')
    throw new GroveError(`the class column '${target}' was not read as labels`, { code: 'E_DATA', column: target });
  const { classes, remap } = orderClasses(column.categories);
  const keep: number[] = [];
  let firstUnlabelled = -1;
  for (let i = 0; i < table.nRows; i++) {
    if (column.codes[i] >= 0) keep.push(i);
    else if (firstUnlabelled < 0) firstUnlabelled = i;
  }
  const n = keep.length;
  const labels = new Int32Array(n);
  for (let i = 0; i < n; i++) labels[i] = remap[(column as CategoricalColumn).codes[keep[i]]];
  const all = n === table.nRows;
  const features = table.features
    .filter((f) => f !== column)
    .map((f): Column => {
      if (all) return f;
      if (f.kind === 'numeric') {
        const values = f.values instanceof Float32Array ? new Float32Array(n) : new Float64Array(n);
        for (let i = 0; i < n; i++) values[i] = f.values[keep[i]];
        return { kind: 'numeric', name: f.name, values };
      }
      const codes = new Int32Array(n);
      for (let i = 0; i < n; i++) codes[i] = f.codes[keep[i]];
      return { kind: 'categorical', name: f.name, codes, categories: f.categories };
    });
  const weights = table.weights && (all ? table.weights : Float64Array.from(keep, (i) => table.weights![i]));
  const data: Dataset = {
    features,
    labels,
    classes,
    targetName: target,
    nRows: n,
    ...(weights ? { weights } : {}),
    ...(table.source !== undefined ? { source: table.source } : {}),
  };
  return { data, unlabelled: table.nRows - n, firstUnlabelled };
}
