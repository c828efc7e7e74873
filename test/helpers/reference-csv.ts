/**
 * The CSV reader grove had before the streaming one: csv-parse splits the whole text into string
 * rows, encodeTable encodes them. Kept only as the reference the streaming reader must match.
 */
import { parse } from 'csv-parse/sync';
import type { Dataset } from '../../src/data/dataset.js';
import { type EncodeOptions, encodeTable } from '../../src/data/encode.js';

/** Parse CSV text the old way (no error handling beyond what encodeTable does). */
export function referenceParseCsv(text: string, options: EncodeOptions = {}): Dataset {
  const starts: number[] = [];
  let prevEnd = 0;
  let prevEmpty = 0;
  const records = parse(text, {
    bom: true,
    delimiter: ',',
    record_delimiter: ['\r\n', '\n', '\r'],
    relax_column_count: true,
    skip_empty_lines: true,
    trim: false,
    on_record: (record: string[], ctx) => {
      starts.push(prevEnd + 1 + (ctx.empty_lines - prevEmpty));
      prevEnd = ctx.lines;
      prevEmpty = ctx.empty_lines;
      return record;
    },
  }) as string[][];
  const isBlank = (r: string[]): boolean => r.length === 1 && r[0].trim() === '';
  let h = 0;
  while (h < records.length && isBlank(records[h])) h++;
  const header = records[h].map((name) => name.trim());
  const rows: string[][] = [];
  const rowNumbers: number[] = [];
  for (let i = h + 1; i < records.length; i++) {
    if (isBlank(records[i]) && header.length > 1) continue;
    rows.push(records[i]);
    rowNumbers.push(starts[i]);
  }
  return encodeTable(header, rows, { ...options, rowNumbers });
}
