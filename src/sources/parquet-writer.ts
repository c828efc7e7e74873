/**
 * Writing a table to a Parquet file through DuckDB, atomically (io/atomic.ts): DuckDB writes a
 * temporary file beside the target, which is then renamed over it.
 */

import { GroveError } from '../core/errors.js';
import { pauseForTests, writeAtomicWith } from '../io/atomic.js';
import { duckdbDialect } from '../sql/index.js';
import { withDuckDB } from './duckdb.js';

/** One output column: its name, SQL type and value of row `i` (`null` = missing). */
export type OutColumn =
  | { name: string; type: 'VARCHAR'; value: (i: number) => string | null }
  | { name: string; type: 'DOUBLE' | 'BIGINT'; value: (i: number) => number | null };

/** Write `nRows` rows of `columns` to the Parquet file `path`; nothing half-written on failure. */
export async function writeParquetFile(path: string, columns: readonly OutColumn[], nRows: number): Promise<void> {
  try {
    await writeAtomicWith(path, (tmp) =>
      withDuckDB(async (db) => {
        const defs = columns.map((c) => `${duckdbDialect.quote(c.name)} ${c.type}`).join(', ');
        await db.run(`CREATE TABLE out (${defs})`);
        const appender = await db.createAppender('out');
        for (let i = 0; i < nRows; i++) {
          for (const c of columns) {
            const v = c.value(i);
            if (v === null) appender.appendNull();
            else if (c.type === 'VARCHAR') appender.appendVarchar(v as string);
            else if (c.type === 'DOUBLE') appender.appendDouble(v as number);
            else appender.appendBigInt(BigInt(v as number));
          }
          appender.endRow();
        }
        appender.closeSync();
        pauseForTests(path, 'IN_WRITE');
        await db.run(`COPY out TO ${duckdbDialect.string(tmp)} (FORMAT parquet)`);
      }),
    );
  } catch (err) {
    if (err instanceof GroveError) throw err;
    throw new GroveError(`cannot write file (${String((err as Error).message).split('\n')[0]})`, { file: path });
  }
}
