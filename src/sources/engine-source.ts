/**
 * A training source for the engines (`grove fit --engine`): a database, or a data file that
 * DuckDB reads with the table function its format names (`DATA_FORMATS`, formats.ts).
 */

import { GroveError } from '../core/errors.js';
import type { EngineSource } from '../engines/schema.js';
import { isDatabaseSpec, openDuckDB, parseDatabaseSpec, type RowsSelector, type SourceSpec } from '../engines/spec.js';
import { duckdbFormatNames, formatOf } from './formats.js';

/**
 * Parse a training source: a data file (trained on in memory, or by DuckDB when its format says
 * how DuckDB reads it), `duckdb:PATH.duckdb`, `postgres://user@host:port/db`,
 * `clickhouse://host:port/db`. A file that DuckDB does not read is an error only when DuckDB is
 * asked to read it.
 */
export async function parseSourceSpec(spec: string, rows: RowsSelector = {}): Promise<SourceSpec> {
  if (isDatabaseSpec(spec)) return parseDatabaseSpec(spec, rows);
  if (rows.table !== undefined || rows.query !== undefined)
    throw new GroveError('--table and --query name rows inside a database, not in a file', { code: 'E_OPTION' });
  const source: EngineSource = {
    label: spec,
    from: (p) => {
      const { format, known } = formatOf(spec);
      if (!known || !format.duckdb)
        throw new GroveError(`--engine duckdb reads ${duckdbFormatNames()} files, not '${spec}'`, {
          file: spec,
          code: 'E_OPTION',
        });
      return format.duckdb(p.add(spec));
    },
  };
  return { kind: 'file', defaultEngine: 'memory', label: spec, connect: () => openDuckDB(), source };
}
