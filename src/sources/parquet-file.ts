/**
 * Parquet files: grove's own decoder (src/data/parquet/) reads the common flat files — integers,
 * floats, decimals of up to 18 digits, booleans and strings, in every codec but LZO (GZIP and
 * BROTLI through `node:zlib`, ZSTD through it where Node has it) — through a file handle, column
 * chunk by column chunk; any other file is read through DuckDB (parquet.ts), which gives the same
 * Dataset for the files both read.
 */

import { type FileHandle, open } from 'node:fs/promises';
import * as zlib from 'node:zlib';
import { GroveError } from '../core/errors.js';
import { DUCKDB, loadOptional } from '../core/optional.js';
import type { Dataset } from '../data/dataset.js';
import type { Codecs, Decompress } from '../data/parquet/chunk.js';
import { CODEC } from '../data/parquet/metadata.js';
import { type ByteSource, ParquetUnsupported, readParquetSource } from '../data/parquet/read.js';
import { fileErrorReason, statDataFile } from './file-bytes.js';
import type { SourceReadOptions } from './source.js';

/** zlib's output limit: a page never takes more memory than its header declares, damaged or not. */
const limit = (size: number): zlib.ZlibOptions => ({ maxOutputLength: Math.max(size, 1) });

/**
 * zlib's one-shot decompressors, as Parquet codecs: GZIP (several members too) and BROTLI always,
 * ZSTD when this Node has it (else the decoder's own).
 */
export function nodeCodecs(): Codecs {
  const codecs = new Map<number, Decompress>([
    [CODEC.GZIP, (input, size) => zlib.gunzipSync(input, limit(size))],
    [CODEC.BROTLI, (input, size) => zlib.brotliDecompressSync(input, limit(size))],
  ]);
  const zstd = (zlib as unknown as { zstdDecompressSync?: (b: Uint8Array, o: zlib.ZlibOptions) => Uint8Array })
    .zstdDecompressSync;
  if (zstd) codecs.set(CODEC.ZSTD, (input, size) => zstd(input, limit(size)));
  return codecs;
}

/** An open file as a {@link ByteSource}; a short read means the file changed under us. */
export function fileSource(handle: FileHandle, size: number, path: string): ByteSource {
  return {
    size,
    async read(offset, into) {
      let done = 0;
      while (done < into.length) {
        let got: number;
        try {
          ({ bytesRead: got } = await handle.read(into, done, into.length - done, offset + done));
        } catch (err) {
          throw new GroveError(`cannot read file: ${fileErrorReason(err)}`, { file: path, code: 'E_IO' });
        }
        if (got === 0)
          throw new GroveError('cannot read Parquet: file cut short while reading', { file: path, code: 'E_DATA' });
        done += got;
      }
    },
  };
}

/** Read a Parquet file into a Dataset: grove's decoder when it reads the file, else DuckDB. */
export async function readParquetFile(path: string, options: SourceReadOptions = {}): Promise<Dataset> {
  const size = statDataFile(path).size;
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    throw new GroveError(`cannot read file: ${fileErrorReason(err)}`, { file: path, code: 'E_IO' });
  }
  try {
    return await readParquetSource(fileSource(handle, size, path), {
      ...options,
      source: options.source ?? path,
      codecs: nodeCodecs(),
    });
  } catch (err) {
    if (!(err instanceof ParquetUnsupported)) throw err;
  } finally {
    await handle.close();
  }
  // DuckDB loads only for the files grove's decoder leaves to it.
  const viaDuckDB = await loadOptional(
    DUCKDB,
    `reading ${path} (a Parquet layout grove's decoder leaves to DuckDB)`,
    () => import('./parquet.js'),
  );
  return viaDuckDB.readParquet(path, options);
}
