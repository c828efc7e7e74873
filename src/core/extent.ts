/**
 * The largest and smallest of a sequence of numbers, by a loop: `Math.max(...values)` passes every
 * value as an argument and overflows the stack once the sequence grows with the input.
 */

/** The largest of `values` (`start` when there are none); NaN if any value is NaN, as `Math.max`. */
export function maxOf(values: Iterable<number>, start = Number.NEGATIVE_INFINITY): number {
  let m = start;
  for (const v of values) if (v > m || Number.isNaN(v)) m = v;
  return m;
}

/**
 * The index of the first largest of `values[0 … length−1]` (ties go to the lowest index; NaN is
 * never the largest unless it is first). 0 when there are none.
 */
export function argMax(values: ArrayLike<number>, length = values.length): number {
  let best = 0;
  for (let i = 1; i < length; i++) if (values[i] > values[best]) best = i;
  return best;
}

/** The smallest of `values` (`start` when there are none); NaN if any value is NaN, as `Math.min`. */
export function minOf(values: Iterable<number>, start = Number.POSITIVE_INFINITY): number {
  let m = start;
  for (const v of values) if (v < m || Number.isNaN(v)) m = v;
  return m;
}
