import { GroveError } from '../core/errors.js';
import { BinCutter, type BinnedFeature } from '../split/histogram.js';
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
 * Every numeric feature's bins, by `binFeature`'s rule over the rows a tree grows on: the engine
 * counts the rows per distinct value (`GROUP BY value ORDER BY value`, streamed; one feature at a
 * time, a grouping the engine can spill to disk), and grove's `BinCutter` closes the bins over
 * the counts — so the edges are those of `--engine memory` with the same `bins`. grove holds the
 * distinct values of one feature at a time (16 bytes each).
 */
export async function engineBins(rows: EngineRows, maxBins: number, signal?: AbortSignal): Promise<EngineBins> {
  const { engine, schema } = rows;
  const d = engine.dialect;
  const out: (BinnedFeature | null)[] = schema.features.map(() => null);
  const grids: (CodeGrid | null)[] = schema.features.map(() => null);
  for (let f = 0; f < schema.features.length; f++) {
    if (schema.features[f].kind !== 'numeric') continue;
    stopIfAborted(signal);
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
    const codes = new Int32Array(distinct);
    let bin = 0;
    let fresh = true;
    for (let v = 0; v < distinct; v++) {
      codes[v] = bin;
      if (fresh) lo[bin] = xs.data[v];
      hi[bin] = xs.data[v];
      fresh = cutter.closes(ns.data[v]);
      if (fresh) bin++;
    }
    if (distinct > 0 && bin === 0)
      throw new GroveError(`the engine returned no values for '${schema.features[f].name}'`, { code: 'E_DATA' });
    // A feature without values has one empty bin, as binFeature gives it.
    const bins = distinct === 0 ? 0 : bin;
    out[f] = { codes: new Uint8Array(0), bins, lo: lo.slice(0, bins), hi: hi.slice(0, bins) };
    if (d.intList && !rows.spread) grids[f] = codeGrid(xs.data, distinct, bins, (v) => codes[v], searchSteps(bins));
  }
  return { binned: out, grids };
}
