/**
 * Test helper: write a CSV file's data as Parquet, JSON Lines, TSV and CSV.gz (through DuckDB,
 * which parses the CSV itself) and as Arrow IPC (apache-arrow, from DuckDB's typed values), so
 * grove's readers are checked against files it did not write.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { DuckDBInstance, DuckDBTypeId } from '@duckdb/node-api';
import { Bool, Dictionary, Float64, Int32, Int64, Table, tableToIPC, Utf8, vectorFromArray } from 'apache-arrow';

const q = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** The formats written, by file extension. */
export const FORMATS = ['parquet', 'jsonl', 'tsv', 'csv.gz', 'arrow'] as const;

/** Write `csv`'s data as `dir/NAME.<format>` for every format (`booleans`: columns typed BOOLEAN); returns the paths by format. */
export async function convertCsv(
  csv: string,
  dir: string,
  name: string,
  booleans: readonly string[] = [],
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const instance = await DuckDBInstance.create(':memory:');
  const db = await instance.connect();
  try {
    // DuckDB would sniff yes/no as booleans: booleans only where the test says so.
    const declared = booleans.map((b) => `${q(b)}: 'BOOLEAN'`).join(', ');
    const src = `read_csv(${q(csv)}, header = true, delim = ',', quote = '"', nullstr = ['?', ''], auto_type_candidates = ['BIGINT', 'DOUBLE', 'VARCHAR']${declared ? `, types = {${declared}}` : ''})`;
    await db.run(`CREATE TABLE t AS SELECT * FROM ${src}`);
    out.parquet = join(dir, `${name}.parquet`);
    await db.run(`COPY t TO ${q(out.parquet)} (FORMAT parquet)`);
    out.jsonl = join(dir, `${name}.jsonl`);
    await db.run(`COPY t TO ${q(out.jsonl)} (FORMAT json)`);
    out.tsv = join(dir, `${name}.tsv`);
    await db.run(`COPY t TO ${q(out.tsv)} (FORMAT csv, DELIMITER '\t', HEADER true)`);
    out['csv.gz'] = join(dir, `${name}.csv.gz`);
    writeFileSync(out['csv.gz'], gzipSync(readFileSync(csv)));
    const reader = await db.runAndReadAll('SELECT * FROM t');
    const names = reader.columnNames();
    const types = reader.columnTypes();
    const columns = reader.getColumns();
    const vectors: Record<string, ReturnType<typeof vectorFromArray>> = {};
    names.forEach((n, j) => {
      const id = types[j].typeId;
      const values = columns[j];
      if (id === DuckDBTypeId.DOUBLE) vectors[n] = vectorFromArray(values as Array<number | null>, new Float64());
      else if (id === DuckDBTypeId.BIGINT) vectors[n] = vectorFromArray(values as Array<bigint | null>, new Int64());
      else if (id === DuckDBTypeId.BOOLEAN) vectors[n] = vectorFromArray(values as Array<boolean | null>, new Bool());
      else
        vectors[n] = vectorFromArray(
          values.map((v) => (v === null ? null : String(v))),
          new Dictionary(new Utf8(), new Int32()),
        );
    });
    out.arrow = join(dir, `${name}.arrow`);
    writeFileSync(out.arrow, tableToIPC(new Table(vectors), 'file'));
  } finally {
    db.closeSync();
    instance.closeSync();
  }
  return out;
}
