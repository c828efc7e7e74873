/** The order of a column's dictionary and of the classes, so that they do not depend on row order. */

import type { ClassLabel } from './dataset.js';
import { isNumericToken } from './tokens.js';

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
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

/**
 * The class list for a target column's distinct trimmed labels (first-appearance order), and
 * `remap[k]`, the class code of label `k`. The labels are numbers (JS numbers, sorted by value)
 * only if every one is the canonical text of its number (`String(Number(s)) === s`: `1`, `-2.5`,
 * `0.1`); otherwise (`01`, `1.0`, `+1`, `1e3`, `-0`, an integer beyond 2^53) they all stay
 * strings, sorted with plain `<`, exactly as written. So two different texts are never one class,
 * and what `predict` returns is what the data held.
 */
export function orderClasses(distinct: readonly string[]): { classes: ClassLabel[]; remap: Int32Array } {
  const remap = new Int32Array(distinct.length);
  const numeric = distinct.every(isCanonicalNumber);
  if (numeric) {
    const nums = distinct.map(Number).sort((a, b) => a - b);
    const pos = new Map<number, number>(nums.map((v, k) => [v, k]));
    distinct.forEach((s, k) => (remap[k] = pos.get(Number(s))!));
    return { classes: nums, remap };
  }
  const sorted = [...distinct].sort(compareStrings);
  const pos = new Map<string, number>(sorted.map((s, k) => [s, k]));
  distinct.forEach((s, k) => (remap[k] = pos.get(s)!));
  return { classes: sorted, remap };
}

/** The classes `'false'`/`'true'` (sorted texts of boolean labels) as the booleans they were. */
export function booleanClasses(classes: readonly ClassLabel[]): ClassLabel[] {
  return classes.map((c) => c === 'true');
}

/** True when `s` is exactly how JavaScript writes the finite number it denotes (`1`, `0.5`, `-3`). */
export function isCanonicalNumber(s: string): boolean {
  if (!isNumericToken(s)) return false;
  const v = Number(s);
  return Number.isFinite(v) && String(v) === s;
}
