/** What a cell's text means before any column is typed: the missing-value tokens and grove's number syntax. */

/**
 * The cell texts a CSV/TSV file's reader takes as missing unless told otherwise (`--na`):
 * empty, `?` (Weka/UCI), `NA` (R), `N/A`, `NaN` and `null`. Matched exactly after trimming.
 */
export const DEFAULT_NA_TOKENS: readonly string[] = Object.freeze(['', '?', 'NA', 'N/A', 'NaN', 'null']);

/**
 * Strict decimal / scientific number text: `12`, `-3.5`, `.5`, `5.`, `1e-3`, `+2E+10` (finite or
 * not; see {@link isNumericToken}).
 */
export const NUMBER_RE = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** True when a (trimmed) token is a finite decimal number by grove's rules. */
export function isNumericToken(trimmed: string): boolean {
  return typeof trimmed === 'string' && NUMBER_RE.test(trimmed) && Number.isFinite(Number(trimmed));
}

/**
 * The message refusing a finite number that float32 cannot hold: every reader refuses it (with
 * row and column) rather than read the column another way; the data-sources rule is never a
 * silent type change.
 */
export function float32TooLarge(text: string): string {
  return `'${text}' is too large for float32 (largest 3.4028235e38); read without float32 (--float32)`;
}
