import type { NumericValues } from '../data/dataset.js';
import { argsortNumeric } from '../split/argsort.js';

/**
 * Ranks of numeric columns, the per-node sorting grower's keys (src/learn/grow-node-sort.ts): a
 * forest's trees share them, and a parallel forest's threads share one copy in SharedArrayBuffers
 * (`shareRanks`, `adoptRanks`) instead of each making its own.
 */
/** A numeric column's rows' ranks among its distinct values, and those values by rank. */
export interface Ranked {
  ranks: Int32Array;
  distinct: Float64Array;
}

const rankCache = new WeakMap<NumericValues, Ranked>();

/**
 * Each row's rank among the column's distinct values (no missing value; -0 ranks with 0), made
 * once per column: sorting a node's rows by rank orders them as by value, and ranks are small
 * integers that a counting sort orders in linear time where a node's span is small.
 */
export function ranksOf(values: NumericValues): Ranked {
  return rankCache.get(values) ?? makeRanks(values, false);
}

/** `ranksOf`'s arrays made (in SharedArrayBuffers when `shared`) and cached. */
function makeRanks(values: NumericValues, shared: boolean): Ranked {
  const n = values.length;
  const order = argsortNumeric(values);
  const ranks = shared ? new Int32Array(new SharedArrayBuffer(4 * n)) : new Int32Array(n);
  const all = new Float64Array(n);
  let rank = -1;
  let prev = Number.NaN;
  for (let i = 0; i < order.length; i++) {
    const v = values[order[i]];
    if (v !== prev) all[++rank] = v;
    ranks[order[i]] = rank;
    prev = v;
  }
  const distinct = shared ? new Float64Array(new SharedArrayBuffer(8 * (rank + 1))) : all.slice(0, rank + 1);
  if (shared) distinct.set(all.subarray(0, rank + 1));
  const ranked = { ranks, distinct };
  rankCache.set(values, ranked);
  return ranked;
}

/**
 * The columns' ranks in SharedArrayBuffers, made here (or taken from the cache when they are
 * shared already), for a worker to `adoptRanks` (Node only: browsers may lack SharedArrayBuffer).
 */
export function shareRanks(columns: NumericValues[]): Ranked[] {
  return columns.map((values) => {
    const cached = rankCache.get(values);
    if (!cached) return makeRanks(values, true);
    if (cached.ranks.buffer instanceof SharedArrayBuffer) return cached;
    const ranks = new Int32Array(new SharedArrayBuffer(cached.ranks.byteLength));
    const distinct = new Float64Array(new SharedArrayBuffer(cached.distinct.byteLength));
    ranks.set(cached.ranks);
    distinct.set(cached.distinct);
    const ranked = { ranks, distinct };
    rankCache.set(values, ranked);
    return ranked;
  });
}

/** Drop the columns' ranks (a forest's fit is done with them). */
export function forgetRanks(columns: NumericValues[]): void {
  for (const values of columns) {
    rankCache.delete(values);
    tableCache.delete(values);
  }
}

/**
 * A column's ranks in the narrowest type that holds every column's (the same type for all, so the
 * grower's loops see one shape): fewer bytes fetched per row.
 */
export type RankColumn = Uint8Array | Uint16Array | Int32Array;

/** The columns' narrowed ranks and distinct values (`rankTables`), by their first column. */
const tableCache = new WeakMap<
  NumericValues,
  { columns: NumericValues[]; ranks: RankColumn[]; distinct: Float64Array[] }
>();

/**
 * `ranksOf` every column, the ranks narrowed (uint8 when no column has more than 256 distinct
 * values, uint16 up to 65,536, else the int32 ranks themselves); a forest's trees share them.
 */
export function rankTables(columns: NumericValues[]): { ranks: RankColumn[]; distinct: Float64Array[] } {
  const last = tableCache.get(columns[0]);
  if (last && last.columns.length === columns.length && last.columns.every((c, i) => c === columns[i])) return last;
  const ranked = columns.map(ranksOf);
  let most = 0;
  for (const r of ranked) most = Math.max(most, r.distinct.length);
  const ranks = ranked.map((r) =>
    most <= 256 ? Uint8Array.from(r.ranks) : most <= 65536 ? Uint16Array.from(r.ranks) : r.ranks,
  );
  const tables = { columns, ranks, distinct: ranked.map((r) => r.distinct) };
  tableCache.set(columns[0], tables);
  return tables;
}

/** Take ranks another thread made (`shareRanks`) as these columns' (the same values, received). */
export function adoptRanks(columns: NumericValues[], ranked: Ranked[]): void {
  for (let f = 0; f < columns.length; f++)
    if (ranked[f].ranks.length === columns[f].length) rankCache.set(columns[f], ranked[f]);
}
