/**
 * Typed columns built one cell at a time from the bytes of a text file (the CSV/TSV reader's
 * back end). A feature column starts numeric: numbers go straight from bytes into a growable
 * Float64Array (Float32Array in float32 mode) without making a string. If a cell turns out not to
 * be a number, the column becomes categorical: its earlier cells are re-decoded from the numbers
 * themselves plus a compact store of the few source texts that the numbers do not spell exactly
 * (`1.50`, `1e3`, `007`), so nothing is read twice and no text is kept for ordinary numbers.
 * Categorical columns and the class column go straight into dictionary codes.
 *
 * The rules (missing tokens, trimming, category and class order) are encode.ts's; a file read
 * here gives the same Dataset as its cells given to encodeTable. PURE (browser-safe).
 */

import { shareableArrays } from '../core/arrays.js';
import { GroveError } from '../core/errors.js';
import { CategoricalBuilder } from './categorical-builder.js';
import {
  type ColumnBuilder,
  type ColumnContext,
  capacityFor,
  decodeOrFail,
  fitted,
  isAsciiSpace,
} from './column-builder.js';
import type { CategoricalColumn, NumericColumn, NumericValues } from './dataset.js';
import { canonicalText, numberScan, parseNumberBytes } from './number-bytes.js';
import { float32TooLarge, NUMBER_RE } from './tokens.js';

/** A numeric column: inferred (may turn categorical) or forced (`numeric` option). */
export class NumericBuilder implements ColumnBuilder {
  private values: NumericValues;
  private present = 0;
  private readonly canonicalDigits: number;
  // Source texts the numbers do not spell (inferred columns only): row, end offset, bytes.
  private exRows = new Int32Array(0);
  private exEnds = new Int32Array(0);
  private exBytes = new Uint8Array(0);
  private exCount = 0;
  private exLen = 0;
  /** Cells that were not numbers (forced columns read them as missing). */
  private oddCount = 0;
  private firstOdd: { text: string; line: number } | undefined;

  constructor(
    readonly name: string,
    private readonly ctx: ColumnContext,
    private readonly forced: boolean,
    capacity: number,
  ) {
    this.values = newValues(ctx, capacity);
    this.canonicalDigits = ctx.float32 ? 6 : 15;
  }

  cell(buf: Uint8Array, s: number, e: number, row: number, line: number): boolean {
    while (s < e && isAsciiSpace(buf[s])) s++;
    while (e > s && isAsciiSpace(buf[e - 1])) e--;
    if (row >= this.values.length) this.grow(row + 1);
    const na = this.ctx.na;
    if (s === e) {
      if (na.empty) {
        this.values[row] = NaN;
        return true;
      }
      return this.odd('', row, line);
    }
    if (na.matchBytes(buf, s, e)) {
      this.values[row] = NaN;
      return true;
    }
    const v = parseNumberBytes(buf, s, e, this.canonicalDigits);
    if (v === v) {
      // Fast path: finite, at most 1e37 in magnitude, so float32 cannot overflow.
      this.values[row] = v;
      this.present++;
      if (!this.forced && !numberScan.canonical) this.keepText(row, buf, s, e);
      return true;
    }
    return this.slowCell(buf, s, e, row, line);
  }

  /**
   * Store a number the tokenizer parsed itself (bytes `buf[s..e)`, `canonical` as in
   * {@link numberScan}). Only for cells that need no trimming and are not missing tokens.
   */
  putNumber(row: number, value: number, canonical: boolean, buf: Uint8Array, s: number, e: number): void {
    if (row >= this.values.length) this.grow(row + 1);
    this.values[row] = value;
    this.present++;
    if (!canonical && !this.forced) this.keepText(row, buf, s, e);
  }

  /** A cell the byte parser could not settle: decode it and decide as encode.ts does. */
  private slowCell(buf: Uint8Array, s: number, e: number, row: number, line: number): boolean {
    const t = decodeOrFail(this.ctx, buf, s, e, line, this.name);
    if (this.ctx.na.set.has(t)) {
      this.values[row] = NaN;
      return true;
    }
    if (NUMBER_RE.test(t)) {
      const v = Number(t);
      if (Number.isFinite(v)) {
        if (this.ctx.float32 && !Number.isFinite(Math.fround(v)))
          throw new GroveError(float32TooLarge(t), {
            file: this.ctx.file,
            code: 'E_DATA',
            row: line,
            column: this.name,
          });
        this.values[row] = v;
        this.present++;
        if (!this.forced) this.keepText(row, buf, s, e);
        return true;
      }
    }
    return this.odd(t, row, line);
  }

  private odd(text: string, row: number, line: number): boolean {
    if (this.firstOdd === undefined) this.firstOdd = { text, line };
    if (!this.forced) return false;
    this.values[row] = NaN;
    this.oddCount++;
    return true;
  }

  private grow(need: number): void {
    this.reserve(capacityFor(need, this.values.length));
  }

  reserve(rows: number): void {
    if (rows <= this.values.length) return;
    const next = newValues(this.ctx, rows);
    next.set(this.values);
    this.values = next;
  }

  private keepText(row: number, buf: Uint8Array, s: number, e: number): void {
    if (this.exCount === this.exRows.length) {
      const cap = capacityFor(this.exCount + 1, this.exCount);
      const rows = new Int32Array(cap);
      rows.set(this.exRows);
      this.exRows = rows;
      const ends = new Int32Array(cap);
      ends.set(this.exEnds);
      this.exEnds = ends;
    }
    const len = e - s;
    if (this.exLen + len > this.exBytes.length) {
      const bytes = new Uint8Array(capacityFor(this.exLen + len, this.exBytes.length));
      bytes.set(this.exBytes.subarray(0, this.exLen));
      this.exBytes = bytes;
    }
    const bytes = this.exBytes;
    let k = this.exLen;
    for (let p = s; p < e; p++) bytes[k++] = buf[p];
    this.exLen = k;
    this.exRows[this.exCount] = row;
    this.exEnds[this.exCount++] = this.exLen;
  }

  /** The column as categorical from row 0 to `rows - 1`, re-decoded from the values and kept texts. */
  toCategorical(rows: number): CategoricalBuilder {
    const b = new CategoricalBuilder(this.name, this.ctx, false, Math.max(this.values.length, rows + 1));
    b.convertedFrom = this.firstOdd;
    let ex = 0;
    let exStart = 0;
    for (let i = 0; i < rows; i++) {
      const v = this.values[i];
      if (v !== v) {
        b.setCode(i, -1);
        continue;
      }
      let text: string;
      if (ex < this.exCount && this.exRows[ex] === i) {
        text = this.ctx.decoder.decode(this.exBytes, exStart, this.exEnds[ex])!.trim();
        exStart = this.exEnds[ex++];
      } else {
        text = canonicalText(v, this.ctx.float32);
      }
      b.setCode(i, b.codeOf(text));
    }
    return b;
  }

  /**
   * The finished column for `n` rows, and a warning when a forced column had cells that were not
   * numbers (an error when none of its cells is a number). An inferred column with no number at
   * all is categorical with no categories, as in encodeTable.
   */
  finish(n: number): { column: NumericColumn | CategoricalColumn; warning?: string } {
    if (this.forced && this.present === 0 && this.firstOdd !== undefined) {
      // Every cell odd: a wrong column name or a wrong file, not a few bad cells.
      throw new GroveError(
        `expected a number, found '${this.firstOdd.text}' (no cell of this numeric column is a number)`,
        {
          file: this.ctx.file,
          code: 'E_DATA',
          row: this.firstOdd.line,
          column: this.name,
        },
      );
    }
    if (!this.forced && this.present === 0) {
      return { column: { kind: 'categorical', name: this.name, codes: new Int32Array(n).fill(-1), categories: [] } };
    }
    const values = fitted(this.values, n);
    this.values = values;
    const column: NumericColumn = { kind: 'numeric', name: this.name, values };
    if (this.oddCount === 0 || this.firstOdd === undefined) return { column };
    const { text, line } = this.firstOdd;
    const cells = this.oddCount === 1 ? 'cell that is not a number' : 'cells that are not numbers';
    return {
      column,
      warning: `column '${this.name}': ${this.oddCount} ${cells} read as missing (first '${text}' on row ${line})`,
    };
  }
}

/**
 * A numeric column's values, in shared memory where there is any: worker threads (a forest's,
 * a tree's) then read the column itself instead of a copy of it each.
 */
function newValues(ctx: ColumnContext, rows: number): NumericValues {
  return ctx.float32 ? shareableArrays.float32(rows) : shareableArrays.float64(rows);
}
