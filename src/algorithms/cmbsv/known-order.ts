/**
 * A node's rows of known value and positive weight in ascending order of one feature's value, ties
 * by row: the order C-MBSV's pairwise SVMs read (thresholds.ts). With the column's order at hand
 * (`ColumnRanks`), a node's rows sorted by their places in it are sorted by value, and places are
 * distinct integers: the engine's integer sort orders a small node's places, and a large node's
 * are marked in a table of the column's places and read back in order (no comparison at all).
 */
import { grown } from '../../core/arrays.js';
import type { NumericValues } from '../../data/dataset.js';

/**
 * The rows of a column in ascending order of value, ties by row (`columnOrder`), and each row's
 * place in it: a node's rows sorted by their places are sorted by value.
 */
export interface ColumnRanks {
  order: Int32Array;
  rank: Int32Array;
}

/** `ColumnRanks` of a column from its order (src/split/column-order.ts). */
export function columnRanks(order: Int32Array): ColumnRanks {
  const rank = new Int32Array(order.length);
  for (let i = 0; i < order.length; i++) rank[order[i]] = i;
  return { order, rank };
}

/** The known rows of positive weight, ascending by value, ties by row. */
export function knownBySort(x: NumericValues, rows: ArrayLike<number>, weights: ArrayLike<number>): Int32Array {
  const known: number[] = [];
  for (let j = 0; j < rows.length; j++) {
    const r = rows[j];
    if (!Number.isNaN(x[r]) && weights[r] > 0) known.push(r);
  }
  return Int32Array.from(known.sort((p, q) => x[p] - x[q] || p - q));
}

/** `knownByRank`'s buffers: the node's places, then its rows; the table of marked places (all 0 between calls). */
const scratch = { known: new Int32Array(0), marks: new Uint8Array(0) };

/** The smallest and largest place `knownPlaces` saw. */
let lowest = 0;
let highest = 0;

/**
 * `knownBySort` through the rows' places in the column's order (in a buffer valid until the next
 * call). Marking costs about one step per place between the node's lowest and highest, sorting
 * m log m comparisons of a few steps each; the cheaper is taken (same order either way).
 */
export function knownByRank(
  x: NumericValues,
  rows: ArrayLike<number>,
  weights: ArrayLike<number>,
  { order, rank }: ColumnRanks,
): Int32Array {
  const places = (scratch.known = grown(scratch.known, rows.length));
  const m = knownPlaces(x, rows, weights, rank, places);
  const known = places.subarray(0, m);
  if (m > 1 && highest - lowest + 8 * m < 4 * m * Math.log2(m)) {
    if (scratch.marks.length < order.length) scratch.marks = new Uint8Array(order.length);
    readMarked(known, scratch.marks, lowest, highest);
  } else known.sort();
  for (let i = 0; i < m; i++) known[i] = order[known[i]];
  return known;
}

/*
 * The passes below are functions of their own that return right after their loops
 * (docs/performance.md, "V8's on-stack compilation").
 */

/**
 * The places in the column's order of the rows of known value and positive weight, into `places`;
 * their number (`lowest`, `highest`: their extent).
 */
function knownPlaces(
  x: NumericValues,
  rows: ArrayLike<number>,
  weights: ArrayLike<number>,
  rank: Int32Array,
  places: Int32Array,
): number {
  let m = 0;
  let low = rank.length;
  let high = -1;
  for (let j = 0; j < rows.length; j++) {
    const r = rows[j];
    if (Number.isNaN(x[r]) || !(weights[r] > 0)) continue;
    const p = rank[r];
    places[m++] = p;
    if (p < low) low = p;
    if (p > high) high = p;
  }
  lowest = low;
  highest = high;
  return m;
}

/** Distinct places within [low, high] in ascending order, through `marks` (left all 0). */
function readMarked(places: Int32Array, marks: Uint8Array, low: number, high: number): void {
  for (let i = 0; i < places.length; i++) marks[places[i]] = 1;
  let n = 0;
  for (let p = low; p <= high; p++) {
    if (marks[p] === 0) continue;
    marks[p] = 0;
    places[n++] = p;
  }
}
