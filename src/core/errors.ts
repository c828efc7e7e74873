/**
 * What kind of bad input a {@link GroveError} reports, stable across versions so callers can
 * branch on it:
 *
 * - `E_INPUT`: an argument of the wrong type or shape (e.g. `predict(5)`, `fit(null)`); also the
 *   default when nothing more specific applies.
 * - `E_OPTION`: an option value (a `TreeOptions` field, a predict option, a CLI flag).
 * - `E_DATA`: the data: a file's or a row's contents, a column, a label, a weight.
 * - `E_MODEL`: a model file or model JSON that is not a valid grove model.
 * - `E_IO`: reading or writing a file failed.
 */
export type GroveErrorCode = 'E_INPUT' | 'E_OPTION' | 'E_DATA' | 'E_MODEL' | 'E_IO';

/** Where a problem is, and what kind it is; every field is optional. */
export interface GroveErrorDetails {
  file?: string;
  row?: number;
  column?: string;
  code?: GroveErrorCode;
}

/**
 * The one error type grove throws for bad input. The CLI prints `message` as a single line
 * (no stack trace) and exits with code 2; library users can read the structured fields.
 *
 * `message` is always one line of printable text: control characters from the input (newlines,
 * NUL, ANSI escapes, C1 controls, U+2028/2029), wherever they come from (a file name, a column
 * name, a cell), are written as escapes (`\n`, `\x1b`, `\u2028`). The structured fields keep the
 * raw strings.
 */
export class GroveError extends Error {
  /** The kind of problem (see {@link GroveErrorCode}). */
  readonly code: GroveErrorCode;
  /** File the problem is in, when there is one. */
  readonly file?: string;
  /** 1-based line/row number in that file (the header is row 1 of a CSV). */
  readonly row?: number;
  /** Column name (or 1-based number) the problem is in. */
  readonly column?: string;

  constructor(message: string, where: GroveErrorDetails = {}) {
    super(escapeControl(formatLocation(where) + message));
    this.name = 'GroveError';
    this.code = where.code ?? 'E_INPUT';
    this.file = where.file;
    this.row = where.row;
    this.column = where.column;
  }
}

function formatLocation(where: GroveErrorDetails): string {
  const parts: string[] = [];
  if (where.file !== undefined) parts.push(where.file);
  if (where.row !== undefined) parts.push(`row ${where.row}`);
  if (where.column !== undefined) parts.push(`column '${where.column}'`);
  return parts.length ? `${parts.join(', ')}: ` : '';
}

// C0 controls, DEL, C1 controls and the two Unicode line separators: anything a terminal could
// act on or that would break the message over lines.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
const SHORT: ReadonlyMap<string, string> = new Map([
  ['\n', '\\n'],
  ['\r', '\\r'],
  ['\t', '\\t'],
  ['\0', '\\0'],
]);

/** `text` with every control character written as an escape (`\n`, `\x1b`, `\u2028`), so it prints as one inert line. */
export function escapeControl(text: string): string {
  return text.replace(CONTROL, (ch) => {
    const short = SHORT.get(ch);
    if (short !== undefined) return short;
    const code = ch.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16)}`;
  });
}
