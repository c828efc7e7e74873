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
    if (distinct > maxBins && d.listAgg) bin = await cutByCounts(rows, f, cutter, lo, hi);
    else {
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
    }
    if (distinct > 0 && bin === 0)
      throw new GroveError(`the engine returned no values for '${schema.features[f].name}'`, { code: 'E_DATA' });
    // A feature without values has one empty bin, as binFeature gives it.
    const bins = distinct === 0 ? 0 : bin;
    out[f] = { codes: new Uint8Array(0), bins, lo: lo.slice(0, bins), hi: hi.slice(0, bins) };
  }
  return out;
}

/**
 * The bins of feature `f` from its rows per distinct value as one list (8 bytes a distinct value
 * in grove, no array per value): the cutter finds which values close a bin, and one more query
 * fetches only the values at the bins' ends. Returns the number of bins.
 */
async function cutByCounts(
  rows: EngineRows,
  f: number,
  cutter: BinCutter,
  lo: Float64Array,
  hi: Float64Array,
): Promise<number> {
  const { engine } = rows;
  const d = engine.dialect;
  const p = new Params(d);
  const values = weightedRows(rows, p, (v) => [['x', v[f]]]);
  const distinct = `(SELECT x, ${d.toDouble('COUNT(*)')} AS n FROM ${values} AS r WHERE x IS NOT NULL GROUP BY x) AS t`;
  const [[list]] = await engine.query(`SELECT ${d.listAgg!('n', 'x')} FROM ${distinct}`, p.values);
  const counts = list as number[];
  // Positions (in value order) of each bin's first and last value.
  const firsts: number[] = [];
  const lasts: number[] = [];
  let fresh = true;
  for (let v = 0; v < counts.length; v++) {
    if (fresh) firsts.push(v);
    fresh = cutter.closes(counts[v]);
    if (fresh) lasts.push(v);
  }
  const wanted = [...new Set([...firsts, ...lasts])];
  const q = new Params(d);
  const again = weightedRows(rows, q, (v) => [['x', v[f]]]);
  const ranked =
    `(SELECT x, ${d.toDouble('row_number() OVER (ORDER BY x)')} - 1 AS v FROM ` +
    `(SELECT x FROM ${again} AS r WHERE x IS NOT NULL GROUP BY x) AS t) AS ranked`;
  const at = new Map<number, number>();
  for (const [v, x] of await engine.query(`SELECT v, x FROM ${ranked} WHERE v IN (${wanted.join(', ')})`, q.values))
    at.set(v as number, x as number);
  firsts.forEach((v, b) => (lo[b] = at.get(v)!));
  lasts.forEach((v, b) => (hi[b] = at.get(v)!));
  return lasts.length;
}
