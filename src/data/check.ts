/**
 * The shape check every public entry point that takes a {@link Dataset} runs first (`fit`,
 * `crossValidate`, `scoreAttributes`, `predict`), so a hand-built or corrupted Dataset is a
 * GroveError naming what is wrong rather than a TypeError, or worse a silently wrong tree, deep
 * inside the grower. One pass over the codes and labels: linear in the data, small beside a fit.
 */

import { describeType } from '../core/args.js';
import { GroveError } from '../core/errors.js';
import type { Dataset } from './dataset.js';

export { describeType };

/** What the caller needs of the Dataset. */
export interface DatasetCheck {
  /** The entry point, for the message (`fit`, `predict`, …). */
  caller: string;
  /** Rows to predict need no labels; training data does. */
  labelled: boolean;
}

/** True for something shaped like a Dataset at first glance (an object with `features` and `nRows`). */
export function looksLikeDataset(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && 'features' in value;
}

/**
 * Throw GroveError (code `E_INPUT` for a value that is no Dataset at all, `E_DATA` for an
 * inconsistent one) unless `data` is a consistent Dataset: `nRows` a count; feature columns with
 * distinct names, numeric ones holding a Float64Array/Float32Array and categorical ones an Int32Array
 * of codes in -1..categories.length-1, each of `nRows` entries; and, when `labelled`, labels an
 * Int32Array of `nRows` codes into a non-empty `classes`, and `weights` (if any) `nRows` long.
 */
export function checkDataset(data: unknown, check: DatasetCheck): asserts data is Dataset {
  const { caller } = check;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new GroveError(
      `${caller}: expected a Dataset (from readDataset or datasetFromRows), got ${describeType(data)}`,
    );
  }
  const d = data as Partial<Record<keyof Dataset, unknown>>;
  const file = typeof d.source === 'string' ? d.source : undefined;
  const bad = (what: string): GroveError =>
    new GroveError(`${caller}: inconsistent Dataset: ${what}`, { file, code: 'E_DATA' });
  const n = d.nRows;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) throw bad(`nRows must be a count, got ${String(n)}`);
  if (!Array.isArray(d.features)) throw bad(`features must be an array, got ${describeType(d.features)}`);
  const names = new Set<string>();
  d.features.forEach((col: unknown, j) => {
    if (typeof col !== 'object' || col === null) throw bad(`features[${j}] is ${describeType(col)}`);
    const c = col as Record<string, unknown>;
    if (typeof c.name !== 'string') throw bad(`features[${j}].name must be a string`);
    if (names.has(c.name)) throw bad(`two features are named '${c.name}'`);
    names.add(c.name);
    const where = `feature '${c.name}'`;
    if (c.kind === 'numeric') {
      if (!(c.values instanceof Float64Array || c.values instanceof Float32Array))
        throw bad(`${where}: values must be a Float64Array or Float32Array`);
      if (c.values.length !== n) throw bad(`${where} has ${c.values.length} values for ${n} rows`);
    } else if (c.kind === 'categorical') {
      if (!(c.codes instanceof Int32Array)) throw bad(`${where}: codes must be an Int32Array`);
      if (c.codes.length !== n) throw bad(`${where} has ${c.codes.length} codes for ${n} rows`);
      if (!Array.isArray(c.categories) || !c.categories.every((v) => typeof v === 'string'))
        throw bad(`${where}: categories must be an array of strings`);
      const limit = c.categories.length;
      const codes = c.codes;
      for (let i = 0; i < n; i++) {
        if (codes[i] < -1 || codes[i] >= limit)
          throw bad(`${where}: code ${codes[i]} at row index ${i} is not -1 or a category (0..${limit - 1})`);
      }
    } else {
      throw bad(`${where}: kind must be 'numeric' or 'categorical', got ${String(c.kind)}`);
    }
  });
  if (!check.labelled) return;
  if (
    !Array.isArray(d.classes) ||
    !d.classes.every((c) => typeof c === 'string' || typeof c === 'number' || typeof c === 'boolean')
  )
    throw bad('classes must be an array of strings, numbers or booleans');
  if (!(d.labels instanceof Int32Array)) throw bad('labels must be an Int32Array');
  if (d.labels.length !== n) throw bad(`${d.labels.length} labels for ${n} rows`);
  const k = d.classes.length;
  if (k === 0 && n > 0) throw bad('classes is empty but there are rows');
  const labels = d.labels;
  for (let i = 0; i < n; i++) {
    if (!(labels[i] >= 0 && labels[i] < k))
      throw bad(`label ${labels[i]} at row index ${i} is not a class index (0..${k - 1})`);
  }
  if (d.weights !== undefined) {
    const w = d.weights as { length?: unknown } | null;
    if (typeof w !== 'object' || w === null || w.length !== n) throw bad(`weights must hold one number per row (${n})`);
  }
}
