import { parse } from 'csv-parse/sync';

/** A CSV text's header and string rows (csv-parse), for tests that load a file into a database as text. */
export function parseCsvRows(text: string): { header: string[]; rows: string[][] } {
  const records = parse(text, {
    bom: true,
    record_delimiter: ['\r\n', '\n', '\r'],
    relax_column_count: true,
    skip_empty_lines: true,
  }) as string[][];
  return { header: records[0].map((name) => name.trim()), rows: records.slice(1) };
}
