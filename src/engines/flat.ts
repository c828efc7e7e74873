/**
 * The queries over a source whose rows stay on other servers (ClickHouse over a Distributed table,
 * docs/in-database.md): each ONE SELECT whose FROM is the source itself, its GROUP BY in that same
 * SELECT and every code an expression of it, so that a Distributed table hands the whole query to
 * its shards, each aggregates its own rows, and the server grove talks to merges the partial
 * aggregates. ClickHouse 18.16 sends its shards only the SELECT that reads the Distributed table:
 * a subquery layer would bring every row to that server.
 *
 * ClickHouse SQL. A step that reads a value twice (a binary search's position, the walk's state)
 * is a lambda over a one-element array (`arrayMap(p -> …, [prev])`), never an alias: 18.16 writes
 * an alias out where it is used, so a chain of steps each using the last twice would be a query
 * exponential in the steps. Lambda bodies read only their parameters and constants (a source
 * column read in a body would be shadowed by a parameter of the same name).
 */

import type { BinnedFeature } from '../split/histogram.js';
import type { Params } from './engine.js';
import { categoryCode, type EngineRows, rowWeight } from './rows.js';
import { classCode } from './schema.js';

/** A row's class code, weight and feature values as expressions of the source's columns. */
export interface FlatRow {
  /** The FROM item (the user's table or query) with its alias. */
  from: string;
  y: string;
  w: string;
  values: string[];
  /** Names for aliases and lambda parameters that no column of the source has. */
  name(base: string): string;
}

/** The row's expressions, no subquery (the same values as rows.ts's `weightedRows`). */
export function flatRow(rows: EngineRows, p: Params): FlatRow {
  const { schema, engine } = rows;
  const from = `${schema.source.from(p)} AS src`;
  const y = classCode(schema, engine, p);
  return { from, y, w: rowWeight(rows, y, p), values: schema.features.map((col) => col.value), name: schema.alias };
}

/** Rows per distinct value of feature `f` (`x`, `n`), by value: the binning query of engineBins. */
export function flatValueCounts(row: FlatRow, f: number, double: (e: string) => string): string {
  const x = row.values[f];
  return (
    `SELECT ${x} AS ${row.name('x')}, ${double('COUNT(*)')} AS ${row.name('n')} FROM ${row.from} ` +
    `WHERE ${x} IS NOT NULL AND ${row.w} > 0 GROUP BY ${row.name('x')} ORDER BY ${row.name('x')}`
  );
}

/** Per class: the weight and the rows (`y`, weight, rows), rows of weight 0 left out. */
export function flatClassTotals(row: FlatRow): string {
  return (
    `SELECT ${row.y} AS ${row.name('y')}, SUM(${row.w}), toFloat64(COUNT(*)) ` +
    `FROM ${row.from} WHERE ${row.w} > 0 GROUP BY ${row.name('y')}`
  );
}

/**
 * The bin code of a numeric value as one expression: the list search of rows.ts's `listSearch`
 * (the edges padded with +∞ to a power of two, each step adding itself where the list's entry is
 * below the value), each step a lambda over the last position; `bins` for NULL. `name` gives
 * the lambdas' parameters names no column of the source has. At step s the
 * position is a multiple of 2s, so the step reads only the edges at odd multiples of s: each step
 * gets a list of those alone (the edges once in all, not once per step: a shorter query).
 */
export function flatBinCode(
  value: string,
  bf: BinnedFeature,
  list: (values: number[]) => string,
  name: (base: string) => string,
): string {
  if (bf.bins === 0) return '0';
  if (bf.bins === 1) return `if(isNull(${value}), 1, 0)`;
  const size = 2 ** Math.ceil(Math.log2(bf.bins));
  const edge = (i: number) => (i < bf.bins ? bf.hi[i] : Number.POSITIVE_INFINITY);
  const [pos, v] = [name('p'), name('v')];
  let at = '[toUInt32(0)]';
  for (let step = size / 2; step >= 1; step /= 2) {
    // Entry j is the edge at 1-based position (2j + 1)·step, read where the position is 2j·step.
    const odd = Array.from({ length: size / (2 * step) }, (_, j) => edge((2 * j + 1) * step - 1));
    const entry = `${list(odd)}[intDiv(${pos}, ${2 * step}) + 1]`;
    at = `arrayMap((${pos}, ${v}) -> ${pos} + ${step} * toUInt32(${v} > ${entry}), ${at}, [ifNull(${value}, 0)])`;
  }
  return `if(isNull(${value}), ${bf.bins}, least(${at}[1], ${bf.bins - 1}))`;
}

/** The code columns c0 … c(d−1) as expressions: bin codes of numeric features, category codes of categorical ones. */
export function flatCodes(
  rows: EngineRows,
  row: FlatRow,
  binned: readonly (BinnedFeature | null)[],
  nBins: readonly number[],
  p: Params,
): string[] {
  const d = rows.engine.dialect;
  return rows.schema.features.map((col, f) => {
    const value = row.values[f];
    let code: string;
    if (col.kind === 'categorical') code = categoryCode(value, col.categories, p, d);
    else code = flatBinCode(value, binned[f]!, (edges) => d.doubleList!(edges, (e) => p.add(e)), row.name);
    return `CAST(${code} AS ${d.intType(nBins[f])})`;
  });
}

/**
 * Per (node, class, feature, code) of the rows whose node is in `first` … `first + count − 1`: the
 * weight and the rows — `groupByEveryCode`'s columns. The codes are one array joined in the SELECT
 * (`arrayJoin`, feature × 2³² + code, split after the grouping), so the WHERE and the row's node,
 * class and weight come before it, once per row (an `ARRAY JOIN` clause would compute the
 * SELECT's expressions after it, once per code).
 */
export function flatLevelCounts(
  row: FlatRow,
  codes: readonly string[],
  node: string,
  first: number,
  count: number,
): string {
  const [n, fc] = [row.name('node'), row.name('fc')];
  const joined = codes.map((c, f) => (f === 0 ? `toUInt64(${c})` : `${f} * 4294967296 + toUInt64(${c})`));
  return (
    `SELECT ${node} AS ${n}, ${row.y} AS ${row.name('y')}, ` +
    `intDiv(arrayJoin([${joined.join(', ')}]) AS ${fc}, 4294967296), ` +
    `${fc} % 4294967296, SUM(${row.w}), toFloat64(COUNT(*)) FROM ${row.from} ` +
    `WHERE ${row.w} > 0 AND ${n} >= ${first} AND ${n} < ${first + count} GROUP BY ${n}, ${row.name('y')}, ${fc}`
  );
}
