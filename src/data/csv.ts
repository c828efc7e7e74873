/**
 * CSV reading (Node): a header row, then one record per row. Parsing is done by csv-parse
 * (quoted fields, embedded commas/newlines/quotes, CRLF/LF/CR line ends, UTF-8 BOM); encoding by
 * {@link encodeTable}. Error messages give the 1-based line a record starts on (header = line 1).
 */

import { readFileSync } from 'node:fs';
import { CsvError, parse } from 'csv-parse/sync';
import { GroveError } from '../core/errors.js';
import type { Dataset } from './dataset.js';
import { type EncodeOptions, encodeTable } from './encode.js';

/** Records of a CSV text and the line each record starts on. */
export interface CsvRecords {
  header: string[];
  /** 1-based line number of the header (1 unless the file starts with blank lines). */
  headerRow: number;
  rows: string[][];
  /** 1-based line number of each row in `rows`. */
  rowNumbers: Int32Array;
}

/**
 * Split CSV text into the header and data records, with line numbers. Blank lines are skipped.
 * Ragged records are returned as they are (encodeTable reports them with their line).
 */
export function parseCsvRecords(text: string, file?: string): CsvRecords {
  const starts: number[] = [];
  let prevEnd = 0; // line the previous record ended on
  let prevEmpty = 0; // blank lines skipped before the previous record
  let records: string[][];
  try {
    records = parse(text, {
      bom: true,
      delimiter: ',',
      record_delimiter: ['\r\n', '\n', '\r'],
      relax_column_count: true,
      skip_empty_lines: true,
      trim: false,
      on_record: (record: string[], ctx) => {
        // ctx.lines is the line the record ends on; a record starts after the previous record's
        // end and any blank lines skipped since (quoted fields may span several lines).
        starts.push(prevEnd + 1 + (ctx.empty_lines - prevEmpty));
        prevEnd = ctx.lines;
        prevEmpty = ctx.empty_lines;
        return record;
      },
    }) as string[][];
  } catch (e) {
    if (e instanceof CsvError) {
      const line = (e as CsvError & { lines?: number }).lines;
      // csv-parse messages end in "at line N" / "on line N"; the line goes in the location prefix.
      const msg = e.message.replace(/\s*(?:at|on) line \d+.*$/s, '');
      throw new GroveError(`malformed CSV: ${msg}`, {
        file,
        code: 'E_DATA',
        ...(typeof line === 'number' ? { row: line } : {}),
      });
    }
    throw e;
  }
  // A line holding only spaces parses as one blank field: treat it as a blank line.
  const isBlank = (r: string[]): boolean => r.length === 1 && r[0].trim() === '';
  let h = 0;
  while (h < records.length && isBlank(records[h])) h++;
  if (h === records.length) throw new GroveError('empty file', { file, code: 'E_DATA' });
  const header = records[h].map((name) => name.trim());

  const rows: string[][] = [];
  const rowNumbers: number[] = [];
  for (let i = h + 1; i < records.length; i++) {
    const r = records[i];
    if (isBlank(r) && header.length > 1) continue;
    rows.push(r);
    rowNumbers.push(starts[i]);
  }
  return { header, headerRow: starts[h], rows, rowNumbers: Int32Array.from(rowNumbers) };
}

/** Parse CSV text into a Dataset. `options.source` names the file in error messages. */
export function parseCsvText(text: string, options: EncodeOptions = {}): Dataset {
  const file = options.source;
  const { header, headerRow, rows, rowNumbers } = parseCsvRecords(text, file);

  const seen = new Set<string>();
  for (let j = 0; j < header.length; j++) {
    const name = header[j];
    if (name === '')
      throw new GroveError(`empty column name in the header (column ${j + 1})`, {
        file,
        code: 'E_DATA',
        row: headerRow,
        column: String(j + 1),
      });
    if (seen.has(name))
      throw new GroveError(`duplicate column name '${name}' in the header`, {
        file,
        code: 'E_DATA',
        row: headerRow,
        column: name,
      });
    seen.add(name);
  }
  if (header.length === 1) {
    const hint = /[;\t|]/.test(header[0]) ? ' (is the file comma-separated? grove reads only commas)' : '';
    throw new GroveError(`only one column '${header[0]}' in the header; need features and a target${hint}`, {
      file,
      code: 'E_DATA',
      row: headerRow,
    });
  }
  if (rows.length === 0) throw new GroveError('no data rows (the file has only a header)', { file, code: 'E_DATA' });

  return encodeTable(header, rows, { ...options, rowNumbers });
}

/** Read a whole text file as UTF-8; file-system problems become GroveErrors naming the file. */
export function readTextFile(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'is a directory'
          : code === 'EACCES' || code === 'EPERM'
            ? 'permission denied'
            : (code ?? (e as Error).message);
    throw new GroveError(`cannot read file: ${reason}`, { file: path, code: 'E_IO' });
  }
}

/** Read a CSV file (header row, class in the last column unless `options.target`). */
export function readCsv(path: string, options: EncodeOptions = {}): Dataset {
  const text = readTextFile(path);
  return parseCsvText(text, { ...options, source: options.source ?? path });
}
