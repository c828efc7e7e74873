/**
 * An open apache-arrow record batch reader copied batch by batch into a Dataset, and the one-line
 * error for what went wrong. PURE: types only from apache-arrow (the caller opens the reader: Node's
 * file reader from a file handle or zlib, the explore page's worker from a `File`).
 */

import type { AsyncRecordBatchFileReader, AsyncRecordBatchStreamReader } from 'apache-arrow';
import { GroveError } from '../core/errors.js';
import { arrowFields, readArrowColumns } from './arrow.js';
import { ArrowDamage } from './arrow-metadata.js';
import type { Dataset } from './dataset.js';
import { TypedTableBuilder } from './typed-columns.js';
import type { TypedReadOptions } from './typed-fields.js';

/** Rows the columns start with (they grow by half as needed). */
const FIRST_CAPACITY = 1 << 14;

/** An apache-arrow reader of either IPC format. */
export type BatchReader = AsyncRecordBatchFileReader | AsyncRecordBatchStreamReader;

/** `err` from reading Arrow IPC `file` as one GroveError line (a damaged file says so). */
export function arrowError(err: unknown, file: string): GroveError {
  if (err instanceof GroveError) return err;
  const what = err instanceof ArrowDamage ? 'damaged Arrow IPC file' : 'cannot read Arrow IPC';
  return new GroveError(`${what}: ${String((err as Error)?.message ?? err).split('\n')[0]}`, {
    file,
    code: 'E_DATA',
  });
}

/** Copy every batch of an open reader into a Dataset (`file` names it in errors). */
export async function readBatches(reader: BatchReader, file: string, options: TypedReadOptions): Promise<Dataset> {
  await reader.open();
  const fields = reader.schema ? arrowFields(reader.schema) : [];
  if (fields.length === 0)
    throw new GroveError('cannot read Arrow IPC: no columns (not an Arrow IPC file?)', { file, code: 'E_DATA' });
  const builder = new TypedTableBuilder(fields, FIRST_CAPACITY, { ...options, source: options.source ?? file });
  let rows = 0;
  for await (const batch of reader) {
    builder.reserve(rows + batch.numRows);
    readArrowColumns(builder, batch, rows);
    rows += batch.numRows;
  }
  return builder.finish(rows);
}
