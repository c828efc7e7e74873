/**
 * The text reader's builder for a categorical feature or the class column: trimmed cell texts
 * into first-appearance dictionary codes, with the rules of encode.ts. PURE (browser-safe).
 */

import { GroveError } from '../core/errors.js';
import { ByteCodeCache } from './byte-codes.js';
import { orderCategories, orderClasses } from './class-order.js';
import {
  type ColumnBuilder,
  type ColumnContext,
  capacityFor,
  decodeOrFail,
  fitted,
  isAsciiSpace,
} from './column-builder.js';
import type { CategoricalColumn, ClassLabel } from './dataset.js';
import { isNumericToken } from './tokens.js';

/** A categorical feature or the class column: trimmed texts into first-appearance dictionary codes. */
export class CategoricalBuilder implements ColumnBuilder {
  private codes: Int32Array;
  private readonly dict = new Map<string, number>();
  private readonly values: string[] = [];
  /** Codes of texts already seen, by their bytes. */
  private readonly cache = new ByteCodeCache();
  /** The first cell that was not a number, when the column began as numeric. */
  convertedFrom: { text: string; line: number } | undefined;

  constructor(
    readonly name: string,
    private readonly ctx: ColumnContext,
    /** The class column: a missing label is an error. */
    private readonly isTarget: boolean,
    capacity: number,
  ) {
    this.codes = new Int32Array(capacity);
  }

  cell(buf: Uint8Array, s: number, e: number, row: number, line: number): boolean {
    while (s < e && isAsciiSpace(buf[s])) s++;
    while (e > s && isAsciiSpace(buf[e - 1])) e--;
    const cached = this.cache.get(buf, s, e);
    if (cached !== -2) {
      this.setCode(row, cached);
      return true;
    }
    const t = s === e ? '' : decodeOrFail(this.ctx, buf, s, e, line, this.name);
    if (this.ctx.na.set.has(t)) {
      if (this.isTarget)
        throw new GroveError('the target (class) value is missing; every row needs a class label', {
          file: this.ctx.file,
          code: 'E_DATA',
          row: line,
          column: this.name,
        });
      this.cache.set(buf, s, e, -1);
      this.setCode(row, -1);
      return true;
    }
    const code = this.codeOf(t);
    this.cache.set(buf, s, e, code);
    this.setCode(row, code);
    return true;
  }

  /** The dictionary code of trimmed text `t`, adding it if new. */
  codeOf(t: string): number {
    let code = this.dict.get(t);
    if (code === undefined) {
      code = this.values.length;
      this.dict.set(t, code);
      this.values.push(t);
    }
    return code;
  }

  setCode(row: number, code: number): void {
    if (row >= this.codes.length) this.reserve(capacityFor(row + 1, this.codes.length));
    this.codes[row] = code;
  }

  reserve(rows: number): void {
    if (rows <= this.codes.length) return;
    const next = new Int32Array(rows);
    next.set(this.codes);
    this.codes = next;
  }

  private trimmedCodes(n: number): Int32Array {
    return fitted(this.codes, n);
  }

  /**
   * The finished feature for `n` rows, and a warning when the column began numeric and at least
   * 9 in 10 of its values are numbers (a few odd cells turned it categorical).
   */
  finish(n: number): { column: CategoricalColumn; warning?: string } {
    const codes = this.trimmedCodes(n);
    const categories = orderCategories(this.values, codes, n);
    const column: CategoricalColumn = { kind: 'categorical', name: this.name, codes, categories };
    const first = this.convertedFrom;
    if (first === undefined) return { column };
    const numericCode = categories.map(isNumericToken);
    let numbers = 0;
    let others = 0;
    for (let i = 0; i < n; i++) {
      const c = codes[i];
      if (c < 0) continue;
      if (numericCode[c]) numbers++;
      else others++;
    }
    if (others * 10 > numbers + others) return { column }; // a categorical column with some numbers
    const verb = others === 1 ? 'is not a number' : 'are not numbers';
    return {
      column,
      warning:
        `column '${this.name}' is read as categorical: ${others} of ${numbers + others} cells ${verb} ` +
        `(first '${first.text}' on row ${first.line}); ` +
        `to read them as missing, make it numeric (--numeric ${this.name})`,
    };
  }

  /** The class codes and classes for `n` rows (encode.ts's {@link orderClasses}). */
  finishLabels(n: number): { labels: Int32Array; classes: ClassLabel[] } {
    const labels = this.trimmedCodes(n);
    const { classes, remap } = orderClasses(this.values);
    for (let i = 0; i < n; i++) labels[i] = remap[labels[i]];
    return { labels, classes };
  }
}
