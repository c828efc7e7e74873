/**
 * CSV and TSV files into Datasets.
 *
 * THE ADAPTER TO SWAP: until the streaming delimited reader (`createDelimitedReader`, src/data/)
 * lands, this collects the (gunzipped) bytes into one text and parses it with today's readers.
 * Every CSV/TSV read of every command goes through {@link readDelimited}, and nowhere else.
 */

import { parse } from 'csv-parse/sync';
import { GroveError } from '../core/errors.js';
import { parseCsvText } from '../data/csv.js';
import type { Dataset } from '../data/dataset.js';
import { type EncodeOptions, encodeTable } from '../data/encode.js';

/** Options of a delimited read: the encoding options and the field delimiter. */
export interface DelimitedReadOptions extends EncodeOptions {
  delimiter: ',' | '\t';
}

/** Read delimited text from a stream of byte chunks into a Dataset (header row first). */
export async function readDelimited(
  chunks: AsyncIterable<Uint8Array>,
  options: DelimitedReadOptions,
): Promise<Dataset> {
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  const text = Buffer.concat(parts).toString('utf8');
  const { delimiter, ...encode } = options;
  if (delimiter === ',') return parseCsvText(text, encode);
  return parseTsvText(text, encode);
}

/** Tab-separated text: csv-parse with a tab delimiter, then encodeTable (blank lines skipped). */
function parseTsvText(text: string, options: EncodeOptions): Dataset {
  const file = options.source;
  let records: string[][];
  const lines: number[] = [];
  try {
    records = parse(text, {
      bom: true,
      delimiter: '\t',
      record_delimiter: ['\r\n', '\n', '\r'],
      relax_column_count: true,
      skip_empty_lines: true,
      relax_quotes: true,
      on_record: (record: string[], ctx) => {
        lines.push(ctx.lines);
        return record;
      },
    }) as string[][];
  } catch (err) {
    throw new GroveError(`malformed TSV: ${(err as Error).message}`, { file, code: 'E_DATA' });
  }
  if (records.length === 0) throw new GroveError('empty file', { file, code: 'E_DATA' });
  const header = records[0].map((name) => name.trim());
  if (records.length === 1) throw new GroveError('no data rows (the file has only a header)', { file, code: 'E_DATA' });
  return encodeTable(header, records.slice(1), { ...options, rowNumbers: Int32Array.from(lines.slice(1)) });
}
