import { type ArrayMaker, plainArrays } from '../core/arrays.js';
import type { Dataset, NumericValues } from '../data/dataset.js';
import { argsortNumeric } from '../split/argsort.js';
import { fillSortedSlice } from '../split/column-order.js';
import type { NodeBuffers } from '../split/context.js';
import { SortWork } from '../split/sort-work.js';
import { markNewValues, newSlice, type SortedSlice } from '../split/sorted-slice.js';

/** The exact grower's layout before growing: each numeric feature's rows in value order (grow.ts). */

/** Per-row arrays every node's partition writes at its own positions (disjoint between subtrees). */
export interface RowScratch {
  branchOf: Int32Array;
  scratchI: Int32Array;
}

/** Sort `values` (a column, entry = row) into `slice`, marks and `labels` (by row) included. */
export function sortInto(values: NumericValues, labels: Int32Array, slice: SortedSlice, work?: SortWork): void {
  fillSlice(argsortNumeric(values, work), values, labels, slice);
}

/** The slice of rows in `sorted` order: ids with their marks, and their labels alongside. */
function fillSlice(sorted: Int32Array, values: NumericValues, labels: Int32Array, { order, labs }: SortedSlice): void {
  markNewValues(sorted, values, order);
  for (let i = 0; i < sorted.length; i++) labs[i] = labels[sorted[i]];
}

/**
 * The root's buffers: entry ids 0..n-1 and, per numeric feature, the entries sorted by value
 * (once), 5 bytes per row per feature (6 beyond 256 classes) whatever the column's precision.
 */
export function presort(data: Dataset, make: ArrayMaker = plainArrays): NodeBuffers {
  const n = data.nRows;
  const ids = make.int32(n);
  for (let i = 0; i < n; i++) ids[i] = i;
  const work = new SortWork();
  const sorted = data.features.map((col, f) => {
    if (col.kind !== 'numeric') return null;
    const slice = newSlice(make, n, data.classes.length);
    fillSortedSlice(data, f, data.labels, slice, work);
    return slice;
  });
  work.release();
  return { ids, sorted };
}

export function rowScratch(n: number, make: ArrayMaker = plainArrays): RowScratch {
  return { branchOf: make.int32(n), scratchI: make.int32(n) };
}
