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
 * - Classes: the distinct labels, sorted; if every label is the canonical text of a number
 *   they are stored as JS numbers (`'1','2','10'` -> `[1, 2, 10]`), otherwise (`01`, `1.0`, `+1`,
 *   `1e3`) as strings exactly as written, sorted with plain `<` ({@link orderClasses}): two
 *   different texts are never one class. This holds for ARFF too (declared class
 *   values are validated but do not set the order), so a CSV and an ARFF copy of the same data
 *   give the same class codes.
 *
 * Complexity: one pass over the cells per column (a second pass only for a column that turns out
 * categorical); no per-cell allocation beyond `trim()`.
 */

import { GroveError } from '../core/errors.js';
import { type ColumnCells, encodeCategorical, encodeLabels, encodeNumeric } from './cell-columns.js';
import { describeType } from './check.js';
import { booleanClasses } from './class-order.js';
import { indexColumns, listColumns, planColumns } from './column-plan.js';
import type { Column, Dataset } from './dataset.js';
import { isMissingToken } from './dataset.js';
import { checkEncodeOptions, type EncodeOptions, isStringArray } from './encode-options.js';

// The options' types travel with the functions that take them.
export type { DeclaredType, EncodeOptions } from './encode-options.js';

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
  const { targetIdx, forced, dropped } = planColumns(header, colIndex, options);
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
    if (j === targetIdx || dropped.has(j)) continue;
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

export interface RowsOptions extends EncodeOptions {
  /** Column names for array rows (default `x0, x1, ...`). Ignored for object rows. */
  columns?: string[];
  /**
   * Class labels given separately (one per row) instead of as a column of the rows. The target
   * column is then named `options.target`, default `'class'`.
   */
  labels?: ArrayLike<string | number | boolean>;
}

/** A header and its rows of cell text, as {@link encodeTable} takes them. */
interface TextTable {
  header: string[];
  table: string[][];
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

/** Where cell text comes from, for error messages. */
interface RowsSource {
  file: string | undefined;
  /** The row number of `rows[0]`. */
  first: number;
}

/** The cells of array rows, and their header (`columns`, else `x0, x1, ...`). */
function arrayRowsTable(rows: unknown[][], columns: string[] | undefined, at: RowsSource): TextTable {
  const { file, first } = at;
  const width = (rows[0] as unknown[]).length;
  const header = columns ? [...columns] : Array.from({ length: width }, (_, k) => `x${k}`);
  const table: string[][] = new Array(rows.length);
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
  return { header, table };
}

/** The cells of object rows, and their header (the first row's keys, in order). */
function objectRowsTable(rows: Array<Record<string, unknown>>, at: RowsSource): TextTable {
  const { file, first } = at;
  const header = Object.keys(rows[0] as object);
  const table: string[][] = new Array(rows.length);
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
  return { header, table };
}

/** Append labels given apart from the rows as the last column, named `target`. */
function appendLabels(
  { header, table }: TextTable,
  labels: ArrayLike<string | number | boolean>,
  target: string,
  at: RowsSource,
): void {
  const { file, first } = at;
  if (header.includes(target)) {
    throw new GroveError(`labels were given separately but the rows also have a column '${target}'`, {
      file,
      code: 'E_DATA',
      column: target,
    });
  }
  if (labels.length !== table.length) {
    throw new GroveError(`${labels.length} labels for ${table.length} rows`, { file, code: 'E_DATA' });
  }
  header.push(target);
  for (let i = 0; i < table.length; i++)
    table[i].push(cellText(labels[i], () => ({ row: first + i, column: target }), file));
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

  const at: RowsSource = { file, first };
  const text = Array.isArray(rows[0])
    ? arrayRowsTable(rows as unknown[][], options.columns, at)
    : objectRowsTable(rows as Array<Record<string, unknown>>, at);
  let target = options.target;
  if (options.labels !== undefined) {
    target = target ?? 'class';
    appendLabels(text, options.labels, target, at);
  }

  const { columns: _columns, labels: _labels, ...encodeOptions } = options;
  const data = encodeTable(text.header, text.table, { ...encodeOptions, target, firstDataRow: first });
  if (data.classes.length === 0) return data;
  // Labels that are all JS booleans stay booleans (the cells were their texts 'false'/'true').
  const j = text.header.indexOf(data.targetName);
  const labelOf =
    options.labels !== undefined
      ? (i: number) => options.labels![i]
      : Array.isArray(rows[0])
        ? (i: number) => (rows[i] as unknown[])[j]
        : (i: number) => (rows[i] as Record<string, unknown>)[data.targetName];
  for (let i = 0; i < rows.length; i++) if (typeof labelOf(i) !== 'boolean') return data;
  return { ...data, classes: booleanClasses(data.classes) };
}
