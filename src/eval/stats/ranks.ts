import { badArgument, checkArrayLike, checkBoolean, checkNumber, checkNumbers } from '../../core/args.js';

/** Values closer than this (relative) count as tied when ranking: accuracies that differ only by float noise. */
export const RANK_TIE_TOLERANCE = 1e-12;

export function nearlyEqual(a: number, b: number): boolean {
  checkNumber('nearlyEqual', 'a', a);
  checkNumber('nearlyEqual', 'b', b);
  return Math.abs(a - b) <= RANK_TIE_TOLERANCE * Math.max(1, Math.abs(a), Math.abs(b));
}

/**
 * Ranks 1..k of `values` (1 = best: the highest when `higherIsBetter`, else the lowest); tied values
 * share the mean of the ranks they span, as in Demšar (2006) and R's rank(). Also returns the tie
 * group sizes (for the Friedman tie correction).
 */
export function rankWithTies(
  values: readonly number[],
  higherIsBetter = true,
): { ranks: number[]; tieSizes: number[] } {
  checkNumbers('rankWithTies', 'values', values);
  checkBoolean('rankWithTies', 'higherIsBetter', higherIsBetter);
  const order = values
    .map((_, i) => i)
    .sort((a, b) => (higherIsBetter ? values[b] - values[a] : values[a] - values[b]) || a - b);
  const ranks = new Array<number>(values.length);
  const tieSizes: number[] = [];
  for (let start = 0; start < order.length; ) {
    let end = start + 1;
    while (end < order.length && nearlyEqual(values[order[end]], values[order[start]])) end++;
    const mean = (start + 1 + end) / 2; // ranks start+1 .. end
    for (let j = start; j < end; j++) ranks[order[j]] = mean;
    tieSizes.push(end - start);
    start = end;
  }
  return { ranks, tieSizes };
}

/**
 * Throw GroveError unless `matrix` is an array of rows of numbers, every row as long as the first;
 * returns that length.
 */
export function checkMatrix(caller: string, matrix: unknown): number {
  checkArrayLike(caller, 'matrix', matrix);
  const rows = matrix as ArrayLike<unknown>;
  for (let i = 0; i < rows.length; i++) {
    checkNumbers(caller, `matrix[${i}]`, rows[i]);
    const row = rows[i] as ArrayLike<number>;
    const k = (rows[0] as ArrayLike<number>).length;
    if (row.length !== k) badArgument(caller, `matrix[${i}]`, `a row of ${k} values, like matrix[0]`, row.length);
  }
  return rows.length > 0 ? (rows[0] as ArrayLike<number>).length : 0;
}

/** Mean rank of each column of `matrix` (rows = data sets, columns = competitors). */
export function averageRanks(matrix: readonly (readonly number[])[], higherIsBetter = true): number[] {
  const k = checkMatrix('averageRanks', matrix);
  const sums = new Array<number>(k).fill(0);
  for (const row of matrix) rankWithTies(row, higherIsBetter).ranks.forEach((r, j) => (sums[j] += r));
  return sums.map((s) => s / matrix.length);
}
