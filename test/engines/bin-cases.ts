/** Bin edges and values that bin-code tests search (the list search, the flat one) against the nested CASE. */

import type { Engine } from '../../src/engines/engine.js';
import { binCode, listSearch, Params } from '../../src/engines/rows.js';
import type { BinnedFeature } from '../../src/split/histogram.js';
import type { Dialect } from '../../src/sql/index.js';

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

/**
 * The codes of {@link BIN_VALUES} under `edges` by the list search and by the nested-CASE search,
 * in `engine` (values cast to `doubleType`), and the list search's FROM.
 */
export async function searchBothWays(
  engine: Engine,
  dialect: Dialect,
  doubleType: string,
  edges: number[],
): Promise<{ byList: unknown[][]; byCase: unknown[][]; from: string }> {
  const bf = binned(edges);
  const rows = (p: Params) => {
    const values = BIN_VALUES.map(
      (v, i) => `(${i}, ${v === null ? 'NULL' : `CAST(${p.add(String(v))} AS ${doubleType})`})`,
    );
    return `(SELECT 0 AS y, 1 AS w, v0 FROM (VALUES ${values.join(', ')}) AS t(i, v0))`;
  };
  const p = new Params(dialect);
  const searched = listSearch([bf], [null], rows(p), dialect, p);
  const byList = await engine.query(`SELECT ${searched.codes[0]} FROM ${searched.from} AS s ORDER BY v0`, p.values);
  const q = new Params(dialect);
  const from = rows(q);
  const byCase = await engine.query(`SELECT ${binCode('v0', bf, q)} FROM ${from} AS s ORDER BY v0`, q.values);
  return { byList, byCase, from: searched.from };
}
