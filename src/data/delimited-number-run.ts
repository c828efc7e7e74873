/**
 * The delimited reader's fast path: plain numbers (`-12.5`: no spaces, `+` or exponent) in
 * numeric columns, parsed while scanning, field after field up to the end of the record, without
 * the general path's field slicing and cell decoding.
 */

import type { ColumnBuilder } from './column-builder.js';
import { exactDecimal, numberScan, POW10, parseNumberBytes } from './number-bytes.js';
import type { NumericBuilder } from './text-columns.js';

/** `fastNumeric`'s mark of a column that never keeps a number's text (a forced numeric one). */
export const KEEPS_NO_TEXT = 2;

const LF = 0x0a;
const CR = 0x0d;

/** What the fast path reads of the reader's state and what it moves on (the record's field, line). */
export interface NumberRunState {
  /**
   * Non-zero where column `j` is a numeric builder that the fast path may fill directly:
   * `KEEPS_NO_TEXT` when it never keeps a number's text (no canonical-form check is needed), else 1.
   */
  readonly fastNumeric: Uint8Array;
  readonly builders: readonly ColumnBuilder[];
  /** The delimiter's byte. */
  readonly delim: number;
  /** The row the record fills. */
  readonly rows: number;
  /** Significant digits a number's text may have and still be spelled exactly by the number. */
  readonly canonicalDigits: number;
  /** The field of the record at the scan's position; left at the first field the fast path did not take. */
  fieldIndex: number;
  /** The current line (1-based); counted on when the fast path ends a record. */
  line: number;
  /** Set when the fast path ends a record at a CR (an LF after it belongs to the same line end). */
  afterCR: boolean;
  /** The record is complete: check its field count and count the row. */
  endRecord(): void;
}

/**
 * Plain numbers from `buf[pos..n)` into their columns while they last. Returns where it stopped:
 * `pos` itself when the field there is not such a number (the general path takes it), or the
 * start of the field or record after the last number taken.
 */
export function numberRun(state: NumberRunState, buf: Uint8Array, pos: number, n: number): number {
  const fast = state.fastNumeric;
  const builders = state.builders;
  const delim = state.delim;
  const row = state.rows;
  const canonicalDigits = state.canonicalDigits;
  let j = state.fieldIndex;
  while (j < fast.length && fast[j] !== 0) {
    let p = pos;
    let negative = false;
    if (buf[p] === 0x2d) {
      negative = true;
      p++;
    }
    const intStart = p;
    // The first 15 significant digits in `mantissa`, the next four in `extra` (number-bytes.ts's split).
    let mantissa = 0;
    let extra = 0;
    let lead = 0; // leading zeros, which are not significant digits
    let c = 0;
    while (p < n && (c = buf[p] - 0x30) >= 0 && c <= 9) {
      if (mantissa === 0 && c === 0) lead++;
      else if (p - intStart - lead < 15) mantissa = mantissa * 10 + c;
      else extra = extra * 10 + c;
      p++;
    }
    const intDigits = p - intStart;
    let fracDigits = 0;
    let dot = false;
    if (p < n && buf[p] === 0x2e) {
      dot = true;
      const fracStart = ++p;
      while (p < n && (c = buf[p] - 0x30) >= 0 && c <= 9) {
        if (mantissa === 0 && c === 0) lead++;
        else if (p - fracStart + intDigits - lead < 15) mantissa = mantissa * 10 + c;
        else extra = extra * 10 + c;
        p++;
      }
      fracDigits = p - fracStart;
    }
    const digits = intDigits + fracDigits;
    const t = p < n ? buf[p] : -1;
    // A record of one field takes the general path (a blank line or a short row).
    if (!(t === delim || ((t === LF || t === CR) && j > 0)) || digits === 0 || (mantissa === 0 && negative)) break;
    let value: number;
    let canonical: boolean;
    if (digits > 15) {
      // A long number (a double printed in full): the exact long-decimal parse, or the general path.
      const significant = digits - lead;
      if (fast[j] === KEEPS_NO_TEXT && significant > 15 && significant <= 19) {
        // Its text is never kept: the value alone, from the digits already split (no rescan).
        value = exactDecimal(mantissa, extra, significant - 15, -fracDigits);
        if (value !== value) break;
        if (negative) value = -value;
        canonical = true;
      } else {
        value = parseNumberBytes(buf, pos, p, canonicalDigits);
        if (value !== value) break;
        canonical = numberScan.canonical;
      }
    } else {
      value = fracDigits === 0 ? mantissa : mantissa / POW10[fracDigits];
      if (negative) value = -value;
      canonical =
        intDigits > 0 &&
        !(intDigits > 1 && buf[intStart] === 0x30) &&
        !(dot && (fracDigits === 0 || buf[p - 1] === 0x30)) &&
        digits - lead <= canonicalDigits &&
        (value === 0 || value >= 1e-6 || value <= -1e-6);
    }
    (builders[j] as NumericBuilder).putNumber(row, value, canonical, buf, pos, p);
    pos = p + 1;
    if (t === delim) {
      j++;
      continue;
    }
    state.fieldIndex = j;
    state.endRecord();
    state.line++;
    if (t === CR) state.afterCR = true;
    return pos;
  }
  state.fieldIndex = j;
  return pos;
}
