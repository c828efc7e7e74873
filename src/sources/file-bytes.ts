/**
 * A data file's bytes as a stream of chunks, gunzipped on the fly, with progress and one-line errors:
 * every format read as a stream (all but Parquet and plain Arrow IPC, which seek) reads through {@link fileChunks}.
 */

import { createReadStream, type Stats, statSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { GroveError } from '../core/errors.js';
import type { ReadProgress } from './source.js';

/** Why a file cannot be read, in words (ENOENT → "no such file"). */
export function fileErrorReason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'is a directory';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return code ?? (err as Error).message;
}

/** The file's stats; a missing file, a directory or an empty file is a GroveError naming it. */
export function statDataFile(path: string): Stats {
  let st: Stats;
  try {
    st = statSync(path);
  } catch (err) {
    throw new GroveError(`cannot read file: ${fileErrorReason(err)}`, { file: path, code: 'E_IO' });
  }
  if (st.isDirectory()) throw new GroveError('cannot read file: is a directory', { file: path, code: 'E_IO' });
  if (st.isFile() && st.size === 0) throw new GroveError('empty file', { file: path, code: 'E_DATA' });
  return st;
}

/** How often (in bytes) progress is reported. */
const PROGRESS_STEP = 4 << 20;

/**
 * The file's bytes, gunzipped when `gzip`, as an async stream of chunks. Progress counts the
 * bytes read from the file (compressed bytes for gzip). Errors become GroveErrors naming the file.
 */
export async function* fileChunks(
  path: string,
  gzip: boolean,
  onProgress?: (p: ReadProgress) => void,
): AsyncGenerator<Uint8Array> {
  const totalBytes = statDataFile(path).size;
  const raw = createReadStream(path, { highWaterMark: 1 << 20 });
  let bytes = 0;
  let reported = 0;
  if (onProgress)
    raw.on('data', (chunk) => {
      bytes += chunk.length;
      if (bytes - reported >= PROGRESS_STEP) {
        reported = bytes;
        onProgress({ bytes, totalBytes });
      }
    });
  let stream: Readable = raw;
  if (gzip) {
    const gunzip = createGunzip();
    raw.on('error', (err) => gunzip.destroy(err));
    stream = raw.pipe(gunzip);
  }
  try {
    for await (const chunk of stream) yield chunk as Uint8Array;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code?.startsWith('Z_'))
      throw new GroveError(`cannot decompress (not gzip, or cut short): ${(err as Error).message}`, {
        file: path,
        code: 'E_DATA',
      });
    throw new GroveError(`cannot read file: ${fileErrorReason(err)}`, { file: path, code: 'E_IO' });
  } finally {
    raw.destroy();
  }
  onProgress?.({ bytes: totalBytes, totalBytes });
}

/** The whole (gunzipped) file as one buffer. */
export async function fileBytes(path: string, gzip: boolean, onProgress?: (p: ReadProgress) => void): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const chunk of fileChunks(path, gzip, onProgress)) parts.push(chunk);
  return Buffer.concat(parts);
}
