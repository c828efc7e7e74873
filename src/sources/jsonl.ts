/**
 * JSON Lines (`.jsonl`, `.ndjson`): one JSON object per line, read with the same rules as
 * {@link datasetFromRows} (columns = the first object's keys; numbers, strings, booleans, null).
 */

import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { GroveError } from '../core/errors.js';
import type { Dataset } from '../data/dataset.js';
import { datasetFromRows, type EncodeOptions } from '../data/encode.js';

/** Read JSON Lines from a stream of byte chunks; blank lines are skipped; rows are numbered by line. */
export async function readJsonLines(chunks: AsyncIterable<Uint8Array>, options: EncodeOptions): Promise<Dataset> {
  const file = options.source;
  const rows: Array<Record<string, unknown>> = [];
  const lineNumbers: number[] = [];
  const lines = createInterface({ input: Readable.from(chunks), crlfDelay: Number.POSITIVE_INFINITY });
  let line = 0;
  for await (const raw of lines) {
    line++;
    const text = line === 1 ? raw.replace(/^\uFEFF/, '') : raw;
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw new GroveError(`invalid JSON: ${(err as Error).message}`, { file, code: 'E_DATA', row: line });
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      throw new GroveError('expected one JSON object per line', { file, code: 'E_DATA', row: line });
    rows.push(value as Record<string, unknown>);
    lineNumbers.push(line);
  }
  if (rows.length === 0) throw new GroveError('no data rows', { file, code: 'E_DATA' });
  return datasetFromRows(rows, { ...options, rowNumbers: Int32Array.from(lineNumbers) });
}
