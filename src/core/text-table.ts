/** Plain-text tables for the CLI's reports: one padded line per row, user texts escaped. */

import { escapeControl } from './errors.js';

/** How a column's cells line up: left (texts) or right (numbers). */
export type Align = 'left' | 'right';

/**
 * Lines of a table: the header, then each row, columns two spaces apart and padded to the widest
 * cell. Control characters in cells are escaped so a label cannot break the layout. `align` gives
 * each column's alignment (default: the first column left, the others right).
 */
export function textTable(
  header: readonly string[],
  rows: ReadonlyArray<readonly string[]>,
  align?: Align[],
): string[] {
  const cells = [header, ...rows].map((r) => r.map((c) => escapeControl(c)));
  const widths = header.map((_, j) => {
    let w = 0;
    for (const r of cells) w = Math.max(w, (r[j] ?? '').length);
    return w;
  });
  const sideOf = (j: number): Align => align?.[j] ?? (j === 0 ? 'left' : 'right');
  return cells.map((r) =>
    widths
      .map((w, j) => {
        const c = r[j] ?? '';
        return sideOf(j) === 'left' ? c.padEnd(w) : c.padStart(w);
      })
      .join('  ')
      .trimEnd(),
  );
}

/** A number with `digits` significant digits, without exponent for everyday magnitudes. */
export function significant(x: number, digits = 3): string {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? '—' : x > 0 ? '∞' : '-∞';
  if (x === 0) return '0';
  const magnitude = Math.floor(Math.log10(Math.abs(x)));
  if (magnitude < -4 || magnitude >= 15) return x.toExponential(digits - 1);
  return x.toFixed(Math.max(0, digits - 1 - magnitude));
}

/** `1 node`, `2 nodes`; `plural` for irregular words (`leaf` → `leaves`). */
export function counted(n: number, word: string, plural = `${word}s`): string {
  return `${n} ${n === 1 ? word : plural}`;
}
