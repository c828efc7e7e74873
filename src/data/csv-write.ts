/** Writing CSV text: one field, one line (RFC 4180), for the CLI's outputs and the comparison's results.csv. */

/** One CSV field, quoted only when it must be (RFC 4180). */
export function csvField(value: string | number | boolean): string {
  const s = String(value);
  return /[",\r\n]/.test(s) || s !== s.trim() ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One CSV line of `values` (no line end). */
export function csvLine(values: ReadonlyArray<string | number | boolean>): string {
  return values.map(csvField).join(',');
}
