import type { Binarised } from './binarise.js';

/**
 * The rows of one sub-problem grouped by feature code: which known codes of each feature occur
 * (ascending), how many rows miss each feature, and, on demand, the rows bucket-sorted by one
 * feature's code (missing rows last). Everything a node of the search needs to list its tests
 * without looking at codes its rows do not have. One instance per search level: a child's
 * grouping must not overwrite its parent's while the parent is still sweeping.
 */
export class RowGroups {
  /** Occupied known codes of feature g: `occ[base[g] .. base[g] + len[g])`, ascending. */
  readonly occ: Int32Array;
  readonly len: Int32Array;
  /** Rows missing feature g. */
  readonly missing: Int32Array;
  /** Offset of feature g's codes (bins + 1 of them, the last for missing) in `occ`, `mark`, `bucketOf`. */
  readonly base: Int32Array;
  /** After `sortBy(f)`: rows ordered by f's code, bucket i at `order[start[i] .. start[i + 1])`. */
  readonly order: Int32Array;
  readonly start: Int32Array;
  private readonly mark: Uint8Array;
  private readonly bucketOf: Int32Array;

  constructor(private readonly b: Binarised) {
    const F = b.features.length;
    this.base = new Int32Array(F + 1);
    let maxBins = 0;
    for (let g = 0; g < F; g++) {
      this.base[g + 1] = this.base[g] + b.features[g].bins + 1;
      maxBins = Math.max(maxBins, b.features[g].bins);
    }
    this.occ = new Int32Array(this.base[F]);
    this.mark = new Uint8Array(this.base[F]);
    this.bucketOf = new Int32Array(this.base[F]);
    this.len = new Int32Array(F);
    this.missing = new Int32Array(F);
    this.order = new Int32Array(b.n);
    this.start = new Int32Array(maxBins + 3);
  }

  /** Group `rows[0 .. count)`: the occupied codes and missing counts of every feature. */
  scan(rows: Int32Array, count: number): void {
    const { features } = this.b;
    const { occ, mark, len, missing, base } = this;
    for (let g = 0; g < features.length; g++) {
      const f = features[g];
      const codes = f.codes;
      const o = base[g];
      let m = 0;
      let miss = 0;
      for (let i = 0; i < count; i++) {
        const c = codes[rows[i]];
        if (c === f.bins) miss++;
        else if (mark[o + c] === 0) {
          mark[o + c] = 1;
          occ[o + m++] = c;
        }
      }
      len[g] = m;
      missing[g] = miss;
      const list = occ.subarray(o, o + m);
      list.sort();
      for (let j = 0; j < m; j++) mark[o + list[j]] = 0;
    }
  }

  /** Group a row set from its rows per code (laid out as `base`): the occupied codes and missing counts. */
  fromCounts(rowsOf: Int32Array): void {
    const { features } = this.b;
    const { occ, len, missing, base } = this;
    for (let g = 0; g < features.length; g++) {
      const o = base[g];
      const bins = features[g].bins;
      let m = 0;
      for (let c = 0; c < bins; c++) if (rowsOf[o + c] > 0) occ[o + m++] = c;
      len[g] = m;
      missing[g] = rowsOf[o + bins];
    }
  }

  /**
   * Bucket-sort `rows[0 .. count)` by feature f's code into `order`, after `scan` of the same rows:
   * bucket i < len[f] holds code occ[base[f] + i], bucket len[f] the missing rows. Returns len[f].
   */
  sortBy(f: number, rows: Int32Array, count: number): number {
    const { occ, base, bucketOf, start, order } = this;
    const codes = this.b.features[f].codes;
    const missCode = this.b.features[f].bins;
    const o = base[f];
    const m = this.len[f];
    for (let i = 0; i < m; i++) bucketOf[o + occ[o + i]] = i;
    bucketOf[o + missCode] = m;
    start.fill(0, 0, m + 2);
    for (let i = 0; i < count; i++) start[bucketOf[o + codes[rows[i]]] + 1]++;
    for (let i = 0; i <= m; i++) start[i + 1] += start[i];
    // `start` is advanced while filling, then shifted back one bucket.
    for (let i = 0; i < count; i++) {
      const r = rows[i];
      order[start[bucketOf[o + codes[r]]]++] = r;
    }
    for (let i = m; i > 0; i--) start[i] = start[i - 1];
    start[0] = 0;
    return m;
  }
}
