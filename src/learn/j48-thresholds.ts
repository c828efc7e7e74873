import type { Dataset } from '../data/dataset.js';
import type { TreeNode } from '../model/node.js';

/** Weka's `Utils.SMALL`, with which J48 compares a value to the midpoint. */
const SMALL = 1e-6;

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
    let values = sorted.get(split.feature);
    if (!values) {
      values = knownSorted(data, split.feature);
      sorted.set(split.feature, values);
    }
    const column = values;
    const thresholds = split.thresholds.map((t) => largestAtMost(column, t) ?? t);
    return { ...node, split: { ...split, thresholds } };
  });
}

/** The known (non-NaN) values of numeric feature `f`, ascending. */
function knownSorted(data: Dataset, f: number): Float64Array {
  const col = data.features[f];
  if (col.kind !== 'numeric') return new Float64Array(0);
  let n = 0;
  for (let i = 0; i < col.values.length; i++) if (!Number.isNaN(col.values[i])) n++;
  const out = new Float64Array(n);
  let j = 0;
  for (let i = 0; i < col.values.length; i++) if (!Number.isNaN(col.values[i])) out[j++] = col.values[i];
  return out.sort();
}

/** The largest of ascending `values` that is at most `t` (within Weka's 1e-6), or undefined. */
function largestAtMost(values: Float64Array, t: number): number | undefined {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid] - t < SMALL) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 ? values[lo - 1] : undefined;
}
