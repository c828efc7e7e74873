/**
 * Rows to predict, checked and mapped onto the model's features. Strict by design: a misspelled
 * key, a row of the wrong length or a value of the wrong type is a GroveError naming the row
 * (`rows[i]`, 0-based as in the caller's array) and the key, never a silent missing value. Values
 * follow the readers' rules (src/data/encode.ts): a numeric cell is a finite decimal number (a
 * number, or a string such as `12`, `-3.5`, `1e3`; not `0x10`, `Infinity` or `1_000`); `null`,
 * `undefined`, `NaN`, `''` and `'?'` are missing; a category is a string, a finite number or a
 * boolean, compared as its trimmed text.
 */

import { GroveError } from '../core/errors.js';
import { checkDataset, describeType } from '../data/check.js';
import type { Dataset } from '../data/dataset.js';
import { isMissingToken } from '../data/dataset.js';
import { isNumericToken } from '../data/tokens.js';
import type { FeatureSchema } from './schema.js';

/** One input column aligned to the model's features: numeric values, or category codes (-1 = missing or unknown). */
export type AlignedColumn = Float64Array | Float32Array | Int32Array;

/**
 * Rows to predict: a loaded Dataset (extra columns are ignored), objects keyed by feature name
 * (the model's target name is allowed and ignored; any other unknown key is an error), or arrays
 * holding exactly one value per feature in the model's feature order.
 */
export type PredictInput = Dataset | ReadonlyArray<Record<string, unknown>> | ReadonlyArray<ReadonlyArray<unknown>>;

/** How strictly rows are read. */
export interface AlignOptions {
  /**
   * Let an object row leave out features: an absent key is then a missing value. Default false:
   * an absent key is an error, since a misspelled name would otherwise predict as if the value
   * were missing.
   */
  allowMissingKeys?: boolean;
}

export interface Aligned {
  columns: AlignedColumn[];
  nRows: number;
}

/** Throw GroveError unless `input` is an array of rows or a consistent Dataset. */
export function checkPredictInput(input: unknown, caller: string): asserts input is PredictInput {
  if (Array.isArray(input)) return;
  if (typeof input !== 'object' || input === null) {
    throw new GroveError(
      `${caller}: expected rows (an array of objects or arrays) or a Dataset, got ${describeType(input)}`,
    );
  }
  checkDataset(input, { caller, labelled: false });
}

/** Map input rows onto the model's features: numeric → Float64Array, categorical → model codes. */
export function alignInput(
  features: FeatureSchema[],
  input: PredictInput,
  options: AlignOptions = {},
  target?: string,
): Aligned {
  if (!Array.isArray(input)) return alignDataset(features, input as Dataset);
  const rows = input as ReadonlyArray<unknown>;
  const nRows = rows.length;
  const cells = rowCells(features, rows, options.allowMissingKeys === true, target);
  const columns = features.map((f, j) => {
    if (f.kind === 'numeric') {
      const out = new Float64Array(nRows);
      for (let i = 0; i < nRows; i++) out[i] = rowNumber(cells(i, j), i, f.name);
      return out;
    }
    const codeOf = dictionary(f);
    const out = new Int32Array(nRows);
    for (let i = 0; i < nRows; i++) {
      const text = rowCategory(cells(i, j), i, f.name);
      out[i] = text === undefined ? -1 : (codeOf.get(text) ?? -1);
    }
    return out;
  });
  return { columns, nRows };
}

/**
 * Check every row's shape once, then give cell (i, j): `row[j]` of an array row, the value of
 * feature j's key in an object row (undefined when absent and allowed).
 */
function rowCells(
  features: FeatureSchema[],
  rows: ReadonlyArray<unknown>,
  allowMissingKeys: boolean,
  target: string | undefined,
): (i: number, j: number) => unknown {
  const known = new Set(features.map((f) => f.name));
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    if (Array.isArray(row)) {
      if (row.length !== features.length)
        throw new GroveError(`rows[${i}]: expected ${features.length} values (one per feature), found ${row.length}`);
      continue;
    }
    if (row === null || typeof row !== 'object')
      throw new GroveError(`rows[${i}]: expected an object or an array, got ${describeType(row)}`);
    for (const key of Object.keys(row)) {
      if (!known.has(key) && key !== target) {
        throw new GroveError(`rows[${i}]: unknown key '${key}' (the model's features: ${listNames(features)})`);
      }
    }
    if (!allowMissingKeys) {
      for (const f of features) {
        if (!Object.hasOwn(row, f.name))
          throw new GroveError(
            `rows[${i}]: no value for feature '${f.name}' ` +
              '(give it as null if it is missing, or pass { allowMissingKeys: true })',
          );
      }
    }
  }
  const names = features.map((f) => f.name);
  return (i, j) => {
    const row = rows[i];
    if (Array.isArray(row)) return row[j];
    // Without allowMissingKeys every feature was found to be an own key above.
    if (!allowMissingKeys || Object.hasOwn(row as object, names[j])) return (row as Record<string, unknown>)[names[j]];
    return undefined;
  };
}

function listNames(features: FeatureSchema[]): string {
  const shown = features.slice(0, 20).map((f) => f.name);
  return features.length > 20 ? `${shown.join(', ')}, ... (${features.length} in all)` : shown.join(', ');
}

function rowNumber(v: unknown, i: number, name: string): number {
  if (v === null || v === undefined) return NaN;
  if (typeof v === 'number') {
    if (Number.isNaN(v) || Number.isFinite(v)) return v;
    throw new GroveError(`rows[${i}], feature '${name}': expected a finite number, found ${v}`, { code: 'E_DATA' });
  }
  if (typeof v === 'string') {
    if (isMissingToken(v)) return NaN;
    const t = v.trim();
    if (isNumericToken(t)) return Number(t);
    throw new GroveError(`rows[${i}], feature '${name}': expected a decimal number, found '${v}'`, { code: 'E_DATA' });
  }
  throw new GroveError(`rows[${i}], feature '${name}': expected a number, found ${describeType(v)}`, {
    code: 'E_DATA',
  });
}

/** The category text of a cell, or undefined when missing. */
function rowCategory(v: unknown, i: number, name: string): string | undefined {
  switch (typeof v) {
    case 'string':
      return isMissingToken(v) ? undefined : v.trim();
    case 'number':
      if (Number.isNaN(v)) return undefined;
      if (!Number.isFinite(v))
        throw new GroveError(`rows[${i}], feature '${name}': expected a finite number, found ${v}`, { code: 'E_DATA' });
      return String(v);
    case 'boolean':
    case 'bigint':
      return String(v);
    case 'undefined':
      return undefined;
    default:
      if (v === null) return undefined;
      throw new GroveError(
        `rows[${i}], feature '${name}': expected a string, number or boolean, found ${describeType(v)}`,
        { code: 'E_DATA' },
      );
  }
}

function alignDataset(features: FeatureSchema[], data: Dataset): Aligned {
  const byName = new Map(data.features.map((c) => [c.name, c]));
  const columns = features.map((f): AlignedColumn => {
    const col = byName.get(f.name);
    if (!col)
      throw new GroveError(`column '${f.name}' required by the model is missing`, {
        file: data.source,
        code: 'E_DATA',
      });
    if (f.kind === 'numeric') {
      if (col.kind === 'numeric') return col.values;
      // A column the reader saw as categorical (e.g. all missing): parse its categories.
      const asNumber = col.categories.map((c) => categoryNumber(c, f.name, data.source));
      return Float64Array.from(col.codes, (code) => (code < 0 ? NaN : asNumber[code]));
    }
    const codeOf = dictionary(f);
    if (col.kind === 'categorical') {
      const remap = col.categories.map((c) => codeOf.get(c) ?? -1);
      return Int32Array.from(col.codes, (code) => (code < 0 ? -1 : remap[code]));
    }
    return Int32Array.from(col.values, (v) => (Number.isNaN(v) ? -1 : (codeOf.get(String(v)) ?? -1)));
  });
  return { columns, nRows: data.nRows };
}

function categoryNumber(text: string, column: string, file: string | undefined): number {
  if (isMissingToken(text)) return NaN;
  const t = text.trim();
  if (isNumericToken(t)) return Number(t);
  throw new GroveError(`expected a number, found '${text}'`, { file, column, code: 'E_DATA' });
}

function dictionary(f: FeatureSchema): Map<string, number> {
  return new Map((f.categories ?? []).map((c, i) => [c, i]));
}
