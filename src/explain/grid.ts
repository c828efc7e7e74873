import { GroveError } from '../core/errors.js';
import type { AlignedColumn } from '../model/align.js';
import type { FeatureSchema } from '../model/schema.js';

/**
 * The values a partial dependence curve is computed at, for one feature: the aligned values
 * (numbers, or category codes of the model) and how to show them (numbers, category or level names).
 */
export interface Grid {
  values: Float64Array | Int32Array;
  labels: (number | string)[];
}

/** How a grid is drawn from the data when none is given. */
export interface GridOptions {
  /** Most points of a numeric grid (default 100): every distinct value when there are no more. */
  gridResolution: number;
  /** Lowest and highest quantile of a numeric grid (default 0.05 and 0.95). */
  percentiles: readonly [number, number];
}

/**
 * The grid of feature `f` (`column` its aligned data): a categorical feature's categories present
 * in the data, in the model's order; an ordered one's levels present; a numeric feature's distinct
 * values when there are at most `gridResolution`, else that many quantiles (linear interpolation
 * between order statistics) evenly spaced from the low to the high percentile, repeats dropped.
 */
export function dataGrid(f: FeatureSchema, column: AlignedColumn, options: GridOptions, caller: string): Grid {
  if (f.kind === 'categorical' || f.levels) {
    const names = f.categories ?? f.levels ?? [];
    // Category codes from 0, level ranks from 1.
    const base = f.levels ? 1 : 0;
    const seen = new Uint8Array(names.length);
    for (let i = 0; i < column.length; i++) {
      const v = column[i] - base;
      if (v >= 0 && v < names.length) seen[v] = 1;
    }
    const codes: number[] = [];
    for (let v = 0; v < names.length; v++) if (seen[v]) codes.push(v + base);
    if (codes.length === 0) throw noValues(f, caller);
    const values = f.kind === 'categorical' ? Int32Array.from(codes) : Float64Array.from(codes);
    return { values, labels: codes.map((v) => names[v - base]) };
  }
  let n = 0;
  const all = new Float64Array(column.length);
  for (let i = 0; i < column.length; i++) if (!Number.isNaN(column[i])) all[n++] = column[i];
  if (n === 0) throw noValues(f, caller);
  const known = all.subarray(0, n);
  known.sort();
  const distinct: number[] = [];
  for (let i = 0; i < known.length; i++) if (i === 0 || known[i] !== known[i - 1]) distinct.push(known[i]);
  if (distinct.length <= options.gridResolution) return { values: Float64Array.from(distinct), labels: distinct };
  const [low, high] = options.percentiles;
  const points: number[] = [];
  for (let j = 0; j < options.gridResolution; j++) {
    const q = quantile(known, low + ((high - low) * j) / (options.gridResolution - 1));
    if (points.length === 0 || q !== points[points.length - 1]) points.push(q);
  }
  return { values: Float64Array.from(points), labels: points };
}

/** Quantile p of sorted values (numpy's default: linear between the order statistics). */
function quantile(sorted: Float64Array, p: number): number {
  const at = p * (sorted.length - 1);
  const lo = Math.floor(at);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo] + (at - lo) * (sorted[hi] - sorted[lo]);
}

function noValues(f: FeatureSchema, caller: string): GroveError {
  return new GroveError(`${caller}: feature '${f.name}' has no known value in the data to draw a grid from`);
}

/** A grid the caller gave: numbers for a numeric feature, category (or level) names for a categorical one. */
export function givenGrid(f: FeatureSchema, grid: readonly unknown[], caller: string): Grid {
  if (!Array.isArray(grid) || grid.length === 0)
    throw new GroveError(`${caller}: grid must be a non-empty array of values of '${f.name}'`);
  if (f.kind === 'numeric' && !f.levels) {
    const values = new Float64Array(grid.length);
    grid.forEach((v, j) => {
      if (typeof v !== 'number' || !Number.isFinite(v))
        throw new GroveError(`${caller}: grid[${j}] must be a finite number for numeric feature '${f.name}'`);
      values[j] = v;
    });
    return { values, labels: Array.from(values) };
  }
  const names = f.categories ?? f.levels ?? [];
  const index = new Map(names.map((n, v) => [n, v]));
  const base = f.levels ? 1 : 0;
  const known = `${names.slice(0, 20).join(', ')}${names.length > 20 ? ', …' : ''}`;
  const codes = grid.map((v, j) => {
    const code = index.get(String(v));
    if (code === undefined)
      throw new GroveError(`${caller}: grid[${j}] is not a category of '${f.name}' (known: ${known})`);
    return code + base;
  });
  return {
    values: f.kind === 'categorical' ? Int32Array.from(codes) : Float64Array.from(codes),
    labels: codes.map((c) => names[c - base]),
  };
}
