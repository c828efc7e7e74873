/**
 * What the text reader's column builders share: the missing-value tokens, the context of one
 * read, the builder interface and small helpers for growing and trimming column arrays.
 * PURE (browser-safe).
 */

import { GroveError } from '../core/errors.js';
import { type CellDecoder, INVALID_UTF8 } from './text-decode.js';

/** ASCII whitespace that `String.prototype.trim` removes: tab, LF, VT, FF, CR, space. */
export function isAsciiSpace(b: number): boolean {
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
export function capacityFor(need: number, current: number): number {
  return Math.max(need, Math.ceil(current * 1.5), 1024);
}

/**
 * The first `n` entries of a column array: a view when the spare room is small (a copy would
 * briefly hold the column twice), a copy otherwise.
 */
export function fitted<T extends Float64Array | Float32Array | Int32Array>(a: T, n: number): T {
  if (a.length === n) return a;
  return (a.length - n <= n >>> 4 ? a.subarray(0, n) : a.slice(0, n)) as T;
}

export function decodeOrFail(
  ctx: ColumnContext,
  buf: Uint8Array,
  s: number,
  e: number,
  line: number,
  column: string,
): string {
  const text = ctx.decoder.decode(buf, s, e);
  if (text === undefined) throw new GroveError(INVALID_UTF8, { file: ctx.file, code: 'E_DATA', row: line, column });
  return text.trim();
}
