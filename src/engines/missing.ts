import { Params } from './engine.js';
import { type EngineRows, weightedRows } from './rows.js';

/**
 * The first feature with a missing value among the training rows (one scan counting each
 * feature's known values), or −1. C4.5's fractional policy changes nothing without one; with one,
 * the levels hold (node, weight) entries (fan-out.ts).
 */
export async function firstMissingColumn(rows: EngineRows): Promise<number> {
  const { engine, schema } = rows;
  const d = engine.dialect;
  if (schema.features.length === 0) return -1;
  const p = new Params(d);
  const from = weightedRows(rows, p, (v) => v.map((value, f): [string, string] => [`x${f}`, value]));
  const counts = schema.features.map((_, f) => d.toDouble(`COUNT(x${f})`));
  const [result] = await engine.query(
    `SELECT ${d.toDouble('COUNT(*)')}, ${counts.join(', ')} FROM ${from} AS r`,
    p.values,
  );
  const all = Number(result[0]);
  return result.slice(1).findIndex((known) => Number(known) < all);
}
