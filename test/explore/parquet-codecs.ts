/** Test helper: a Parquet file written again by DuckDB with its pages compressed by `codec`. */
import { DuckDBInstance } from '@duckdb/node-api';

const q = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** `from` (Parquet) written to `to` by DuckDB, its pages compressed with `codec` ('gzip', 'brotli', …). */
export async function recompressParquet(from: string, to: string, codec: string): Promise<string> {
  const instance = await DuckDBInstance.create(':memory:');
  const db = await instance.connect();
  try {
    await db.run(`COPY (SELECT * FROM read_parquet(${q(from)})) TO ${q(to)} (FORMAT parquet, COMPRESSION ${codec})`);
  } finally {
    db.closeSync();
    instance.closeSync();
  }
  return to;
}
