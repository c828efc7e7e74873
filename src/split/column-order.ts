import type { Dataset, NumericValues } from '../data/dataset.js';
import { type SubsetOrigin, subsetOrigin } from '../data/subset.js';
import { argsortNumeric } from './argsort.js';
import type { SortWork } from './sort-work.js';
import { markNewValues, NEW_VALUE, type SortedSlice } from './sorted-slice.js';

/**
 * Largest parent (rows × features) whose sorted orders are kept for its subsets: 16 MB of orders.
 * Larger data sets sort every subset afresh rather than hold a second copy of their layout.
 */
const KEEP_LIMIT = 1 << 22;

/** Sorted orders kept per data set and feature while the data set lives (weakly held). */
const kept = new WeakMap<Dataset, (Int32Array | undefined)[]>();
/** Per subset: parent row → subset row, or -1. */
const inverses = new WeakMap<SubsetOrigin, Int32Array>();

/**
 * The row order of numeric feature `f` of `data`, as `argsortNumeric` gives it (ascending, missing
 * last, ties by row). A subset made by `subsetRows` from rows in increasing order (cross-validation
 * folds, cost-complexity pruning's inner folds) takes it from its parent's order in one pass, the
 * parent's order being sorted once and kept; filtering keeps ties in row order, so the result is
 * the same array. The returned array may live in `work` (the next sort overwrites it).
 */
export function columnOrder(data: Dataset, f: number, work?: SortWork): Int32Array {
  const values = (data.features[f] as { values: NumericValues }).values;
  const origin = subsetOrigin(data);
  if (!origin || origin.parent.nRows * origin.parent.features.length > KEEP_LIMIT) return argsortNumeric(values, work);
  const parentOrder = keptOrder(origin.parent, f, work);
  const inverse = inverseOf(origin);
  const order = new Int32Array(data.nRows);
  let j = 0;
  for (let i = 0; i < parentOrder.length; i++) {
    const r = inverse[parentOrder[i]];
    if (r >= 0) order[j++] = r;
  }
  return order;
}

/**
 * Numeric feature `f`'s sorted slice of `data` into `slice` (entry = row): `columnOrder`, its
 * `NEW_VALUE` marks (`markNewValues`) and its labels (`labels`, by row); for a subset with a kept
 * parent order in one pass, with no order array in between.
 */
export function fillSortedSlice(
  data: Dataset,
  f: number,
  labels: Int32Array,
  { order, labs }: SortedSlice,
  work?: SortWork,
): void {
  const values = (data.features[f] as { values: NumericValues }).values;
  const origin = subsetOrigin(data);
  if (!origin || origin.parent.nRows * origin.parent.features.length > KEEP_LIMIT) {
    const sorted = argsortNumeric(values, work);
    markNewValues(sorted, values, order);
    for (let i = 0; i < sorted.length; i++) labs[i] = labels[sorted[i]];
    return;
  }
  const parentOrder = keptOrder(origin.parent, f, work);
  const inverse = inverseOf(origin);
  let j = 0;
  let prev = NaN;
  for (let i = 0; i < parentOrder.length; i++) {
    const r = inverse[parentOrder[i]];
    if (r < 0) continue;
    const v = values[r];
    order[j] = v === prev || (v !== v && prev !== prev) ? r : r | NEW_VALUE;
    labs[j++] = labels[r];
    prev = v;
  }
}

/** Per parent row: its row in the subset, or -1 (made once per subset). */
function inverseOf(origin: SubsetOrigin): Int32Array {
  let inverse = inverses.get(origin);
  if (!inverse) {
    inverse = new Int32Array(origin.parent.nRows).fill(-1);
    for (let i = 0; i < origin.rows.length; i++) inverse[origin.rows[i]] = i;
    inverses.set(origin, inverse);
  }
  return inverse;
}

/** `columnOrder` of `data`, kept for the next subset that asks. */
function keptOrder(data: Dataset, f: number, work?: SortWork): Int32Array {
  let orders = kept.get(data);
  if (!orders) kept.set(data, (orders = []));
  return (orders[f] ??= columnOrder(data, f, work).slice());
}
