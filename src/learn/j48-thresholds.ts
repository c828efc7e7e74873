import type { Dataset } from '../data/dataset.js';
import type { TreeNode } from '../model/node.js';
import { columnOrder } from '../split/column-order.js';

/** Weka's `Utils.SMALL`, with which J48 compares a value to the midpoint. */
export const SMALL = 1e-6;

/**
 * Weka J48's thresholds (C45Split.setSplitPoint): every numeric split's threshold moves down from
 * the midpoint between two training values to the largest value of the whole training column
 * (not only the node's rows) at or below it. The node's own rows route as before; values that fall
 * between that training value and the midpoint — unseen ones, and rows of other branches re-routed
 * by subtree raising — now go right, as in J48. Returns new nodes where a threshold moved.
 */
export function j48Thresholds(nodes: readonly TreeNode[], data: Dataset): TreeNode[] {
  const sorted = new Map<number, Float64Array>();
  return nodes.map((node) => {
    const split = node.split;
    if (split?.kind !== 'numeric') return node;
    const col = data.features[split.feature];
    if (col.kind !== 'numeric') return node;
    let values = sorted.get(split.feature);
    if (!values) {
      values = knownSorted(data, split.feature);
      sorted.set(split.feature, values);
    }
    const column = values;
    const thresholds = split.thresholds.map((t) => j48SplitPoint(column, col.values, t));
    return { ...node, split: { ...split, thresholds } };
  });
}

/**
 * J48's value for midpoint `t`: scanning the column in row order, it keeps a value when it is
 * above the one kept by more than Weka's 1e-6 and at most `t` (within 1e-6). That ends on the
 * largest such value m (from `sorted`) unless another lies within 1e-6 below m — then which one
 * it ends on depends on the row order, and the column is scanned as J48 scans it.
 */
function j48SplitPoint(sorted: Float64Array, column: ArrayLike<number>, t: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] - t < SMALL) lo = mid + 1;
    else hi = mid;
  }
  if (lo === 0) return t;
  const m = sorted[lo - 1];
  let below = lo - 2;
  while (below >= 0 && sorted[below] === m) below--;
  if (below < 0 || m - sorted[below] > SMALL) return m;
  return j48Scan(column, t);
}

/**
 * J48's scan of a column in row order for midpoint `t`: a value is kept when it is above the one
 * kept by more than 1e-6 and at most `t` (within 1e-6). Values below a gap of more than 1e-6 under
 * the answer never change it, so the rows of the answer's cluster alone give the same value.
 */
export function j48Scan(column: ArrayLike<number>, t: number): number {
  let kept = -Number.MAX_VALUE;
  for (let i = 0; i < column.length; i++) {
    const v = column[i];
    if (!Number.isNaN(v) && v - kept > SMALL && v - t < SMALL) kept = v;
  }
  return kept;
}

/**
 * The known (non-NaN) values of numeric feature `f`, ascending: read in the column's sorted order
 * (missing last), which a subset takes from its parent's kept order instead of sorting again.
 */
function knownSorted(data: Dataset, f: number): Float64Array {
  const values = (data.features[f] as { values: ArrayLike<number> }).values;
  const order = columnOrder(data, f);
  let n = order.length;
  while (n > 0 && Number.isNaN(values[order[n - 1]])) n--;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = values[order[i]];
  return out;
}
