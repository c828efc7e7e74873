import type { Dataset, NumericValues } from '../data/dataset.js';
import { type SubsetOrigin, subsetOrigin } from '../data/subset.js';
import { argsortNumeric } from './argsort.js';
import type { SortWork } from './sort-work.js';

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
  let inverse = inverses.get(origin);
  if (!inverse) {
    inverse = new Int32Array(origin.parent.nRows).fill(-1);
    for (let i = 0; i < origin.rows.length; i++) inverse[origin.rows[i]] = i;
    inverses.set(origin, inverse);
  }
  const order = new Int32Array(data.nRows);
  let j = 0;
  for (let i = 0; i < parentOrder.length; i++) {
    const r = inverse[parentOrder[i]];
    if (r >= 0) order[j++] = r;
  }
  return order;
}

/** `columnOrder` of `data`, kept for the next subset that asks. */
function keptOrder(data: Dataset, f: number, work?: SortWork): Int32Array {
  let orders = kept.get(data);
  if (!orders) kept.set(data, (orders = []));
  return (orders[f] ??= columnOrder(data, f, work).slice());
}
