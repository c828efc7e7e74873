import { BinCutter } from '../split/histogram.js';
import type { Dialect } from '../sql/index.js';
import { Params, streamNumbers } from './engine.js';
import { type EngineRows, weightedRows } from './rows.js';

/** A numeric feature's bins: the smallest and largest training value of each. */
export interface CutBins {
  bins: number;
  lo: Float64Array;
  hi: Float64Array;
}

/** Buckets per bin: more, a longer first query and fewer rows to count value by value. */
const BUCKETS_PER_BIN = 64;
const MAX_BUCKETS = 1 << 16;
/** Rounds of value counts after which every bucket still unseen is counted at once. */
const MAX_ROUNDS = 8;

/** A range of a feature's values: from `min` to `max` (NaN: none). */
export interface Range {
  min: number;
  max: number;
}

/** A feature's rows per equal-width bucket of its range, with each bucket's smallest and largest value. */
interface Buckets {
  count: number;
  rows: Float64Array;
  min: Float64Array;
  max: Float64Array;
  /** The bucket's number in the engine (`floor((x − origin) × scale)`), to ask for its values. */
  id: Float64Array;
}

/** One bucket's distinct values and their rows, once counted. */
interface Values {
  xs: Float64Array;
  ns: Float64Array;
}

/**
 * The bins of numeric feature `f`, by `BinCutter`'s rule over every distinct training value (the
 * bins of `--engine memory`), without counting the rows of every distinct value: the engine counts
 * the rows per equal-width bucket of `range` (one that holds every training value: a few thousand groups, where a
 * `GROUP BY value` has as many as the values), and then, value by value, only the buckets where
 * a bin may close. A bucket whose rows cannot reach the current bin's share, and with enough
 * values after it, closes nothing whatever its values: its rows are added whole. Which buckets to
 * count is planned by walking the rule over the buckets as if each bucket's rows were spread evenly
 * over it, and each bucket where a bin closes so is counted with its neighbours; a walk that meets
 * a bucket not counted counts it and the plan from there (another scan). Null when the
 * range is not finite (a double grid cannot cut it).
 */
export async function bucketedBins(
  rows: EngineRows,
  f: number,
  range: Range,
  maxBins: number,
): Promise<CutBins | null> {
  const span = range.max - range.min;
  const count = Math.min(BUCKETS_PER_BIN * maxBins, MAX_BUCKETS);
  const scale = count / span;
  if (!Number.isFinite(range.min) || !Number.isFinite(span) || span <= 0 || !Number.isFinite(scale)) return null;
  const bucketed = (p: Params) =>
    `(SELECT x, CAST(FLOOR((x - ${p.add(range.min)}) * ${p.add(scale)}) AS INTEGER) AS b FROM ` +
    `${weightedRows(rows, p, (v) => [['x', v[f]]])} AS r WHERE x IS NOT NULL)`;
  const walk = new BucketWalk(rows, bucketed, await bucketCounts(rows, bucketed), maxBins);
  const { buckets } = walk;
  if (walk.countAfter() <= maxBins) {
    // Maybe no more values than bins (each its own bin): only every value tells.
    await walk.countValues(buckets.rows.keys());
    walk.countAfter();
  }
  const cutter = walk.start();
  await walk.countValues(walk.plan(0, cutter));
  walk.countAfter();
  for (let at = 0, round = 1; ; round++) {
    at = walk.walk(at, cutter, true);
    if (at >= buckets.count) break;
    await walk.countValues(round < MAX_ROUNDS ? walk.plan(at, cutter).add(at) : buckets.rows.keys());
    walk.countAfter();
  }
  return walk.result();
}

/** `bucketedBins`'s walk of `BinCutter`'s rule over the buckets, and the values counted so far. */
class BucketWalk {
  /** Each bucket's values once counted (a bucket of one value is counted from the start). */
  private readonly values: (Values | null)[];
  /** Distinct values after each bucket, at least: a bucket not counted has one, or two if min < max. */
  private readonly after: Float64Array;
  /** Buckets from here on are counted whole: fewer than maxBins values follow them. */
  private tail: number;
  private lo = new Float64Array(0);
  private hi = new Float64Array(0);
  private bin = 0;
  private fresh = true;

  constructor(
    private readonly rows: EngineRows,
    private readonly bucketed: (p: Params) => string,
    readonly buckets: Buckets,
    private readonly maxBins: number,
  ) {
    this.values = Array.from({ length: buckets.count }, (_, i) =>
      buckets.min[i] === buckets.max[i]
        ? { xs: Float64Array.of(buckets.min[i]), ns: Float64Array.of(buckets.rows[i]) }
        : null,
    );
    this.after = new Float64Array(buckets.count);
    this.tail = buckets.count;
  }

  /** Count the values of the buckets `wanted` not counted yet (one scan). */
  async countValues(wanted: Iterable<number>): Promise<void> {
    const { buckets, values } = this;
    const flags = new Int32Array(buckets.id[buckets.count - 1] + 1);
    let any = false;
    for (const i of wanted)
      if (i >= 0 && i < buckets.count && !values[i]) {
        flags[buckets.id[i]] = 1;
        any = true;
      }
    if (any) await valueCounts(this.rows, this.bucketed, flags, buckets, values, this.rows.engine.dialect.intList!);
  }

  /** Refresh `after`; returns the values of all buckets, at least. */
  countAfter(): number {
    let sum = 0;
    for (let i = this.buckets.count - 1; i >= 0; i--) {
      this.after[i] = sum;
      const v = this.values[i];
      sum += v ? v.xs.length : this.buckets.min[i] < this.buckets.max[i] ? 2 : 1;
    }
    return sum;
  }

  /** The cutter over every row, once the first counts are in; the tail and the bins' room set. */
  start(): BinCutter {
    const { buckets, maxBins } = this;
    const known = buckets.rows.reduce((a, b) => a + b, 0);
    // The number of values, or more than maxBins when some bucket is not counted (then it has more).
    let distinct = 0;
    for (let i = 0; i < buckets.count; i++) distinct += this.values[i]?.xs.length ?? maxBins + 1;
    // The tail is counted whole: there a bin may close because values run out, which only the
    // exact number of values left tells.
    while (this.tail > 0 && this.after[this.tail - 1] < maxBins) this.tail--;
    const size = Math.max(1, Math.min(distinct, maxBins));
    this.lo = new Float64Array(size);
    this.hi = new Float64Array(size);
    return new BinCutter(known, null, maxBins, distinct <= maxBins);
  }

  /** Walk the rule from bucket `i` with `cut`; `record` false to plan. Returns where it stopped. */
  walk(i: number, cut: BinCutter, record: boolean, planned?: Set<number>): number {
    const { buckets, values, after, lo, hi } = this;
    for (; i < buckets.count; i++) {
      const v = values[i];
      if (v) {
        for (let j = 0; j < v.xs.length; j++) {
          if (record && this.fresh) lo[this.bin] = v.xs[j];
          const closes = cut.closesWith(v.ns[j], v.xs.length - 1 - j + after[i]);
          if (record) {
            this.fresh = closes;
            if (closes) hi[this.bin++] = v.xs[j];
          }
        }
      } else if (i < this.tail && cut.skips(buckets.rows[i], after[i])) {
        if (record && this.fresh) lo[this.bin] = buckets.min[i];
        if (record) this.fresh = false;
      } else if (record) return i;
      else if (cut.flow(buckets.rows[i]) > 0) {
        // Planning: where a bin closes in a bucket spread evenly, count it and its neighbours.
        planned!
          .add(i - 1)
          .add(i)
          .add(i + 1);
      }
    }
    return i;
  }

  /** The buckets to count before walking on from `i`: where the rule may close a bin, and the tail. */
  plan(i: number, cut: BinCutter): Set<number> {
    const planned = new Set<number>();
    this.walk(i, cut.clone(), false, planned);
    for (let t = this.tail; t < this.buckets.count; t++) planned.add(t);
    return planned;
  }

  result(): CutBins {
    return { bins: this.bin, lo: this.lo.slice(0, this.bin), hi: this.hi.slice(0, this.bin) };
  }
}

/** The rows, smallest and largest value of each non-empty bucket, by bucket. */
async function bucketCounts(rows: EngineRows, bucketed: (p: Params) => string): Promise<Buckets> {
  const d = rows.engine.dialect;
  const p = new Params(d);
  const sql =
    `SELECT ${d.toDouble('b')}, ${d.toDouble('COUNT(*)')}, ${d.toDouble('MIN(x)')}, ${d.toDouble('MAX(x)')} ` +
    `FROM ${bucketed(p)} AS t GROUP BY b ORDER BY b`;
  const columns: number[][] = [[], [], [], []];
  await streamNumbers(rows.engine, sql, p.values, (chunk, n) => {
    for (let c = 0; c < 4; c++) for (let i = 0; i < n; i++) columns[c].push(chunk[c][i]);
  });
  const [id, count, min, max] = columns.map((c) => Float64Array.from(c));
  return { count: id.length, rows: count, min, max, id };
}

/** Count the rows per distinct value in the buckets flagged (by bucket number) into `values`. */
async function valueCounts(
  rows: EngineRows,
  bucketed: (p: Params) => string,
  flags: Int32Array,
  buckets: Buckets,
  values: (Values | null)[],
  intList: NonNullable<Dialect['intList']>,
): Promise<void> {
  const d = rows.engine.dialect;
  const p = new Params(d);
  const from = bucketed(p);
  const wanted = intList(flags, (v) => p.add(v));
  const sql =
    `SELECT x, ${d.toDouble('COUNT(*)')} FROM ${from} AS t, (SELECT ${wanted} AS wanted) AS lists ` +
    'WHERE wanted[b + 1] = 1 GROUP BY x ORDER BY x';
  const xs: number[] = [];
  const ns: number[] = [];
  await streamNumbers(rows.engine, sql, p.values, ([x, n], count) => {
    for (let i = 0; i < count; i++) {
      xs.push(x[i]);
      ns.push(n[i]);
    }
  });
  // Sorted values, sorted disjoint buckets: one walk files each value under its bucket.
  let i = 0;
  for (let start = 0; start < xs.length; ) {
    while (buckets.max[i] < xs[start]) i++;
    let end = start;
    while (end < xs.length && xs[end] <= buckets.max[i]) end++;
    values[i] = { xs: Float64Array.from(xs.slice(start, end)), ns: Float64Array.from(ns.slice(start, end)) };
    start = end;
  }
}
