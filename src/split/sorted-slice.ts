import type { ArrayMaker } from '../core/arrays.js';
import { GroveError } from '../core/errors.js';
import type { NumericValues } from '../data/dataset.js';

/**
 * A numeric feature's entries at a node, sorted by value (missing values last): one int32 each,
 * the entry id in the low 31 bits and `NEW_VALUE` (the sign bit) set when the entry's value differs
 * from the previous entry's in the slice, i.e. where a threshold may go. The values themselves
 * stay in the column and are read only where needed (a threshold's two sides, the missing tail).
 * `labs` holds the entries' class codes in the same order, so the scan reads labels in order
 * instead of looking each one up (docs/performance.md, "What bounds the exact grower").
 */
export interface SortedSlice {
  order: Int32Array;
  labs: LabelCodes;
}

/** Class codes of a slice's entries: one byte each up to 256 classes, two beyond. */
export type LabelCodes = Uint8Array | Uint16Array;

/** A `LabelCodes` array of `n` entries for `classes` classes. */
export function labelCodes(make: Pick<ArrayMaker, 'uint8' | 'uint16'>, n: number, classes: number): LabelCodes {
  if (classes > 65536) throw new GroveError(`${classes} classes: at most 65,536 are supported`);
  return classes > 256 ? make.uint16(n) : make.uint8(n);
}

/** An unfilled slice of `n` entries for `classes` classes (`sortInto` fills it). */
export function newSlice(make: ArrayMaker, n: number, classes: number): SortedSlice {
  return { order: make.int32(n), labs: labelCodes(make, n, classes) };
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
