import { GroveError } from '../core/errors.js';
import type { Dialect } from './dialect.js';

/** A table name as given to --table: dot-separated parts (schema.table), each quoted. */
export function tableReference(name: string, dialect: Dialect): string {
  const parts = name.split('.');
  if (name.length === 0 || parts.some((p) => p.length === 0)) {
    throw new GroveError(`--table: expected a table name such as rows or schema.rows, got '${name}'`, {
      code: 'E_OPTION',
    });
  }
  return parts.map((p) => dialect.quote(p)).join('.');
}
