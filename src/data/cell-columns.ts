/** Typing and dictionary-coding one column of a table of string cells, for `encodeTable` (encode.ts). */

import { GroveError } from '../core/errors.js';
import { describeType } from './check.js';
import { orderCategories, orderClasses } from './class-order.js';
import type { ClassLabel, Column, NumericValues } from './dataset.js';
import { float32TooLarge, NUMBER_RE } from './tokens.js';

/** One column of the cell table, with what error messages need to point at a cell. */
export interface ColumnCells {
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
export function encodeNumeric(column: ColumnCells, strict: boolean, float32: boolean): NumericValues | undefined {
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
    if (float32 && Number.isFinite(v) && !Number.isFinite(Math.fround(v)))
      throw new GroveError(float32TooLarge(t), { file, code: 'E_DATA', row: lineOf(i), column: name });
    if (!Number.isFinite(v)) {
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

export function encodeCategorical(column: ColumnCells, declared: string[] | undefined): Column {
  const { rows, name } = column;
  const { codes, values } = firstAppearanceCodes(column, {
    known: declared ?? [],
    refuse: declared && ((t) => `value '${t}' is not one of the declared values {${declared.join(', ')}}`),
  });
  const categories = declared ? values : orderCategories(values, codes, rows.length);
  return { kind: 'categorical', name, codes, categories };
}

export function encodeLabels(
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
