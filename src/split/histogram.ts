import type { NumericColumn, NumericValues } from '../data/dataset.js';
import { beats, type Candidate } from './candidate.js';
import type { ScanContext } from './context.js';
import { midpoint } from './numeric.js';
import { keyValue, orderKeys, sortedKeys } from './radix-keys.js';
import { SortWork } from './sort-work.js';

/**
 * A numeric feature quantised once for histogram mode: `codes[row]` is the row's bin (the last
 * code, `missing`, for NaN). When the feature has at most `maxBins` distinct values every value
 * gets its own bin and histogram mode finds the same splits as exact mode; otherwise bins hold
 * about equal numbers of rows and never split a run of equal values.
 */
export interface BinnedFeature {
  codes: Uint8Array | Uint16Array;
  /** Number of value bins (codes 0..bins-1); code `bins` = missing. */
  bins: number;
  /** Smallest and largest training value in each bin (thresholds fall between them). */
  lo: Float64Array;
  hi: Float64Array;
}

/**
 * The bin rule of `binFeature`, one distinct value at a time in increasing order: `known` rows
 * with a value, `distinct` distinct values, at most `maxBins` bins. A bin closes when it reached
 * its share of the rows left (rows left / bins left), or when every remaining value needs its own
 * bin; the last value always closes the last bin. Whoever counts the rows per distinct value (a
 * sort here, a `GROUP BY value` in a database) gets the same bins.
 */
export class BinCutter {
  private acc = 0;
  private binsLeft: number;
  private rowsLeft: number;
  private v = 0;
  /** Every value its own bin: at most `maxBins` distinct values. */
  readonly everyValue: boolean;

  /**
   * `distinct`: the number of distinct values, or null when only `everyValue` is known (then only
   * `closesWith` and `skips`).
   */
  constructor(
    known: number,
    private readonly distinct: number | null,
    maxBins: number,
    everyValue = distinct !== null && distinct <= maxBins,
  ) {
    this.binsLeft = maxBins;
    this.rowsLeft = known;
    this.everyValue = everyValue;
  }

  /** Whether the next distinct value, held by `rows` rows, is the last of its bin. */
  closes(rows: number): boolean {
    return this.closesWith(rows, this.distinct! - ++this.v);
  }

  /**
   * {@link closes} for a value with `valuesLeft` distinct values after it. A lower bound serves
   * when it is at least the bins left (then only the rows decide): a caller that has not seen
   * every value passes what it knows.
   */
  closesWith(rows: number, valuesLeft: number): boolean {
    const last = valuesLeft === 0;
    if (this.everyValue) return true;
    if (this.binsLeft === 1) return last;
    this.acc += rows;
    const target = this.rowsLeft / this.binsLeft;
    if (this.acc >= target || valuesLeft < this.binsLeft) {
      this.rowsLeft -= this.acc;
      this.acc = 0;
      this.binsLeft--;
      return true;
    }
    return last;
  }

  /**
   * Take `rows` rows of values not seen one by one, each with at least `valuesLeft` (≥ 1) distinct
   * values after it, when none of them can close a bin; false (and nothing taken) otherwise.
   * Counts are whole numbers, so their sum is the sum of the values' counts in any order.
   */
  skips(rows: number, valuesLeft: number): boolean {
    if (this.everyValue || valuesLeft < 1) return false;
    if (this.binsLeft === 1) return true;
    if (this.acc + rows >= this.rowsLeft / this.binsLeft || valuesLeft < this.binsLeft) return false;
    this.acc += rows;
    return true;
  }

  /**
   * Bins closed by `rows` rows taken as if spread evenly over values too many to close on their own
   * (a bin closes exactly at its share): where the rule's closes fall, to plan what to count.
   */
  flow(rows: number): number {
    let closed = 0;
    while (!this.everyValue && this.binsLeft > 1) {
      const need = this.rowsLeft / this.binsLeft - this.acc;
      if (rows < need) {
        this.acc += rows;
        break;
      }
      rows -= need;
      this.rowsLeft -= this.acc + need;
      this.acc = 0;
      this.binsLeft--;
      closed++;
    }
    return closed;
  }

  /** A copy to try what is ahead on. */
  clone(): BinCutter {
    return Object.assign(Object.create(BinCutter.prototype) as BinCutter, this);
  }
}

/** Quantise `col` into at most `maxBins` bins (2 ≤ maxBins ≤ 65535). */
export function binFeature(col: NumericColumn, maxBins: number, work: SortWork = new SortWork()): BinnedFeature {
  const n = col.values.length;
  const edges = binEdges(col.values, maxBins, work);
  const out = edges.bins < 256 ? new Uint8Array(n) : new Uint16Array(n);
  writeCodes(col.values, edges, work, out, 0, 1);
  return { codes: out, bins: edges.bins, lo: edges.lo, hi: edges.hi };
}

/** A binned feature's bins, and each bin's largest `orderKeys` key (high words, low words or null). */
export interface BinEdges {
  bins: number;
  lo: Float64Array;
  hi: Float64Array;
  upperHi: Uint32Array;
  upperLo: Uint32Array | null;
}

/**
 * The bins of the values `x` (see {@link BinnedFeature}), from their keys sorted in `work`
 * (`sortedKeys`): no row order is needed, since a bin holds whole runs of equal values.
 */
export function binEdges(x: NumericValues, maxBins: number, work: SortWork): BinEdges {
  const { hi: kh, lo: kl } = sortedKeys(x, work);
  const n = x.length;
  const differs = kl ? (i: number) => kh[i] !== kh[i - 1] || kl[i] !== kl[i - 1] : (i: number) => kh[i] !== kh[i - 1];
  let known = n;
  while (known > 0 && kh[known - 1] === 0xffffffff) known--; // NaN, the largest key
  // Runs of equal keys ("distinct values") are walked twice: count them, then close the bins.
  let distinct = 0;
  for (let i = 0; i < known; i++) if (i === 0 || differs(i)) distinct++;
  const ends: number[] = []; // where each bin's rows end in sorted order
  const cutter = new BinCutter(known, distinct, maxBins);
  for (let i = 0; i < known; ) {
    let j = i + 1;
    while (j < known && !differs(j)) j++;
    if (cutter.closes(j - i)) ends.push(j);
    i = j;
  }
  const bins = ends.length;
  const lo = new Float64Array(bins);
  const hi = new Float64Array(bins);
  const upperHi = new Uint32Array(bins);
  const upperLo = kl ? new Uint32Array(bins) : null;
  // A key holds no sign of zero: a bin edge at zero takes the first zero row's value (-0 or 0),
  // as a walk over the rows in order would.
  let zero: number | undefined;
  const value = (i: number) => {
    const v = keyValue(kh[i], kl?.[i]);
    if (v !== 0) return v;
    if (zero === undefined) for (let r = 0; r < n && zero === undefined; r++) if (x[r] === 0) zero = x[r];
    return zero!;
  };
  for (let b = 0; b < bins; b++) {
    const last = ends[b] - 1;
    lo[b] = value(b === 0 ? 0 : ends[b - 1]);
    hi[b] = value(last);
    upperHi[b] = kh[last];
    if (upperLo) upperLo[b] = kl![last];
  }
  return { bins, lo, hi, upperHi, upperLo };
}

/**
 * Each row's bin code (`bins` for NaN) into `out[offset + i · stride]`: its key, recomputed in
 * `work`, looked up among the bins' largest keys, starting from a table over the keys' top 16 bits.
 */
export function writeCodes(
  x: NumericValues,
  edges: BinEdges,
  work: SortWork,
  out: Uint8Array | Uint16Array | Uint32Array,
  offset: number,
  stride: number,
): void {
  const n = x.length;
  const { bins, upperHi, upperLo } = edges;
  const kh = work.u32(0, n);
  const kl = upperLo ? work.u32(2, n) : null;
  orderKeys(x, kh, kl);
  // first[t]: the first bin whose largest key's high word reaches t · 2^16.
  const first = work.i32(0, 65536);
  for (let t = 0, b = 0; t < 65536; t++) {
    while (b < bins - 1 && upperHi[b] < t * 65536) b++;
    first[t] = b;
  }
  for (let i = 0, o = offset; i < n; i++, o += stride) {
    const h = kh[i];
    if (h === 0xffffffff) {
      out[o] = bins;
      continue;
    }
    let b = first[h >>> 16];
    if (kl) {
      const l = kl[i];
      while (upperHi[b] < h || (upperHi[b] === h && upperLo![b] < l)) b++;
    } else while (upperHi[b] < h) b++;
    out[o] = b;
  }
}

/**
 * Best split `x ≤ t` of a binned feature from the node's class histogram: `hist[bin * stride + c]`
 * holds class weights and `hist[bin * stride + classes]` the row count (stride = classes + 1);
 * the missing bin is `bins`. One pass over the bins, the count table updated per bin, reading
 * only the classes present at the node (`ScanContext.enterNode`; all of them when none was entered).
 */
export function scanHistogram(
  ctx: ScanContext,
  feature: number,
  bf: BinnedFeature,
  hist: Float64Array,
  offset: number,
  out: Candidate,
): void {
  const { classes: K, k, known, present } = ctx;
  out.reset(feature, 'numeric', k);
  const stride = K + 1;
  const t = ctx.table;
  const counts = t.counts;
  let knownRows = 0;
  known.fill(0, 0, k);
  let firstBin = -1;
  let lastBin = -1;
  for (let b = 0; b < bf.bins; b++) {
    const o = offset + b * stride;
    const rows = hist[o + K];
    if (rows === 0) continue;
    if (firstBin < 0) firstBin = b;
    lastBin = b;
    knownRows += rows;
    for (let c = 0; c < k; c++) known[c] += hist[o + present[c]];
  }
  const mo = offset + bf.bins * stride;
  for (let c = 0; c < k; c++) {
    out.unknown[c] = hist[mo + present[c]];
    out.unknownWeight += hist[mo + present[c]];
  }
  if (firstBin === lastBin || knownRows < 2 * ctx.minLeaf) return;
  const learned = ctx.missing === 'learned' && out.unknownWeight > 0;
  const inc = ctx.startBinaryScan(known, learned);
  let left = 0;
  let right = t.total;
  let leftRows = 0;
  for (let b = firstBin; b < lastBin; b++) {
    const o = offset + b * stride;
    const rows = hist[o + K];
    if (rows === 0) continue;
    for (let c = 0; c < k; c++) {
      const w = hist[o + present[c]];
      if (w === 0) continue;
      inc?.move(c, w, counts[c], counts[k + c]);
      counts[c] += w;
      counts[k + c] -= w;
      left += w;
      right -= w;
    }
    leftRows += rows;
    if (leftRows < ctx.minLeaf) continue;
    if (knownRows - leftRows < ctx.minLeaf) break;
    if (ctx.tooLight(left, right)) {
      if (right < ctx.minWeightLeaf) break;
      continue;
    }
    out.tried++;
    const score = ctx.scoreBinary(inc, left, right, out.unknown, out.unknownWeight, out.oriented);
    if (beats(score, out.oriented)) {
      // Midpoint to the next value present at this node, as exact mode does.
      let next = b + 1;
      while (hist[offset + next * stride + K] === 0) next++;
      out.keepBinary(score, midpoint(bf.hi[b], bf.lo[next]), learned ? ctx.lastMissingBranch : -1, counts, b);
    }
  }
  out.finishBinary(learned);
}
