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
 * `message` is always one line of printable text (see {@link printable}): control characters
 * from the input (newlines, NUL, ANSI escapes, C1 controls, U+2028/2029), wherever they come from
 * (a file name, a column name, a cell), are written as escapes (`\n`, `\x1b`, `\u2028`), and a
 * message longer than {@link MESSAGE_MAX} characters is cut in the middle, saying how much was
 * cut. The structured fields keep the raw strings.
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
    super(printable(formatLocation(where) + message));
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

/**
 * `text` with every control character written as an escape (`\n`, `\x1b`, `\u2028`), so it prints as one
 * inert line.
 */
export function escapeControl(text: string): string {
  return text.replace(CONTROL, (ch) => {
    const short = SHORT.get(ch);
    if (short !== undefined) return short;
    const code = ch.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16)}`;
  });
}

/**
 * Longest message grove prints, in characters of its text before escaping: a 100 MB header line or
 * a 1 MB cell quoted in a message must not make a 100 MB message.
 */
export const MESSAGE_MAX = 2000;

/** A cut must not fall between the halves of a surrogate pair. */
function isLowSurrogate(text: string, at: number): boolean {
  const c = text.charCodeAt(at);
  return c >= 0xdc00 && c <= 0xdfff;
}

/**
 * `text` as one inert, bounded line for a message: cut in the middle to at most `max` characters
 * when longer (`… (N characters cut) …`, so the start, which says where, and the end stay), then
 * every control character escaped ({@link escapeControl}). Every message grove prints (errors,
 * warnings, notes, the argument parser's) goes through it.
 */
export function printable(text: string, max = MESSAGE_MAX): string {
  if (text.length <= max) return escapeControl(text);
  let head = Math.ceil((max * 2) / 3);
  let tail = text.length - (max - head);
  if (isLowSurrogate(text, head)) head--;
  if (isLowSurrogate(text, tail)) tail++;
  const cut = tail - head;
  return escapeControl(`${text.slice(0, head)}… (${cut.toLocaleString('en-US')} characters cut) …${text.slice(tail)}`);
}
