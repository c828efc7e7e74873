/**
 * Arrow IPC files (`.arrow`, `.feather`, `.ipc`; file or stream format) read record batch by record
 * batch into typed columns, so memory holds the columns and one batch, not the whole file. An
 * uncompressed file is read through a file handle (the file format's footer says where each batch
 * is); a gzip-compressed one streams through zlib — except the file format, which apache-arrow
 * reads whole once decompressed (its batches are located through the footer at the end).
 */

import { type FileHandle, open } from 'node:fs/promises';
import { RecordBatchReader } from 'apache-arrow';
import { GroveError } from '../core/errors.js';
import { arrowError, type BatchReader, readBatches } from '../data/arrow-batches.js';
import { checkArrowFraming, type ReadAt, readForwards, readFromBytes } from '../data/arrow-framing.js';
import type { Dataset } from '../data/dataset.js';
import { fileBytes, fileChunks, fileErrorReason, statDataFile } from './file-bytes.js';
import type { SourceReadOptions } from './source.js';

/**
 * A gzip-compressed file checked (checkArrowFraming) and opened: the stream format is checked in a
 * first pass over the decompressed bytes, keeping none; the file format is decompressed whole (its
 * footer is at the end) and read from memory, as apache-arrow would read it.
 */
async function openGzip(path: string, options: SourceReadOptions): Promise<BatchReader> {
  const chunks = fileChunks(path, true);
  const head = await readForwards(chunks)(0, 6);
  if (String.fromCharCode(...head) === 'ARROW1') {
    const bytes = await fileBytes(path, true, options.onProgress);
    await checkArrowFraming(readFromBytes(bytes), bytes.length);
    return (await RecordBatchReader.from(bytes)) as unknown as BatchReader;
  }
  await chunks.return(undefined);
  await checkArrowFraming(readForwards(fileChunks(path, true)), Number.POSITIVE_INFINITY);
  return (await RecordBatchReader.from(fileChunks(path, true, options.onProgress))) as BatchReader;
}

/** A {@link ReadAt} through an open file handle. */
function readFromHandle(handle: FileHandle): ReadAt {
  return async (position, length) => {
    const out = new Uint8Array(length);
    const { bytesRead } = await handle.read(out, 0, length, position);
    return out.subarray(0, bytesRead);
  };
}

/** Read an Arrow IPC file (gunzipped on the fly when `gzip`) into a Dataset. */
export async function readArrowIpc(path: string, gzip: boolean, options: SourceReadOptions): Promise<Dataset> {
  if (gzip) {
    try {
      return await readBatches(await openGzip(path, options), path, options);
    } catch (err) {
      throw arrowError(err, path);
    }
  }
  const totalBytes = statDataFile(path).size;
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    throw new GroveError(`cannot read file: ${fileErrorReason(err)}`, { file: path, code: 'E_IO' });
  }
  try {
    await checkArrowFraming(readFromHandle(handle), totalBytes);
    const reader = (await RecordBatchReader.from(handle)) as BatchReader;
    const data = await readBatches(reader, path, options);
    options.onProgress?.({ bytes: totalBytes, totalBytes });
    return data;
  } catch (err) {
    throw arrowError(err, path);
  } finally {
    await handle.close();
  }
}
