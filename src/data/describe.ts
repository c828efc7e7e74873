/** Per-column figures of a table (kind, missing, distinct, range) and the class distribution. */

import type { ClassLabel, Column, Dataset } from './dataset.js';
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
