import type { NumericValues } from '../data/dataset.js';

/**
 * A numeric feature's entries at a node, sorted by value (missing values last): one int32 each,
 * the entry id in the low 31 bits and `NEW_VALUE` (the sign bit) set when the entry's value differs
 * from the previous entry's in the slice, i.e. where a threshold may go. The values themselves
 * stay in the column and are read only where needed (a threshold's two sides, the missing tail),
 * so a slice costs 4 bytes per entry and a scan or partition reads and writes one array.
 */
export interface SortedSlice {
  order: Int32Array;
}

/** Marks an entry whose value differs from the previous one's (bit 31: the int32 is negative). */
export const NEW_VALUE = -0x80000000;
/** The entry id of a slice element: `x & ENTRY`. */
export const ENTRY = 0x7fffffff;

/**
 * Write the slice for `sorted` (entry ids in value order, entry = row) into `order`: each id with
 * `NEW_VALUE` where its value differs from the previous one (-0 equals 0; missing values equal each
 * other). The first element's mark means nothing.
 */
export function markNewValues(sorted: ArrayLike<number>, values: NumericValues, order: Int32Array): void {
  let prev = NaN;
  for (let i = 0; i < sorted.length; i++) {
    const e = sorted[i];
    const v = values[e];
    order[i] = v === prev || (v !== v && prev !== prev) ? e : e | NEW_VALUE;
    prev = v;
  }
}
