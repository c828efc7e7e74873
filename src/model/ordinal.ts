import { badArgument } from '../core/args.js';
/**
 * Ordered categorical features (C-MBSV paper, section 3.1: "Ordered categorical values must first
 * transfer to numerical values in a preprocessing phase. E.g. a discrete feature with three values
 * of Morning, Midday and Night can be represented by 1, 2 and 3").
 *
 * `orderedCategories: { time: ['Morning', 'Midday', 'Night'] }` turns the column into a numeric one
 * holding each value's rank (1-based) before growing; the model keeps the levels on that feature
 * (`FeatureSchema.levels`) and maps input the same way when predicting, so rows are given with their
 * original strings. A value not among the levels is an error when fitting and a missing value when
 * predicting. Works for every algorithm (any tree then thresholds the rank).
 */

import { GroveError } from '../core/errors.js';
import { checkDataset } from '../data/check.js';
import type { Column, Dataset } from '../data/dataset.js';
import { isMissingToken } from '../data/dataset.js';
import type { PredictInput } from './align.js';
import type { FeatureSchema } from './schema.js';

/** `data` with the named columns replaced by their ranks, and the levels of each such column. */
export function applyOrderedCategories(
  data: Dataset,
  spec: Record<string, string[]> | undefined,
  label = 'orderedCategories',
): { data: Dataset; levels: Map<string, string[]> } {
  if (typeof label !== 'string') badArgument('applyOrderedCategories', 'label', 'a string', label);
  const levels = new Map<string, string[]>();
  if (spec !== undefined && (spec === null || typeof spec !== 'object' || Array.isArray(spec)))
    throw new GroveError(`${label} must map feature names to lists of levels`, { code: 'E_OPTION' });
  if (!spec || Object.keys(spec).length === 0) return { data, levels };
  checkDataset(data, { caller: 'applyOrderedCategories', labelled: false });
  for (const name of Object.keys(spec)) {
    const lv = spec[name];
    if (!Array.isArray(lv) || !lv.every((v) => typeof v === 'string'))
      throw new GroveError(`${label} for '${name}' must be a list of strings`, { code: 'E_OPTION' });
  }
  const names = new Set(data.features.map((c) => c.name));
  for (const name of Object.keys(spec)) {
    if (!names.has(name))
      throw new GroveError(`${label} names '${name}', which is not a feature`, { file: data.source, code: 'E_OPTION' });
  }
  const features = data.features.map((col): Column => {
    // Own properties only: a feature named like an Object.prototype member has no levels unless given.
    if (!Object.hasOwn(spec, col.name)) return col;
    const lv = spec[col.name];
    levels.set(col.name, lv.slice());
    const rank = new Map(lv.map((v, i) => [v, i + 1]));
    const values = new Float64Array(data.nRows);
    for (let i = 0; i < data.nRows; i++) {
      let raw: string | null;
      if (col.kind === 'categorical') raw = col.codes[i] < 0 ? null : col.categories[col.codes[i]];
      else raw = Number.isNaN(col.values[i]) ? null : String(col.values[i]);
      if (raw === null) {
        values[i] = NaN;
        continue;
      }
      const r = rank.get(raw);
      if (r === undefined)
        throw new GroveError(
          `value '${raw}' (data row ${i + 1}) is not one of the levels ${label} gives '${col.name}' (${lv.join(', ')})`,
          {
            file: data.source,
            column: col.name,
            code: 'E_DATA',
          },
        );
      values[i] = r;
    }
    return { kind: 'numeric', name: col.name, values };
  });
  return { data: { ...data, features }, levels };
}

/** Map the columns of `input` that the model knows as ordered categories to their ranks (unknown level = missing). */
export function encodeOrderedInput(features: readonly FeatureSchema[], input: PredictInput): PredictInput {
  const ordered = features.map((f, j) => [f, j] as const).filter(([f]) => f.levels);
  if (ordered.length === 0) return input;
  const rankOf = (f: FeatureSchema, v: unknown): number => {
    if (v === null || v === undefined || (typeof v === 'number' && Number.isNaN(v))) return NaN;
    if (typeof v === 'object' || typeof v === 'function' || typeof v === 'symbol')
      throw new GroveError(`feature '${f.name}': expected one of its levels, found ${typeof v}`, { code: 'E_DATA' });
    const s = String(v).trim();
    if (isMissingToken(s)) return NaN;
    const i = f.levels!.indexOf(s);
    return i < 0 ? NaN : i + 1;
  };
  if (!Array.isArray(input)) {
    const data = input as Dataset;
    const byName = new Map(ordered.map(([f]) => [f.name, f]));
    const columns = data.features.map((col): Column => {
      const f = byName.get(col.name);
      if (!f) return col;
      const values = new Float64Array(data.nRows);
      for (let i = 0; i < data.nRows; i++) {
        values[i] =
          col.kind === 'categorical'
            ? col.codes[i] < 0
              ? NaN
              : rankOf(f, col.categories[col.codes[i]])
            : Number.isNaN(col.values[i])
              ? NaN
              : rankOf(f, col.values[i]);
      }
      return { kind: 'numeric', name: col.name, values };
    });
    return { ...data, features: columns };
  }
  return (input as ReadonlyArray<unknown>).map((row) => {
    if (Array.isArray(row)) {
      const copy = row.slice();
      for (const [f, j] of ordered) if (j < copy.length) copy[j] = rankOf(f, copy[j]);
      return copy;
    }
    if (row === null || typeof row !== 'object') return row;
    const copy: Record<string, unknown> = { ...(row as Record<string, unknown>) };
    for (const [f] of ordered) if (Object.hasOwn(copy, f.name)) copy[f.name] = rankOf(f, copy[f.name]);
    return copy;
  }) as PredictInput;
}
