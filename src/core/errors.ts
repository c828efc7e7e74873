/**
 * The one error type grove throws for bad input. The CLI prints `message` as a single line
 * (no stack trace) and exits with code 2; library users can read the structured fields.
 */
export class GroveError extends Error {
  /** File the problem is in, when there is one. */
  readonly file?: string;
  /** 1-based line/row number in that file (the header is row 1 of a CSV). */
  readonly row?: number;
  /** Column name (or 1-based number) the problem is in. */
  readonly column?: string;

  constructor(message: string, where: { file?: string; row?: number; column?: string } = {}) {
    super(formatLocation(where) + message);
    this.name = 'GroveError';
    this.file = where.file;
    this.row = where.row;
    this.column = where.column;
  }
}

function formatLocation(where: { file?: string; row?: number; column?: string }): string {
  const parts: string[] = [];
  if (where.file !== undefined) parts.push(where.file);
  if (where.row !== undefined) parts.push(`row ${where.row}`);
  if (where.column !== undefined) parts.push(`column '${where.column}'`);
  return parts.length ? `${parts.join(', ')}: ` : '';
}
