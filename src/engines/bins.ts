import { GroveError } from '../core/errors.js';
import { BinCutter, type BinnedFeature } from '../split/histogram.js';
import { Params } from './engine.js';
import { type EngineRows, weightedRows } from './rows.js';

/**
 * Every numeric feature's bins, by `binFeature`'s rule over the rows a tree grows on: the engine
 * counts the rows per distinct value (`GROUP BY value ORDER BY value`, streamed), and grove's
 * `BinCutter` closes the bins — so the edges are those of `--engine memory` with the same `bins`.
 */
export async function engineBins(rows: EngineRows, maxBins: number): Promise<(BinnedFeature | null)[]> {
  const { engine, schema } = rows;
  const d = engine.dialect;
  const numeric = schema.features.flatMap((col, f) => (col.kind === 'numeric' ? [f] : []));
  const out: (BinnedFeature | null)[] = schema.features.map(() => null);
  if (numeric.length === 0) return out;
  const p = new Params(d);
  const counts = weightedRows(rows, p, (v) => numeric.map((f) => [`v${f}`, v[f]]));
  const select = numeric.flatMap((f) => [d.toDouble(`COUNT(v${f})`), d.toDouble(d.countDistinct(`v${f}`))]);
  const [stats] = await engine.query(`SELECT ${select.join(', ')} FROM ${counts} AS r`, p.values);
  for (let i = 0; i < numeric.length; i++) {
    const f = numeric[i];
    const known = Number(stats[2 * i]);
    const distinct = Number(stats[2 * i + 1]);
    const cutter = new BinCutter(known, distinct, maxBins);
    const size = Math.max(1, Math.min(distinct, maxBins));
    const lo = new Float64Array(size);
    const hi = new Float64Array(size);
    let bin = 0;
    let fresh = true;
    const q = new Params(d);
    const values = weightedRows(rows, q, (v) => [['x', v[f]]]);
    await engine.stream(
      `SELECT x, ${d.toDouble('COUNT(*)')} FROM ${values} AS r WHERE x IS NOT NULL GROUP BY x ORDER BY x`,
      q.values,
      (batch) => {
        for (const [x, n] of batch) {
          if (fresh) lo[bin] = x as number;
          hi[bin] = x as number;
          fresh = false;
          if (cutter.closes(n as number)) {
            bin++;
            fresh = true;
          }
        }
      },
    );
    if (distinct > 0 && bin === 0)
      throw new GroveError(`the engine returned no values for '${schema.features[f].name}'`, { code: 'E_DATA' });
    // A feature without values has one empty bin, as binFeature gives it.
    const bins = distinct === 0 ? 0 : bin;
    out[f] = { codes: new Uint8Array(0), bins, lo: lo.slice(0, bins), hi: hi.slice(0, bins) };
  }
  return out;
}
