/**
 * Reading a file's bytes (Node): in chunks for the streaming readers, or whole and decoded for
 * small formats (ARFF). File-system problems become GroveErrors (`E_IO`) naming the file.
 */

import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { GroveError } from '../core/errors.js';
import { describeType } from './check.js';
import { CellDecoder, INVALID_UTF8, type TextEncodingName, Utf16ToUtf8 } from './text-decode.js';

/** Bytes read at a time: large enough that per-chunk costs vanish, small next to the columns. */
const CHUNK_BYTES = 4 << 20;

/** Why a file cannot be read, in words (ENOENT → "no such file"). */
export function fileErrorReason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'is a directory';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return code ?? (err as Error).message;
}

function ioError(e: unknown, path: string): GroveError {
  if (e instanceof GroveError) return e;
  return new GroveError(`cannot read file: ${fileErrorReason(e)}`, { file: path, code: 'E_IO' });
}

/**
 * Call `onChunk` with the file's bytes, in order, a few MB at a time (the chunk's buffer is
 * reused: `onChunk` must not keep it). `onSize` is told the file's size first. GroveErrors thrown
 * by the callbacks pass through; file-system errors become `E_IO` GroveErrors.
 */
export function readFileChunks(
  path: string,
  onChunk: (chunk: Uint8Array) => void,
  onSize?: (bytes: number) => void,
): void {
  if (typeof onChunk !== 'function')
    throw new GroveError(`readFileChunks: onChunk must be a function, got ${describeType(onChunk)}`);
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    throw ioError(e, path);
  }
  try {
    let size: number;
    try {
      const st = fstatSync(fd);
      if (st.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
      size = st.size;
    } catch (e) {
      throw ioError(e, path);
    }
    onSize?.(size);
    const buf = new Uint8Array(CHUNK_BYTES);
    for (;;) {
      let n: number;
      try {
        n = readSync(fd, buf, 0, buf.length, null);
      } catch (e) {
        throw ioError(e, path);
      }
      if (n === 0) break;
      onChunk(buf.subarray(0, n));
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * A whole text file as a string in `encoding` (default UTF-8; a UTF-8 BOM is dropped, a UTF-16
 * BOM selects UTF-16). Bytes that are not valid UTF-8 are an error naming the line.
 */
export function readTextFile(path: string, encoding: TextEncodingName = 'utf8'): string {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw ioError(e, path);
  }
  if (encoding === 'utf16' || (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    try {
      bytes = new Utf16ToUtf8().push(bytes, true);
    } catch (e) {
      throw new GroveError((e as Error).message, { file: path, code: 'E_DATA' });
    }
    encoding = 'utf8';
  }
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const text = new CellDecoder(encoding).decode(bytes, start, bytes.length);
  if (text !== undefined) return text;
  // Name the first line that does not decode.
  let lineStart = start;
  let line = 1;
  const decoder = new CellDecoder(encoding);
  for (let p = start; p <= bytes.length; p++) {
    if (p === bytes.length || bytes[p] === 0x0a) {
      if (decoder.decode(bytes, lineStart, p) === undefined)
        throw new GroveError(INVALID_UTF8, { file: path, code: 'E_DATA', row: line });
      lineStart = p + 1;
      line++;
    }
  }
  throw new GroveError(INVALID_UTF8, { file: path, code: 'E_DATA' });
}
