/**
 * The delimiter of a delimited text whose delimiter was not given: a comma, unless the first line
 * has no comma (outside quotes) but has semicolons, tabs or bars, as files saved where the comma is
 * the decimal mark do.
 */

/** The delimiters tried after the comma, in the order a tie is settled. */
export const SNIFFED_DELIMITERS: readonly string[] = [';', '\t', '|'];

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;
const COMMA = 0x2c;

/**
 * The delimiter for `bytes`, the start of the input (UTF-8): `,` when its first non-blank line
 * holds a comma outside quotes or none of {@link SNIFFED_DELIMITERS}; else the one it holds most.
 * Linear in the first line.
 */
export function sniffDelimiter(bytes: Uint8Array): string {
  const counts = new Map<number, number>();
  let quoted = false;
  let seen = false; // a character other than blanks and line ends on this line
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === QUOTE) quoted = !quoted;
    else if (!quoted && (b === LF || b === CR)) {
      if (seen) break;
      continue;
    } else if (!quoted) counts.set(b, (counts.get(b) ?? 0) + 1);
    if (b !== 0x20 && b !== 0x09) seen = true;
  }
  if ((counts.get(COMMA) ?? 0) > 0) return ',';
  let best = ',';
  let most = 0;
  for (const d of SNIFFED_DELIMITERS) {
    const n = counts.get(d.charCodeAt(0)) ?? 0;
    if (n > most) [best, most] = [d, n];
  }
  return best;
}

/**
 * The delimiter byte to read `bytes` (the start of the input) with when none was given
 * ({@link sniffDelimiter}), telling `onWarning` when it is not a comma.
 */
export function sniffDelimiterByte(
  bytes: Uint8Array,
  file: string | undefined,
  onWarning: ((message: string) => void) | undefined,
): number {
  const d = sniffDelimiter(bytes);
  if (d !== ',') {
    const where = file !== undefined ? `${file}: ` : '';
    onWarning?.(
      `${where}no comma in the header: read with ${delimiterName(d)} as the delimiter (sniffed; --delimiter sets it)`,
    );
  }
  return d.charCodeAt(0);
}

/** A delimiter as messages show it: `';'`, `tab`. */
export function delimiterName(d: string): string {
  return d === '\t' ? 'tab' : `'${d}'`;
}
