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
import { ByteCodeCache } from './byte-codes.js';
import { orderCategories, orderClasses } from './class-order.js';
import type { CategoricalColumn, ClassLabel, NumericColumn, NumericValues } from './dataset.js';
import { canonicalText, numberScan, parseNumberBytes } from './number-bytes.js';
import { type CellDecoder, INVALID_UTF8 } from './text-decode.js';
import { float32TooLarge, isNumericToken, NUMBER_RE } from './tokens.js';

/** ASCII whitespace that `String.prototype.trim` removes: tab, LF, VT, FF, CR, space. */
function isAsciiSpace(b: number): boolean {
  return b === 0x20 || (b >= 0x09 && b <= 0x0d);
}

/** The missing-value tokens, matched on bytes for ASCII tokens and on strings otherwise. */
export class NaTokens {
  readonly set: ReadonlySet<string>;
  /** ASCII tokens by their first byte (the empty token is `empty`). */
  private readonly byFirst: (Uint8Array[] | undefined)[] = new Array(256);
  readonly empty: boolean;

  constructor(tokens: readonly string[]) {
    const set = new Set(tokens.map((t) => t.trim()));
    this.set = set;
    this.empty = set.has('');
    for (const t of set) {
      if (t === '' || !/^[\x20-\x7e]+$/.test(t)) continue;
      const bytes = Uint8Array.from(t, (ch) => ch.charCodeAt(0));
      (this.byFirst[bytes[0]] ??= []).push(bytes);
    }
  }

  /** Whether trimmed ASCII bytes `buf[s..e)` (s < e) are one of the tokens. */
  matchBytes(buf: Uint8Array, s: number, e: number): boolean {
    const candidates = this.byFirst[buf[s]];
    if (candidates === undefined) return false;
    outer: for (const t of candidates) {
      if (t.length !== e - s) continue;
      for (let k = 1; k < t.length; k++) if (t[k] !== buf[s + k]) continue outer;
      return true;
    }
    return false;
  }
}

/** What every column of one read shares. */
export interface ColumnContext {
  file: string | undefined;
  decoder: CellDecoder;
  na: NaTokens;
  float32: boolean;
}

/** A column being filled, one cell per row in row order. */
export interface ColumnBuilder {
  /**
   * Take row `row`'s cell, the bytes `buf[s..e)` (untrimmed; `line` is its line in the file, for
   * errors). Returns false when an inferred-numeric column meets a cell that is not a number: the
   * caller replaces the builder by {@link NumericBuilder.toCategorical} and gives it the cell again.
   */
  cell(buf: Uint8Array, s: number, e: number, row: number, line: number): boolean;
  /** Make room for `rows` rows in all (a size estimate; growing past it still works). */
  reserve(rows: number): void;
}

/** New capacity for `need` entries: 1.5 × growth keeps the slack of a large column small. */
function capacityFor(need: number, current: number): number {
  return Math.max(need, Math.ceil(current * 1.5), 1024);
}

/**
 * The first `n` entries of a column array: a view when the spare room is small (a copy would
 * briefly hold the column twice), a copy otherwise.
 */
function fitted<T extends Float64Array | Float32Array | Int32Array>(a: T, n: number): T {
  if (a.length === n) return a;
  return (a.length - n <= n >>> 4 ? a.subarray(0, n) : a.slice(0, n)) as T;
}

function decodeOrFail(ctx: ColumnContext, buf: Uint8Array, s: number, e: number, line: number, column: string): string {
  const text = ctx.decoder.decode(buf, s, e);
  if (text === undefined) throw new GroveError(INVALID_UTF8, { file: ctx.file, code: 'E_DATA', row: line, column });
  return text.trim();
}

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

/**
 * A numeric column's values, in shared memory where there is any: worker threads (a forest's,
 * a tree's) then read the column itself instead of a copy of it each.
 */
function newValues(ctx: ColumnContext, rows: number): NumericValues {
  return ctx.float32 ? shareableArrays.float32(rows) : shareableArrays.float64(rows);
}
