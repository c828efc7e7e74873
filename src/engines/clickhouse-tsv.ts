/**
 * ClickHouse's `TabSeparatedWithNamesAndTypes` output, parsed as its bytes arrive: a line of names,
 * a line of types, then a line per row. Text escapes its tabs, newlines and backslashes and NULL is
 * `\N`, so a raw newline always ends a row and a raw tab always ends a cell.
 */

import type { GroveError } from '../core/errors.js';
import type { TimeKind } from '../sql/index.js';

/** A cell: a number for a numeric column, else text; null for NULL. */
export type TsvCell = string | number | null;

/** ClickHouse types read as numbers. */
export const CLICKHOUSE_NUMERIC = /^(Nullable\()?(U?Int\d+|Float\d+|Decimal)/;

/** A ClickHouse type of dates (`Date`, `Date32`) or timestamps (`DateTime`, `DateTime64(3, 'UTC')`), else undefined. */
export function clickhouseTimeKind(type: string): TimeKind | undefined {
  const m = /^(?:Nullable\()?(Date32|Date|DateTime64|DateTime)\b/.exec(type);
  if (!m) return undefined;
  return m[1].startsWith('DateTime') ? 'timestamp' : 'date';
}

const ESCAPED = new Map([
  ['b', '\b'],
  ['f', '\f'],
  ['r', '\r'],
  ['n', '\n'],
  ['t', '\t'],
  ['0', '\0'],
]);

/** ClickHouse's spelling of the doubles that have no decimal form. */
const SPECIAL = new Map([
  ['inf', Number.POSITIVE_INFINITY],
  ['+inf', Number.POSITIVE_INFINITY],
  ['-inf', Number.NEGATIVE_INFINITY],
  ['nan', Number.NaN],
  ['-nan', Number.NaN],
]);

/** A text cell without its backslash escapes. */
function unescapeText(cell: string): string {
  if (!cell.includes('\\')) return cell;
  let out = '';
  for (let i = 0; i < cell.length; i++) {
    const ch = cell[i];
    if (ch !== '\\' || i + 1 === cell.length) {
      out += ch;
      continue;
    }
    const next = cell[++i];
    out += ESCAPED.get(next) ?? next;
  }
  return out;
}

/** Rows of one response, fed its bytes in order with {@link TsvRows.push} and ended with {@link TsvRows.end}. */
export class TsvRows {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  private partial = '';
  private width = -1;
  private numeric: boolean[] | null = null;
  private rows = 0;

  constructor(
    private readonly onRow: (cells: TsvCell[]) => void,
    private readonly fail: (message: string) => GroveError,
  ) {}

  /** Parse the lines `bytes` completes. */
  push(bytes: Uint8Array): void {
    this.lines(this.decode(bytes, true));
  }

  /** The response is over: it must end with a whole line. */
  end(): void {
    this.lines(this.decode(new Uint8Array(0), false));
    if (this.partial !== '') throw this.fail(`the result ends inside a row: ${this.partial.slice(0, 200)}`);
    if (this.numeric === null) throw this.fail('the result has no header lines');
  }

  private decode(bytes: Uint8Array, stream: boolean): string {
    try {
      return this.partial + this.decoder.decode(bytes, { stream });
    } catch {
      throw this.fail(`the result is not valid UTF-8 (after row ${this.rows})`);
    }
  }

  private lines(text: string): void {
    let start = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
      this.line(text.slice(start, nl));
      start = nl + 1;
    }
    this.partial = text.slice(start);
  }

  private line(line: string): void {
    const cells = line.split('\t');
    if (this.width < 0) {
      this.width = cells.length;
      return;
    }
    if (cells.length !== this.width) throw this.fail(line.slice(0, 500));
    if (this.numeric === null) {
      this.numeric = cells.map((type) => CLICKHOUSE_NUMERIC.test(type));
      return;
    }
    const row: TsvCell[] = new Array(cells.length);
    for (let j = 0; j < cells.length; j++) row[j] = this.cell(cells[j], j, line);
    this.rows++;
    this.onRow(row);
  }

  private cell(text: string, j: number, line: string): TsvCell {
    if (text === '\\N') return null;
    if (!(this.numeric as boolean[])[j]) return unescapeText(text);
    const special = SPECIAL.get(text);
    if (special !== undefined) return special;
    const value = Number(text);
    // Not a number where the types line promised one: the server's error text, sent mid-result.
    if (text === '' || Number.isNaN(value)) throw this.fail(line.slice(0, 500));
    return value;
  }
}
