import type { BinnedFeature } from '../split/histogram.js';
import type { Engine } from './engine.js';
import { Params } from './engine.js';
import { classCode, type EngineSchema } from './schema.js';

/** A source's training rows as the engine sees them: the schema, and per-class weights (null: 1). */
export interface EngineRows {
  engine: Engine;
  schema: EngineSchema;
  classWeights: Float64Array | null;
}

/**
 * The rows a tree grows on, as a subquery: columns `y` (class code), `w` (sample weight × class
 * weight, as `fit` multiplies them) and the columns `select` makes from the feature values
 * `v0 … v(d−1)`; rows of weight 0 are left out, as `fit` leaves them out.
 */
export function weightedRows(
  rows: EngineRows,
  p: Params,
  select: (values: readonly string[]) => readonly [alias: string, expr: string][],
): string {
  const { schema, engine, classWeights } = rows;
  const from = schema.source.from(p);
  const values = schema.features.map((_, f) => `v${f}`);
  const inner = [
    `${classCode(schema, engine, p)} AS y`,
    `${schema.weight ?? engine.dialect.toDouble('1')} AS sw`,
    ...schema.features.map((col, f) => `${col.value} AS v${f}`),
  ];
  const w = classWeights
    ? `sw * CASE ${Array.from(classWeights, (cw, c) => `WHEN y = ${c} THEN ${p.add(cw)}`).join(' ')} END`
    : 'sw';
  const outer = select(values).map(([alias, expr]) => `${expr} AS ${alias}`);
  return (
    `(SELECT * FROM (SELECT y, ${w} AS w${outer.length ? ', ' : ''}${outer.join(', ')} ` +
    `FROM (SELECT ${inner.join(', ')} FROM ${from} AS src) AS typed) AS weighted WHERE w > 0)`
  );
}

/**
 * SQL for the bin code of `value` (a double or NULL): the first bin whose largest training value
 * is ≥ it (values between two bins' fall in the upper one, but training rows have none), `bins` for
 * NULL. A binary search in nested CASEs: log₂(bins) comparisons a row, the edges bound as parameters.
 */
export function binCode(value: string, bf: BinnedFeature, p: Params): string {
  if (bf.bins === 0) return '0';
  const search = (lo: number, hi: number): string => {
    if (lo === hi) return String(lo);
    const mid = (lo + hi) >> 1;
    return `CASE WHEN ${value} <= ${p.add(bf.hi[mid])} THEN ${search(lo, mid)} ELSE ${search(mid + 1, hi)} END`;
  };
  return `CASE WHEN ${value} IS NULL THEN ${bf.bins} ELSE ${search(0, bf.bins - 1)} END`;
}

/** SQL for the category code of `value` (text or NULL) in `categories`; NULL → the missing code. */
export function categoryCode(value: string, categories: readonly string[], p: Params): string {
  if (categories.length === 0) return '0';
  const whens = categories.map((c, i) => `WHEN ${value} = ${p.add(c)} THEN ${i}`).join(' ');
  return `CASE ${whens} ELSE ${categories.length} END`;
}

export { Params };
