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
  const d = rows.engine.dialect;
  const bucketed = (p: Params) =>
    `(SELECT x, CAST(FLOOR((x - ${p.add(range.min)}) * ${p.add(scale)}) AS INTEGER) AS b FROM ` +
    `${weightedRows(rows, p, (v) => [['x', v[f]]])} AS r WHERE x IS NOT NULL)`;
  const buckets = await bucketCounts(rows, bucketed);
  const values: (Values | null)[] = Array.from({ length: buckets.count }, (_, i) =>
    buckets.min[i] === buckets.max[i]
      ? { xs: Float64Array.of(buckets.min[i]), ns: Float64Array.of(buckets.rows[i]) }
      : null,
  );
  const countValues = async (wanted: Iterable<number>) => {
    const flags = new Int32Array(buckets.id[buckets.count - 1] + 1);
    let any = false;
    for (const i of wanted)
      if (i >= 0 && i < buckets.count && !values[i]) {
        flags[buckets.id[i]] = 1;
        any = true;
      }
    if (any) await valueCounts(rows, bucketed, flags, buckets, values, d.intList!);
  };

  // Distinct values after each bucket, at least: a bucket not counted has one, or two if min < max.
  const after = new Float64Array(buckets.count);
  const countAfter = () => {
    let sum = 0;
    for (let i = buckets.count - 1; i >= 0; i--) {
      after[i] = sum;
      const v = values[i];
      sum += v ? v.xs.length : buckets.min[i] < buckets.max[i] ? 2 : 1;
    }
    return sum;
  };
  const known = buckets.rows.reduce((a, b) => a + b, 0);
  if (countAfter() <= maxBins) {
    // Maybe no more values than bins (each its own bin): only every value tells.
    await countValues(buckets.rows.keys());
    countAfter();
  }
  // The number of values, or more than maxBins when some bucket is not counted (then it has more).
  let distinct = 0;
  for (let i = 0; i < buckets.count; i++) distinct += values[i]?.xs.length ?? maxBins + 1;
  const cutter = new BinCutter(known, null, maxBins, distinct <= maxBins);
  // The tail, where fewer than maxBins values follow, is counted whole: there a bin may close
  // because values run out, which only the exact number of values left tells.
  let tail = buckets.count;
  while (tail > 0 && after[tail - 1] < maxBins) tail--;

  const size = Math.max(1, Math.min(distinct, maxBins));
  const lo = new Float64Array(size);
  const hi = new Float64Array(size);
  let bin = 0;
  let fresh = true;
  /** Walk the rule from bucket `i` with `cut`; `record` false to plan. Returns where it stopped. */
  const walk = (i: number, cut: BinCutter, record: boolean, planned?: Set<number>): number => {
    for (; i < buckets.count; i++) {
      const v = values[i];
      if (v) {
        for (let j = 0; j < v.xs.length; j++) {
          if (record && fresh) lo[bin] = v.xs[j];
          const closes = cut.closesWith(v.ns[j], v.xs.length - 1 - j + after[i]);
          if (record) {
            fresh = closes;
            if (closes) hi[bin++] = v.xs[j];
          }
        }
      } else if (i < tail && cut.skips(buckets.rows[i], after[i])) {
        if (record && fresh) lo[bin] = buckets.min[i];
        if (record) fresh = false;
      } else if (record) return i;
      else {
        // Planning: where a bin closes in a bucket spread evenly, count it and its neighbours.
        if (cut.flow(buckets.rows[i]) > 0)
          planned!
            .add(i - 1)
            .add(i)
            .add(i + 1);
      }
    }
    return i;
  };
  const plan = (i: number, cut: BinCutter) => {
    const planned = new Set<number>();
    walk(i, cut.clone(), false, planned);
    for (let t = tail; t < buckets.count; t++) planned.add(t);
    return planned;
  };

  await countValues(plan(0, cutter));
  countAfter();
  for (let at = 0, round = 1; ; round++) {
    at = walk(at, cutter, true);
    if (at >= buckets.count) break;
    await countValues(round < MAX_ROUNDS ? plan(at, cutter).add(at) : buckets.rows.keys());
    countAfter();
  }
  return { bins: bin, lo: lo.slice(0, bin), hi: hi.slice(0, bin) };
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
