/** The options every reader of a table takes, and the check of their types. */

import { GroveError } from '../core/errors.js';
import { describeType } from './check.js';

/** A column type declared by the file format (ARFF `@attribute`). */
export type DeclaredType = { kind: 'numeric' } | { kind: 'categorical'; categories: string[] };

export interface EncodeOptions {
  /** Name of the class column; default: the last column. */
  target?: string;
  /** Feature columns to treat as categorical even if every value is a number. */
  categorical?: string[];
  /** Feature columns that must be numeric (a non-numeric cell is an error). */
  numeric?: string[];
  /** Columns to leave out (an ID, a leak); the target cannot be one. An unknown name is an error. */
  drop?: string[];
  /** The only feature columns to keep (the target is kept too); the others are left out. */
  features?: string[];
  /** Where the rows came from (a file path), used in error messages and kept on the Dataset. */
  source?: string;
  /** Line number of `rows[0]`, for error messages (default 2: the line after a CSV header). */
  firstDataRow?: number;
  /**
   * Line number of each row, for error messages, when rows are not on consecutive lines (blank
   * lines, quoted fields spanning lines, ARFF comments). Overrides `firstDataRow`.
   */
  rowNumbers?: ArrayLike<number>;
  /**
   * Rows to predict: no class column. Every column is a feature; `labels` is filled with -1 and
   * `classes` is empty. `target` is ignored.
   */
  noTarget?: boolean;
  /**
   * Ignore names in `categorical`/`numeric` that are not in the header (used to read rows to
   * predict with a model's feature types, when the file may lack some columns).
   */
  ignoreUnknownColumns?: boolean;
  /**
   * Cell texts (compared after trimming) that mean "missing". Default for `encodeTable`,
   * `datasetFromRows` and ARFF: empty and `?`; the CSV reader's default is {@link DEFAULT_NA_TOKENS}.
   */
  naTokens?: readonly string[];
  /** Column types declared by the file (ARFF). `categorical`/`numeric` options take precedence. */
  declaredTypes?: Record<string, DeclaredType>;
  /**
   * Store numeric columns as float32: half the memory of float64, values rounded to the nearest
   * float32 (as scikit-learn does with every input). Trees are exact for the rounded values.
   */
  float32?: boolean;
}

export function isStringArray(value: unknown): value is string[] {
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i++) if (typeof value[i] !== 'string') return false;
  return true;
}

const OPTION_TYPES: ReadonlyMap<string, 'string' | 'boolean' | 'count' | 'strings' | 'list' | 'object'> = new Map([
  ['target', 'string'],
  ['source', 'string'],
  ['categorical', 'strings'],
  ['numeric', 'strings'],
  ['drop', 'strings'],
  ['features', 'strings'],
  ['columns', 'strings'],
  ['firstDataRow', 'count'],
  ['rowNumbers', 'list'],
  ['labels', 'list'],
  ['noTarget', 'boolean'],
  ['ignoreUnknownColumns', 'boolean'],
  ['float32', 'boolean'],
  ['declaredTypes', 'object'],
  ['naTokens', 'strings'],
]);

/** Throw GroveError (`E_OPTION`) unless `options` is an object whose known fields have their types. */
export function checkEncodeOptions(options: unknown, caller: string): void {
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw new GroveError(`${caller}: options must be an object, got ${describeType(options)}`, { code: 'E_OPTION' });
  for (const [name, type] of OPTION_TYPES) {
    const v = (options as Record<string, unknown>)[name];
    if (v === undefined) continue;
    const ok =
      type === 'string'
        ? typeof v === 'string'
        : type === 'boolean'
          ? typeof v === 'boolean'
          : type === 'count'
            ? Number.isSafeInteger(v)
            : type === 'strings'
              ? isStringArray(v)
              : type === 'list'
                ? typeof v === 'object' && v !== null && typeof (v as { length?: unknown }).length === 'number'
                : typeof v === 'object' && v !== null && !Array.isArray(v);
    if (!ok)
      throw new GroveError(`${caller}: option ${name} has the wrong type (${describeType(v)})`, { code: 'E_OPTION' });
  }
}
