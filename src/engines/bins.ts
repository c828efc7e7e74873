import { GroveError } from '../core/errors.js';
import { BinCutter, type BinnedFeature } from '../split/histogram.js';
import { bucketedBins, type CutBins, type Range } from './bucket-bins.js';
import { type CodeGrid, codeGrid, searchSteps } from './code-grid.js';
import { Params, stopIfAborted, streamNumbers } from './engine.js';
import { flatRow, flatValueCounts } from './flat.js';
import { type EngineRows, weightedRows } from './rows.js';

/** A growing list of doubles (8 bytes a value, no JS value per entry). */
class Doubles {
  data = new Float64Array(1024);
  length = 0;
  push(v: number): void {
    if (this.length === this.data.length) {
      const grown = new Float64Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = v;
  }
}

/** Every feature's bins (null: categorical) and, where the engine can use one, its {@link CodeGrid}. */
export interface EngineBins {
  binned: (BinnedFeature | null)[];
  grids: (CodeGrid | null)[];
}

/**
 * Every numeric feature's bins, by `binFeature`'s rule over the rows a tree grows on, so the edges
 * are those of `--engine memory` with the same `bins`. Where the engine has integer lists (DuckDB, PostgreSQL),
 * from rows per bucket of each feature's range and the rows per value of a few buckets
 * (bucket-bins.ts); elsewhere, or when a range is not finite, from the rows per distinct value
 * (`GROUP BY value ORDER BY value`, streamed, one feature at a time, a grouping the engine can spill
 * to disk; grove holds one feature's distinct values, 16 bytes each).
 */
export async function engineBins(rows: EngineRows, maxBins: number, signal?: AbortSignal): Promise<EngineBins> {
  const { engine, schema } = rows;
  const d = engine.dialect;
  const out: (BinnedFeature | null)[] = schema.features.map(() => null);
  const grids: (CodeGrid | null)[] = schema.features.map(() => null);
  const byBucket = d.intList !== undefined && !rows.spread;
  const ranges = byBucket ? await featureRanges(rows) : null;
  for (let f = 0; f < schema.features.length; f++) {
    if (schema.features[f].kind !== 'numeric') continue;
    stopIfAborted(signal);
    const cut = (ranges && (await bucketedBins(rows, f, ranges[f], maxBins))) ?? (await valueBins(rows, f, maxBins));
    out[f] = { codes: new Uint8Array(0), ...cut };
    if (byBucket) grids[f] = codeGrid(cut.lo, cut.hi, cut.bins, searchSteps(cut.bins));
  }
  return { binned: out, grids };
}

/**
 * Each numeric feature's range, wide enough for the rows a tree grows on (the buckets need no
 * more): the stored column's MIN and MAX, which DuckDB reads from a Parquet file's statistics;
 * where those are not finite (a NaN among the values) or the column is not stored as numbers, the
 * range of the training rows' values (one scan).
 */
async function featureRanges(rows: EngineRows): Promise<Range[]> {
  const { engine, schema } = rows;
  const d = engine.dialect;
  const ranges: Range[] = schema.features.map(() => ({ min: Number.NaN, max: Number.NaN }));
  const numeric = schema.features.flatMap((col, f) => (col.kind === 'numeric' ? [f] : []));
  const minMax = async (features: number[], from: (p: Params) => string, value: (f: number) => string) => {
    if (features.length === 0) return;
    const p = new Params(d);
    const source = from(p);
    const columns = features.map((f) => `${d.toDouble(`MIN(${value(f)})`)}, ${d.toDouble(`MAX(${value(f)})`)}`);
    const [row] = await engine.query(`SELECT ${columns.join(', ')} FROM ${source}`, p.values);
    const number = (v: unknown) => (v === null ? Number.NaN : Number(v));
    features.forEach((f, j) => {
      ranges[f] = { min: number(row[2 * j]), max: number(row[2 * j + 1]) };
    });
  };
  const stored = numeric.filter((f) => schema.features[f].stored !== null);
  await minMax(
    stored,
    (p) => `${schema.source.from(p)} AS src`,
    (f) => schema.features[f].stored!,
  );
  const finite = (f: number) => Number.isFinite(ranges[f].min) && Number.isFinite(ranges[f].max);
  const rest = numeric.filter((f) => !finite(f));
  await minMax(
    rest,
    (p) => `${weightedRows(rows, p, (v) => rest.map((f) => [`x${f}`, v[f]]))} AS r`,
    (f) => `x${f}`,
  );
  return ranges;
}

/** Feature `f`'s bins from the rows of each distinct value. */
async function valueBins(rows: EngineRows, f: number, maxBins: number): Promise<CutBins> {
  const { engine, schema } = rows;
  const d = engine.dialect;
  const p = new Params(d);
  // Over rows on other servers, one SELECT: each server counts its own rows (flat.ts).
  const sql = rows.spread
    ? flatValueCounts(flatRow(rows, p), f, d.toDouble)
    : `SELECT x, ${d.toDouble('COUNT(*)')} AS n FROM ${weightedRows(rows, p, (v) => [['x', v[f]]])} AS r ` +
      'WHERE x IS NOT NULL GROUP BY x ORDER BY x';
  const xs = new Doubles();
  const ns = new Doubles();
  let known = 0;
  await streamNumbers(engine, sql, p.values, ([x, n], count) => {
    for (let i = 0; i < count; i++) {
      xs.push(x[i]);
      ns.push(n[i]);
      known += n[i];
    }
  });
  const distinct = xs.length;
  const cutter = new BinCutter(known, distinct, maxBins);
  const size = Math.max(1, Math.min(distinct, maxBins));
  const lo = new Float64Array(size);
  const hi = new Float64Array(size);
  let bin = 0;
  let fresh = true;
  for (let v = 0; v < distinct; v++) {
    if (fresh) lo[bin] = xs.data[v];
    hi[bin] = xs.data[v];
    fresh = cutter.closes(ns.data[v]);
    if (fresh) bin++;
  }
  if (distinct > 0 && bin === 0)
    throw new GroveError(`the engine returned no values for '${schema.features[f].name}'`, { code: 'E_DATA' });
  // A feature without values has one empty bin, as binFeature gives it.
  const bins = distinct === 0 ? 0 : bin;
  return { bins, lo: lo.slice(0, bins), hi: hi.slice(0, bins) };
}
