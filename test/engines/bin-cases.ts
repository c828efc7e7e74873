/** Bin edges and values that bin-code tests search (the list search, the flat one) against the nested CASE. */
import type { BinnedFeature } from '../../src/split/histogram.js';

/** A feature binned with edges `hi` (one value a bin). */
export const binned = (hi: number[]): BinnedFeature => ({
  codes: new Uint8Array(0),
  bins: hi.length,
  lo: Float64Array.from(hi),
  hi: Float64Array.from(hi),
});

// Values on, between, below and above the edges, extremes and NULL.
export const BIN_VALUES = [
  null,
  -Infinity,
  -1e300,
  -2.5,
  -0,
  0,
  5e-324,
  0.1,
  0.30000000000000004,
  0.3,
  1,
  1.5,
  2,
  7,
  99.999,
  100,
  1e300,
  Infinity,
];
export const BIN_EDGES: number[][] = [
  [],
  [1],
  [0.3, 2],
  [-2.5, 0, 0.30000000000000004, 1, 2, 7, 100],
  [-Infinity, 0.1, 1.5, Infinity],
  Array.from({ length: 255 }, (_, i) => i * 0.1 + 0.1 - 5),
  Array.from({ length: 129 }, (_, i) => i ** 2 / 7),
];
