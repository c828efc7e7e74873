/**
 * Turning a table of string cells into a columnar {@link Dataset}: target selection, per-column
 * type inference (numeric vs categorical), dictionary encoding and class-label coding.
 *
 * PURE: no Node imports, so it runs in a browser or a worker. ARFF (arff.ts) and the TypeScript
 * API ({@link datasetFromRows}) build their datasets through {@link encodeTable}; the streaming
 * CSV/TSV reader (delimited.ts) builds its typed columns straight from bytes but follows the same
 * rules and shares their helpers ({@link planColumns}, {@link orderCategories}, {@link orderClasses}):
 *
 * - Missing cell: one of `naTokens` after trimming: empty or `?` here ({@link isMissingToken}),
 *   {@link DEFAULT_NA_TOKENS} in CSV/TSV files. Numeric -> NaN, categorical -> -1.
 *   A missing class label is an error (grove cannot learn from an unlabelled row).
 * - A feature is numeric when every non-missing cell is a finite decimal number (see
 *   {@link isNumericToken}; `0x10`, `1_000`, `Infinity` and `NaN` are not), otherwise categorical.
 *   `categorical` / `numeric` options force the kind; ARFF declarations give it via `declaredTypes`.
 * - Categories: trimmed strings in order of first appearance, except that when every category
 *   looks like a number (e.g. soybean's integer codes forced categorical) they are sorted
 *   numerically, so the dictionary does not depend on row order. Declared (ARFF) categories keep
 *   the declared order, including values that never occur.
 * - Classes: the distinct labels, sorted; if every label is a number (and no integer label is
 *   beyond 2^53) they are stored as JS numbers (`'1','2','10'` -> `[1, 2, 10]`; labels with the
 *   same numeric value, such as `1` and `1.0`, are one class), otherwise as strings exactly as
 *   written, sorted with plain `<` ({@link orderClasses}). This holds for ARFF too (declared class
 *   values are validated but do not set the order), so a CSV and an ARFF copy of the same data
 *   give the same class codes.
 *
 * Complexity: one pass over the cells per column (a second pass only for a column that turns out
 * categorical); no per-cell allocation beyond `trim()`.
 */

import { GroveError } from '../core/errors.js';
import { describeType } from './check.js';
import type { ClassLabel, Column, Dataset, NumericValues } from './dataset.js';
import { isMissingToken } from './dataset.js';

/** A column type declared by the file format (ARFF `@attribute`). */
export type DeclaredType = { kind: 'numeric' } | { kind: 'categorical'; categories: string[] };

export interface EncodeOptions {
  /** Name of the class column; default: the last column. */
  target?: string;
  /** Feature columns to treat as categorical even if every value is a number. */
  categorical?: string[];
  /** Feature columns that must be numeric (a non-numeric cell is an error). */
  numeric?: string[];
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

/**
 * The cell texts a CSV/TSV file's reader takes as missing unless told otherwise (`--na`):
 * empty, `?` (Weka/UCI), `NA` (R), `N/A`, `NaN` and `null`. Matched exactly after trimming.
 */
export const DEFAULT_NA_TOKENS: readonly string[] = Object.freeze(['', '?', 'NA', 'N/A', 'NaN', 'null']);

/** Strict decimal / scientific number text: `12`, `-3.5`, `.5`, `5.`, `1e-3`, `+2E+10` (finite or not; see {@link isNumericToken}). */
export const NUMBER_RE = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** True when a (trimmed) token is a finite decimal number by grove's rules. */
export function isNumericToken(trimmed: string): boolean {
  return typeof trimmed === 'string' && NUMBER_RE.test(trimmed) && Number.isFinite(Number(trimmed));
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The header's names for a message (the first 30). */
export function listColumns(header: readonly string[]): string {
  const shown = header.slice(0, 30).join(', ');
  return header.length > 30 ? `${shown}, ... (${header.length} in all)` : shown;
}

function isStringArray(value: unknown): value is string[] {
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i++) if (typeof value[i] !== 'string') return false;
  return true;
}

const OPTION_TYPES: ReadonlyMap<string, 'string' | 'boolean' | 'count' | 'strings' | 'list' | 'object'> = new Map([
  ['target', 'string'],
  ['source', 'string'],
  ['categorical', 'strings'],
  ['numeric', 'strings'],
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

/**
 * Encode a table of string cells (`rows[i][j]` is the cell of column `header[j]`) into a Dataset.
 * Throws {@link GroveError} (with file, row and column where they apply) on bad input, including
 * arguments of the wrong type (code `E_INPUT`).
 */
export function encodeTable(header: string[], rows: string[][], options: EncodeOptions = {}): Dataset {
  checkEncodeOptions(options, 'encodeTable');
  if (!isStringArray(header)) throw new GroveError('encodeTable: header must be an array of strings');
  if (!Array.isArray(rows)) throw new GroveError(`encodeTable: rows must be an array, got ${describeType(rows)}`);

  const file = options.source;
  const nCols = header.length;
  const nRows = rows.length;
  const firstDataRow = options.firstDataRow ?? 2;
  const rowNumbers = options.rowNumbers;
  const lineOf = (i: number): number => (rowNumbers ? rowNumbers[i] : firstDataRow + i);
  const types = options.declaredTypes;
  // Own properties only: a column named like an Object.prototype member declares nothing.
  const declaredType = (name: string) => (types && Object.hasOwn(types, name) ? types[name] : undefined);
  const naSet = options.naTokens && new Set(options.naTokens.map((t) => t.trim()));
  const isMissing = naSet ? (raw: string) => naSet.has(raw.trim()) : isMissingToken;

  // ---- header and options -------------------------------------------------------------------
  const colIndex = indexColumns(header, file);
  const { targetIdx, forced } = planColumns(header, colIndex, options);
  const targetName = targetIdx >= 0 ? header[targetIdx] : '';
  if (nRows === 0) throw new GroveError('no data rows', { file, code: 'E_DATA' });
  for (let i = 0; i < nRows; i++) {
    if (!Array.isArray(rows[i])) throw new GroveError(`rows[${i}] must be an array of cells`, { file, code: 'E_DATA' });
    const len = rows[i].length;
    if (len !== nCols)
      throw new GroveError(`expected ${nCols} fields, found ${len}`, { file, code: 'E_DATA', row: lineOf(i) });
  }

  // ---- features -----------------------------------------------------------------------------
  const features: Column[] = [];
  for (let j = 0; j < nCols; j++) {
    if (j === targetIdx) continue;
    const name = header[j];
    const declared = declaredType(name);
    const kind = forced.get(name) ?? declared?.kind;
    const column: ColumnCells = { rows, j, name, file, lineOf, isMissing };
    if (kind === 'numeric') {
      features.push({
        kind: 'numeric',
        name,
        values: encodeNumeric(column, true, options.float32 === true)!,
      });
    } else if (kind === 'categorical') {
      const declaredCats = declared?.kind === 'categorical' ? declared.categories : undefined;
      features.push(encodeCategorical(column, declaredCats));
    } else {
      const values = encodeNumeric(column, false, options.float32 === true);
      features.push(values ? { kind: 'numeric', name, values } : encodeCategorical(column, undefined));
    }
  }

  // ---- target -------------------------------------------------------------------------------
  if (targetIdx < 0) {
    const unlabelled = new Int32Array(nRows).fill(-1);
    return {
      features,
      labels: unlabelled,
      classes: [],
      targetName,
      nRows,
      ...(file !== undefined ? { source: file } : {}),
    };
  }
  const declaredTarget = declaredType(targetName);
  const allowed =
    declaredTarget?.kind === 'categorical' ? new Set(declaredTarget.categories.map((c) => c.trim())) : undefined;
  const { labels, classes } = encodeLabels({ rows, j: targetIdx, name: targetName, file, lineOf, isMissing }, allowed);

  return { features, labels, classes, targetName, nRows, ...(file !== undefined ? { source: file } : {}) };
}

/**
 * Each column's index by name, after checking the names are non-empty and distinct. Shared by the
 * readers of typed columns (Parquet, Arrow) and {@link encodeTable}.
 */
export function indexColumns(header: readonly string[], file: string | undefined): Map<string, number> {
  if (header.length === 0) throw new GroveError('no columns', { file, code: 'E_DATA' });
  const colIndex = new Map<string, number>();
  for (let j = 0; j < header.length; j++) {
    const name = header[j];
    if (name.trim() === '')
      throw new GroveError(`empty column name (column ${j + 1})`, { file, code: 'E_DATA', column: String(j + 1) });
    if (colIndex.has(name))
      throw new GroveError(`duplicate column name '${name}'`, { file, code: 'E_DATA', column: name });
    colIndex.set(name, j);
  }
  return colIndex;
}

/** Which column is the target and which features have a forced kind. */
export interface ColumnPlan {
  /** Index of the class column in the header, or -1 with `noTarget`. */
  targetIdx: number;
  /** Feature kinds forced by the `categorical` / `numeric` options. */
  forced: Map<string, 'numeric' | 'categorical'>;
}

/**
 * Check `options.target`, `categorical`, `numeric` and `declaredTypes` against the header
 * (`colIndex`: name -> index, names already checked to be distinct and non-empty) and say which
 * column is the target. Shared by every reader so they refuse the same options the same way.
 */
export function planColumns(
  header: readonly string[],
  colIndex: ReadonlyMap<string, number>,
  options: EncodeOptions,
): ColumnPlan {
  const file = options.source;
  const nCols = header.length;
  let targetIdx = options.noTarget ? -1 : nCols - 1;
  if (options.target !== undefined && !options.noTarget) {
    const t = colIndex.get(options.target);
    if (t === undefined) {
      throw new GroveError(`unknown target column '${options.target}' (columns: ${listColumns(header)})`, {
        file,
        code: 'E_OPTION',
      });
    }
    targetIdx = t;
  }
  const targetName = targetIdx >= 0 ? header[targetIdx] : '';
  if (nCols < 2 && targetIdx >= 0) {
    throw new GroveError(`no feature columns: the only column is the target '${targetName}'`, { file, code: 'E_DATA' });
  }

  const forced = new Map<string, 'numeric' | 'categorical'>();
  for (const [kind, names] of [
    ['categorical', options.categorical],
    ['numeric', options.numeric],
  ] as const) {
    for (const name of names ?? []) {
      if (!colIndex.has(name)) {
        if (options.ignoreUnknownColumns) continue;
        throw new GroveError(`unknown ${kind} column '${name}' (columns: ${listColumns(header)})`, {
          file,
          code: 'E_OPTION',
          column: name,
        });
      }
      const prev = forced.get(name);
      if (prev !== undefined && prev !== kind) {
        throw new GroveError(`column '${name}' is listed as both categorical and numeric`, {
          file,
          code: 'E_OPTION',
          column: name,
        });
      }
      forced.set(name, kind);
    }
  }
  if (forced.get(targetName) === 'numeric') {
    throw new GroveError(`the target column '${targetName}' holds class labels and cannot be numeric`, {
      file,
      code: 'E_OPTION',
      column: targetName,
    });
  }
  if (options.declaredTypes) {
    for (const name of Object.keys(options.declaredTypes)) {
      if (!colIndex.has(name))
        throw new GroveError(`declared type for unknown column '${name}'`, { file, code: 'E_DATA', column: name });
    }
  }

  return { targetIdx, forced };
}

/** One column of the cell table, with what error messages need to point at a cell. */
interface ColumnCells {
  rows: string[][];
  /** The column's index in each row. */
  j: number;
  name: string;
  file: string | undefined;
  /** The 1-based line of row `i` in the file. */
  lineOf: (i: number) => number;
  /** Whether a cell (untrimmed) is a missing value. */
  isMissing: (raw: string) => boolean;
}

/** Cell (i, j) as a string; any other type is an error (only `encodeTable` called directly can pass one). */
function cellAt(column: ColumnCells, i: number): string {
  const raw = column.rows[i][column.j];
  if (typeof raw === 'string') return raw;
  throw new GroveError(`cell must be a string, got ${describeType(raw)}`, {
    file: column.file,
    row: column.lineOf(i),
    column: column.name,
  });
}

/**
 * Parse column `j` as numbers. Returns `undefined` at the first non-numeric cell unless `strict`,
 * in which case that cell is an error. An all-missing column is not numeric unless `strict`.
 */
function encodeNumeric(column: ColumnCells, strict: boolean, float32: boolean): NumericValues | undefined {
  const { rows, name, file, lineOf } = column;
  const n = rows.length;
  const values = float32 ? new Float32Array(n) : new Float64Array(n);
  let present = 0;
  for (let i = 0; i < n; i++) {
    const raw = cellAt(column, i);
    if (column.isMissing(raw)) {
      values[i] = NaN;
      continue;
    }
    const t = raw.trim();
    if (!NUMBER_RE.test(t)) {
      if (!strict) return undefined;
      throw new GroveError(`expected a number, found '${t}'`, { file, code: 'E_DATA', row: lineOf(i), column: name });
    }
    const v = Number(t);
    if (!Number.isFinite(float32 ? Math.fround(v) : v)) {
      if (!strict) return undefined;
      throw new GroveError(`number out of range: '${t}'`, { file, code: 'E_DATA', row: lineOf(i), column: name });
    }
    values[i] = v;
    present++;
  }
  return present > 0 || strict ? values : undefined;
}

/** How `firstAppearanceCodes` treats declared, missing and undeclared values. */
interface DictionaryRules {
  /** Values coded first, in their order (trimmed, each once); the others follow as they appear. */
  known: readonly string[];
  /** When given, a missing cell is an error with this message; otherwise it is coded -1. */
  missing?: string;
  /** When given, the error message for a value not in `known`, or undefined to accept it. */
  refuse?: (value: string) => string | undefined;
}

/** Dictionary codes of column `j`'s trimmed cells and the dictionary's values, by first appearance. */
function firstAppearanceCodes(column: ColumnCells, rules: DictionaryRules): { codes: Int32Array; values: string[] } {
  const { rows, name, file, lineOf } = column;
  const n = rows.length;
  const codes = new Int32Array(n);
  const dict = new Map<string, number>(); // trimmed value -> code
  const values: string[] = [];
  const add = (t: string): number => {
    const code = values.length;
    dict.set(t, code);
    values.push(t);
    return code;
  };
  for (const v of rules.known) {
    const t = v.trim();
    if (!dict.has(t)) add(t);
  }
  for (let i = 0; i < n; i++) {
    const raw = cellAt(column, i);
    if (column.isMissing(raw)) {
      if (rules.missing !== undefined)
        throw new GroveError(rules.missing, { file, code: 'E_DATA', row: lineOf(i), column: name });
      codes[i] = -1;
      continue;
    }
    const t = raw.trim();
    let code = dict.get(t);
    if (code === undefined) {
      const refusal = rules.refuse?.(t);
      if (refusal !== undefined) throw new GroveError(refusal, { file, code: 'E_DATA', row: lineOf(i), column: name });
      code = add(t);
    }
    codes[i] = code;
  }
  return { codes, values };
}

function encodeCategorical(column: ColumnCells, declared: string[] | undefined): Column {
  const { rows, name } = column;
  const { codes, values } = firstAppearanceCodes(column, {
    known: declared ?? [],
    refuse: declared && ((t) => `value '${t}' is not one of the declared values {${declared.join(', ')}}`),
  });
  const categories = declared ? values : orderCategories(values, codes, rows.length);
  return { kind: 'categorical', name, codes, categories };
}

/**
 * The dictionary of an undeclared categorical column, from its values in first-appearance order:
 * when there are several and every one looks like a number (integer codes forced categorical), they
 * are sorted by value (ties in first-appearance order), so the dictionary does not depend on row
 * order, and the first `n` entries of `codes` are rewritten to match; otherwise `values` as it is.
 */
export function orderCategories(values: string[], codes: Int32Array, n: number): string[] {
  if (values.length < 2 || !values.every(isNumericToken)) return values;
  const order = values.map((_, k) => k).sort((a, b) => Number(values[a]) - Number(values[b]) || a - b);
  const remap = new Int32Array(order.length);
  order.forEach((oldCode, newCode) => (remap[oldCode] = newCode));
  for (let i = 0; i < n; i++) if (codes[i] >= 0) codes[i] = remap[codes[i]];
  return order.map((k) => values[k]);
}

/** An integer written without a fraction or exponent: the text pandas would read as an int64. */
const INTEGER_RE = /^[+-]?\d+$/;

/**
 * The class list for a target column's distinct trimmed labels (first-appearance order), and
 * `remap[k]`, the class code of label `k`. pandas' rule: the labels are numbers (JS numbers,
 * sorted by value; `1` and `1.0` are one class) only if every one is a number by
 * {@link isNumericToken} and no integer among them is beyond 2^53 (it could not round-trip as a JS
 * number); otherwise they stay strings, sorted with plain `<`, exactly as written.
 */
export function orderClasses(distinct: readonly string[]): { classes: ClassLabel[]; remap: Int32Array } {
  const remap = new Int32Array(distinct.length);
  const numeric = distinct.every((s) => isNumericToken(s) && (!INTEGER_RE.test(s) || Number.isSafeInteger(Number(s))));
  if (numeric) {
    const nums = [...new Set(distinct.map(Number))].sort((a, b) => a - b);
    const pos = new Map<number, number>(nums.map((v, k) => [v, k]));
    distinct.forEach((s, k) => (remap[k] = pos.get(Number(s))!));
    return { classes: nums, remap };
  }
  const sorted = [...distinct].sort(compareStrings);
  const pos = new Map<string, number>(sorted.map((s, k) => [s, k]));
  distinct.forEach((s, k) => (remap[k] = pos.get(s)!));
  return { classes: sorted, remap };
}

function encodeLabels(
  column: ColumnCells,
  allowed: Set<string> | undefined,
): { labels: Int32Array; classes: ClassLabel[] } {
  const n = column.rows.length;
  const undeclared = (t: string) => `class '${t}' is not one of the declared values {${[...allowed!].join(', ')}}`;
  const { codes: labels, values: distinct } = firstAppearanceCodes(column, {
    known: [],
    missing: 'the target (class) value is missing; every row needs a class label',
    refuse: allowed && ((t) => (allowed.has(t) ? undefined : undeclared(t))),
  });

  const { classes, remap } = orderClasses(distinct);
  for (let i = 0; i < n; i++) labels[i] = remap[labels[i]];
  return { labels, classes };
}

// ---- TypeScript API ------------------------------------------------------------------------------

export interface RowsOptions extends EncodeOptions {
  /** Column names for array rows (default `x0, x1, ...`). Ignored for object rows. */
  columns?: string[];
  /**
   * Class labels given separately (one per row) instead of as a column of the rows. The target
   * column is then named `options.target`, default `'class'`.
   */
  labels?: ArrayLike<string | number | boolean>;
}

/** Convert one JS value to the cell text encodeTable expects ('' = missing). */
function cellText(v: unknown, where: () => { row: number; column: string }, file: string | undefined): string {
  switch (typeof v) {
    case 'string':
      return v;
    case 'number':
      if (Number.isNaN(v)) return '';
      if (!Number.isFinite(v))
        throw new GroveError(`value ${v} is not a finite number`, { file, code: 'E_DATA', ...where() });
      return String(v); // round-trips exactly: Number(String(x)) === x for finite x
    case 'undefined':
      return '';
    case 'boolean':
    case 'bigint':
      return String(v);
    default:
      if (v === null) return '';
      throw new GroveError(`unsupported value of type ${typeof v} (use a number, string, boolean or null)`, {
        file,
        code: 'E_DATA',
        ...where(),
      });
  }
}

/**
 * Build a Dataset from in-memory rows: objects (column names = the first row's keys, in order;
 * a key absent from a later row is a missing value) or arrays (names from `options.columns`, else
 * `x0, x1, ...`). Values may be numbers, strings, booleans, `null`/`undefined`/`NaN` (missing).
 * The target is a column of the rows (`options.target`, default the last) or, with
 * `options.labels`, given separately. Error rows are 1-based indexes into `rows` unless
 * `firstDataRow` says otherwise.
 */
export function datasetFromRows(
  rows: Array<Record<string, unknown>> | unknown[][],
  options: RowsOptions = {},
): Dataset {
  checkEncodeOptions(options, 'datasetFromRows');
  if (!Array.isArray(rows))
    throw new GroveError(`datasetFromRows: rows must be an array of objects or arrays, got ${describeType(rows)}`);
  const file = options.source;
  const first = options.firstDataRow ?? 1;
  if (rows.length === 0) throw new GroveError('no data rows', { file, code: 'E_DATA' });
  if (rows[0] === null || typeof rows[0] !== 'object')
    throw new GroveError(`expected an object or an array row, got ${describeType(rows[0])}`, {
      file,
      code: 'E_DATA',
      row: first,
    });

  let header: string[];
  const table: string[][] = new Array(rows.length);
  if (Array.isArray(rows[0])) {
    const width = (rows[0] as unknown[]).length;
    header = options.columns ? [...options.columns] : Array.from({ length: width }, (_, k) => `x${k}`);
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      if (!Array.isArray(r))
        throw new GroveError('expected an array row (the first row is an array)', {
          file,
          code: 'E_DATA',
          row: first + i,
        });
      if (r.length !== header.length) {
        throw new GroveError(`expected ${header.length} fields, found ${r.length}`, {
          file,
          code: 'E_DATA',
          row: first + i,
        });
      }
      const cells = new Array<string>(r.length);
      for (let k = 0; k < r.length; k++) cells[k] = cellText(r[k], () => ({ row: first + i, column: header[k] }), file);
      table[i] = cells;
    }
  } else {
    header = Object.keys(rows[0] as object);
    const known = new Set(header);
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i] as Record<string, unknown>;
      if (r === null || typeof r !== 'object' || Array.isArray(r)) {
        throw new GroveError('expected an object row (the first row is an object)', {
          file,
          code: 'E_DATA',
          row: first + i,
        });
      }
      for (const key of Object.keys(r)) {
        if (!known.has(key)) {
          throw new GroveError(`key '${key}' is not a column of the first row (columns: ${listColumns(header)})`, {
            file,
            code: 'E_DATA',
            row: first + i,
            column: key,
          });
        }
      }
      const cells = new Array<string>(header.length);
      for (let k = 0; k < header.length; k++)
        cells[k] = cellText(
          Object.hasOwn(r, header[k]) ? r[header[k]] : undefined,
          () => ({ row: first + i, column: header[k] }),
          file,
        );
      table[i] = cells;
    }
  }

  let target = options.target;
  if (options.labels !== undefined) {
    const labels = options.labels;
    target = target ?? 'class';
    if (header.includes(target)) {
      throw new GroveError(`labels were given separately but the rows also have a column '${target}'`, {
        file,
        code: 'E_DATA',
        column: target,
      });
    }
    if (labels.length !== rows.length) {
      throw new GroveError(`${labels.length} labels for ${rows.length} rows`, { file, code: 'E_DATA' });
    }
    header.push(target);
    for (let i = 0; i < rows.length; i++)
      table[i].push(cellText(labels[i], () => ({ row: first + i, column: target! }), file));
  }

  const { columns: _columns, labels: _labels, ...encodeOptions } = options;
  const data = encodeTable(header, table, { ...encodeOptions, target, firstDataRow: first });
  if (data.classes.length === 0) return data;
  // Labels that are all JS booleans stay booleans (the cells were their texts 'false'/'true').
  const j = header.indexOf(data.targetName);
  const labelOf =
    options.labels !== undefined
      ? (i: number) => options.labels![i]
      : Array.isArray(rows[0])
        ? (i: number) => (rows[i] as unknown[])[j]
        : (i: number) => (rows[i] as Record<string, unknown>)[data.targetName];
  for (let i = 0; i < rows.length; i++) if (typeof labelOf(i) !== 'boolean') return data;
  return { ...data, classes: booleanClasses(data.classes) };
}

/** The classes `'false'`/`'true'` (sorted texts of boolean labels) as the booleans they were. */
export function booleanClasses(classes: readonly ClassLabel[]): ClassLabel[] {
  return classes.map((c) => c === 'true');
}
