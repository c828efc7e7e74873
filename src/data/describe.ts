/** Per-column figures of a table (kind, missing, distinct, range) and the class distribution. */

import { checkDataset } from './check.js';
import type { ClassLabel, Column, Dataset, TimeUnit } from './dataset.js';
import { isNumericToken } from './tokens.js';

/** One column's figures. */
export interface ColumnSummary {
  name: string;
  kind: 'numeric' | 'categorical';
  /** Rows where the column is missing. */
  missing: number;
  /** Distinct values present (missing not counted). */
  distinct: number;
  /** Smallest and largest value of a numeric column with values. */
  min?: number;
  max?: number;
  /** Size of a categorical column's dictionary. */
  categories?: number;
  /** A numeric column of dates or times: what its numbers count. */
  unit?: TimeUnit;
  /** Bytes of its typed arrays and dictionary. */
  bytes: number;
}

/** The figures of one column: a linear pass, plus a sort of a numeric column's values for `distinct`. */
export function summarizeColumn(f: Column): ColumnSummary {
  if (f.kind === 'numeric') {
    const present = new Float64Array(f.values.length);
    let n = 0;
    for (let i = 0; i < f.values.length; i++) if (!Number.isNaN(f.values[i])) present[n++] = f.values[i];
    const sorted = present.subarray(0, n).sort();
    let distinct = 0;
    for (let i = 0; i < n; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) distinct++;
    return {
      name: f.name,
      kind: 'numeric',
      missing: f.values.length - n,
      distinct,
      ...(n > 0 ? { min: sorted[0], max: sorted[n - 1] } : {}),
      ...(f.unit !== undefined ? { unit: f.unit } : {}),
      bytes: f.values.byteLength,
    };
  }
  const seen = new Uint8Array(f.categories.length);
  let missing = 0;
  let distinct = 0;
  for (let i = 0; i < f.codes.length; i++) {
    const c = f.codes[i];
    if (c < 0) missing++;
    else if (seen[c] === 0) {
      seen[c] = 1;
      distinct++;
    }
  }
  let bytes = f.codes.byteLength;
  for (const c of f.categories) bytes += 2 * c.length;
  return { name: f.name, kind: 'categorical', missing, distinct, categories: f.categories.length, bytes };
}

/** Rows per class of a labelled Dataset, in the order of its classes. */
export function classCounts(data: Dataset): Array<{ label: ClassLabel; rows: number }> {
  const counts = new Float64Array(data.classes.length);
  for (let i = 0; i < data.nRows; i++) counts[data.labels[i]]++;
  return data.classes.map((label, c) => ({ label, rows: counts[c] }));
}

/**
 * Why the class column looks like a continuous quantity rather than classes, or undefined: its
 * labels are all numbers (or texts of numbers) and there are many of them (at least 30 and 5 % of the rows), or at
 * least 10 of them with fractions.
 */
export function continuousTarget(data: Dataset): string | undefined {
  const k = data.classes.length;
  // Labels kept as text (`1.50`) count as numbers here too.
  const isNumber = (c: ClassLabel) => typeof c === 'number' || (typeof c === 'string' && isNumericToken(c));
  if (k < 10 || !data.classes.every(isNumber)) return undefined;
  const fractions = data.classes.some((c) => !Number.isInteger(Number(c)));
  if (!((k >= 30 && k >= 0.05 * data.nRows) || fractions)) return undefined;
  return (
    `the target '${data.targetName}' has ${k} distinct numeric values${fractions ? ', some with fractions' : ''}: ` +
    'grove predicts classes, so each value is a class of its own; ' +
    'give a class column with --target, or bin the values into classes'
  );
}

/** Tables shorter than this get no identifier warning: a few rows are all distinct by chance. */
const ID_MIN_ROWS = 20;
/** A column with at least this share of distinct values per row looks like an identifier. */
const ID_DISTINCT_SHARE = 0.9;

/** A feature that looks like a row identifier, and why. */
export interface IdLikeColumn {
  name: string;
  /** `48842 distinct values in 48842 rows`, or `an integer that increases on every row`. */
  reason: string;
}

/**
 * Distinct values of an integer-valued numeric column (-1 when a value is not an integer), and
 * whether each row's value exceeds the last.
 */
function integerProfile(values: ArrayLike<number>): { distinct: number; increasing: boolean } {
  let increasing = true;
  let present = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (Number.isNaN(v)) {
      increasing = false;
      continue;
    }
    if (!Number.isInteger(v)) return { distinct: -1, increasing: false };
    if (i > 0 && !(v > values[i - 1])) increasing = false;
    present++;
  }
  if (increasing) return { distinct: present, increasing };
  const sorted = Float64Array.from(values).sort();
  let distinct = 0;
  for (let i = 0; i < sorted.length && !Number.isNaN(sorted[i]); i++)
    if (i === 0 || sorted[i] !== sorted[i - 1]) distinct++;
  return { distinct, increasing };
}

/**
 * The features that look like row identifiers: categorical columns with a distinct value on at
 * least 90 % of the rows, integer columns with a different value on every row, or integers that
 * increase on every row. A tree splits such a column
 * into one branch per row and learns nothing that carries over to new rows. Linear in rows, plus a
 * sort of each integer column.
 */
export function idLikeColumns(data: Dataset): IdLikeColumn[] {
  checkDataset(data, { caller: 'idLikeColumns', labelled: false });
  const n = data.nRows;
  if (n < ID_MIN_ROWS) return [];
  const found: IdLikeColumn[] = [];
  const many = (distinct: number) => distinct >= ID_DISTINCT_SHARE * n;
  for (const f of data.features) {
    if (f.kind === 'categorical') {
      const { distinct } = summarizeColumn(f);
      if (many(distinct)) found.push({ name: f.name, reason: `${distinct} distinct values in ${n} rows` });
      continue;
    }
    const { distinct, increasing } = integerProfile(f.values);
    if (increasing) found.push({ name: f.name, reason: 'an integer that increases on every row' });
    // Every row a different integer: a measurement in whole units (an amount, a count) repeats
    // values long before its rows run out, where a shuffled key never does.
    else if (distinct === n) found.push({ name: f.name, reason: `${distinct} distinct integers in ${n} rows` });
  }
  return found;
}
