import { GroveError } from '../core/errors.js';
import { Params } from './engine.js';
import { type EngineRows, weightedRows } from './rows.js';

/**
 * C4.5's fractional missing values send a row down every branch with a share of its weight: a row
 * in several nodes with a weight per node, which the level tables (one node a row) do not hold.
 * Without missing values the policy changes nothing, so the rows are checked (one scan) and a fit
 * over rows with a missing value is refused, naming the first such column and `flag`.
 */
export async function refuseMissingValues(rows: EngineRows, flag: string): Promise<void> {
  const { engine, schema } = rows;
  const d = engine.dialect;
  if (schema.features.length === 0) return;
  const p = new Params(d);
  const from = weightedRows(rows, p, (v) => v.map((value, f): [string, string] => [`x${f}`, value]));
  const counts = schema.features.map((_, f) => d.toDouble(`COUNT(x${f})`));
  const [result] = await engine.query(
    `SELECT ${d.toDouble('COUNT(*)')}, ${counts.join(', ')} FROM ${from} AS r`,
    p.values,
  );
  const all = Number(result[0]);
  const f = result.slice(1).findIndex((known) => Number(known) < all);
  if (f < 0) return;
  throw new GroveError(
    `${flag} fractional (rows with a missing value split across branches) cannot be computed inside ` +
      `${d.name}: column '${schema.features[f].name}' has missing values; use --engine memory, ` +
      `or ${flag} majority or learned`,
    { code: 'E_OPTION' },
  );
}
