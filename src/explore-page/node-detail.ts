import { GroveError } from '../core/errors.js';
import { BUILTIN_CRITERIA } from '../criteria/registry.js';
import { createTable, recomputeTotals } from '../criteria/table.js';
import type { Criterion } from '../criteria/types.js';
import type { Dataset } from '../data/dataset.js';
import { subsetRows } from '../data/subset.js';
import { formatNumber } from '../export/conditions.js';
import { type AttributeScore, scoreAttributes } from '../learn/score.js';
import { OPTION_DESCRIPTORS, type OptionDescriptor, resolveOptions } from '../options/options.js';
import type { FitOptions } from '../options/types.js';
import { midpoint } from '../split/numeric.js';

/** One feature's best split under each of the ten built-in measures, at one node. */
export interface FeatureScores {
  name: string;
  type: 'numeric' | 'categorical';
  /** Per measure (BUILTIN_CRITERIA order): the raw value as `grove score` prints it, null when no valid split. */
  scores: (number | null)[];
  /** Per measure: that best split in words. */
  splits: string[];
}

export interface MeasureScores {
  /**
   * `binaryCategories`: the options split categories multiway, which this measure cannot score, so it scored
   * binary ones.
   */
  measures: { name: string; better: 'higher' | 'lower'; best: string | null; binaryCategories?: true }[];
  features: FeatureScores[];
}

/**
 * The options `grove score` takes (the preset and the split and stop groups): the page scores a
 * node with exactly what `grove score` would be given.
 */
export function scoreOptions(options: FitOptions): FitOptions {
  const out: Record<string, unknown> = {};
  if (options.algorithm !== undefined) out.algorithm = options.algorithm;
  for (const d of OPTION_DESCRIPTORS as readonly OptionDescriptor[]) {
    const value = (options as Record<string, unknown>)[d.name];
    if ((d.group === 'split' || d.group === 'stop') && value !== undefined) out[d.name] = value;
  }
  return out as FitOptions;
}

function describe(a: AttributeScore): string {
  if (!a.split) return '(no valid split)';
  if ('threshold' in a.split) return `<= ${formatNumber(a.split.threshold)}`;
  if ('values' in a.split) return `one branch per value: ${a.split.values.join(', ')}`;
  return `in {${a.split.left.join(', ')}}`;
}

/**
 * Every feature's best split at the rows `rows`, under each built-in measure: `scoreAttributes`
 * (the code behind `grove score`) on those rows, once per measure. A measure that scores binary
 * splits only (twoing) gets binary categorical splits when the options ask for multiway ones
 * (`grove score` would refuse the combination), and says so.
 */
export function measureScores(data: Dataset, rows: Int32Array, options: FitOptions): MeasureScores {
  const subset = rows.length === data.nRows ? data : subsetRows(data, rows);
  const base = scoreOptions(options);
  const multiway = resolveOptions(base).categoricalSplit === 'multiway';
  const features: FeatureScores[] = data.features.map((col) => ({
    name: col.name,
    type: col.kind,
    scores: [],
    splits: [],
  }));
  const measures = BUILTIN_CRITERIA.map((c) => {
    const binaryOnly = multiway && c.binaryOnly === true;
    const opts: FitOptions = { ...base, criterion: c.name, ...(binaryOnly ? { categoricalSplit: 'binary' } : {}) };
    const report = scoreAttributes(subset, opts);
    report.attributes.forEach((a, f) => {
      features[f].scores.push(a.score);
      features[f].splits.push(describe(a));
    });
    return {
      name: c.name,
      better: c.better,
      best: report.best,
      ...(binaryOnly ? { binaryCategories: true as const } : {}),
    };
  });
  return { measures, features };
}

/**
 * A measure's value against the threshold of a binary numeric split: one point per midpoint between distinct
 * known values.
 */
export interface ThresholdCurve {
  feature: string;
  measure: string;
  better: 'higher' | 'lower';
  points: [threshold: number, value: number][];
  /** Candidate thresholds before thinning (the chart keeps at most `limit`). */
  candidates: number;
  /** Rows with a missing value, left out. */
  missing: number;
}

/**
 * `measure` over every threshold `x <= t` of numeric feature `f` at the rows `rows` (known values
 * only), thinned to at most `limit` points (the best one always kept).
 */
export function thresholdCurve(
  data: Dataset,
  rows: Int32Array,
  f: number,
  measure: Criterion,
  limit = 400,
): ThresholdCurve {
  const col = data.features[f];
  if (col.kind !== 'numeric') throw new GroveError(`thresholdCurve: feature ${col.name} is not numeric`);
  const k = data.classes.length;
  const known: number[] = [];
  for (const r of rows) if (!Number.isNaN(col.values[r])) known.push(r);
  known.sort((a, b) => col.values[a] - col.values[b]);
  const weight = (r: number) => (data.weights ? data.weights[r] : 1);
  const table = createTable(2, k);
  for (const r of known) table.counts[k + data.labels[r]] += weight(r);
  recomputeTotals(table);
  const all: [number, number][] = [];
  for (let i = 0; i + 1 < known.length; i++) {
    const r = known[i];
    const c = data.labels[r];
    const w = weight(r);
    table.counts[c] += w;
    table.counts[k + c] -= w;
    table.branchTotals[0] += w;
    table.branchTotals[1] -= w;
    const lo = col.values[r];
    const hi = col.values[known[i + 1]];
    if (lo === hi) continue;
    all.push([midpoint(lo, hi), measure.evaluate(table)]);
  }
  let best = -1;
  const sign = measure.better === 'higher' ? 1 : -1;
  all.forEach(([, v], i) => {
    if (Number.isFinite(v) && (best < 0 || sign * v > sign * all[best][1])) best = i;
  });
  const stride = Math.max(1, Math.ceil(all.length / limit));
  const points = all.filter((_, i) => i % stride === 0 || i === best || i === all.length - 1);
  return {
    feature: col.name,
    measure: measure.name,
    better: measure.better,
    points,
    candidates: all.length,
    missing: rows.length - known.length,
  };
}
