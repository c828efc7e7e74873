/**
 * A file the user opens in the explore page (picked or dropped), read in the page's worker with
 * grove's browser-safe readers: the file streams from `File.stream()` (through the browser's
 * gzip decompressor for a `.gz` name) into the same readers the CLI uses, so a file reads into
 * the same Dataset, with the same one-line errors, as `grove fit` reads it. Its format is decided
 * by its extension, as the CLI decides it; an unknown extension is CSV.
 */

import { RecordBatchReader } from 'apache-arrow';
import { GroveError } from '../core/errors.js';
import { parseArff } from '../data/arff.js';
import { arrowError, type BatchReader, readBatches } from '../data/arrow-batches.js';
import { checkArrowFraming, type ReadAt, readForwards, readFromBytes } from '../data/arrow-framing.js';
import type { Dataset } from '../data/dataset.js';
import { createDelimitedReader } from '../data/delimited.js';
import { readJsonLineTexts } from '../data/jsonl.js';
import { type ByteSource, ParquetUnsupported, readParquetSource } from '../data/parquet/read.js';
import { decodeText } from '../data/text-decode.js';
import type { TypedReadOptions } from '../data/typed-fields.js';
import { PAGE_CODECS } from './page-codecs.js';
import { type PageFormat, pageFormatOf } from './page-formats.js';

/** A format's reader: the file, its (gunzipped) chunks, the readers' options. */
type Reader = (
  file: File,
  chunks: () => AsyncGenerator<Uint8Array>,
  options: TypedReadOptions,
  gzip: boolean,
) => Promise<Dataset>;

/** Each format's reader. */
const READERS = new Map<PageFormat['name'], Reader>([
  ['CSV', (f, c, o) => readText(f, c, o)],
  ['TSV', (f, c, o) => readText(f, c, o, '\t')],
  ['JSON Lines', (_f, c, o) => readJsonLineTexts(textLines(c()), o)],
  ['Parquet', (f, _c, o) => readParquet(f, o)],
  ['Arrow IPC', readArrow],
  ['ARFF', async (f, c, o) => parseArff(decodeText(await allBytes(c()), 'utf8', f.name), o)],
]);

/** Read `file` into a Dataset (GroveError naming the file for anything wrong with it). */
export async function readPageFile(file: File, options: TypedReadOptions = {}): Promise<Dataset> {
  const { format, gzip } = pageFormatOf(file.name);
  const chunks = () => streamChunks(gzip ? file.stream().pipeThrough(new DecompressionStream('gzip')) : file.stream());
  try {
    return await READERS.get(format.name)!(file, chunks, { ...options, source: file.name }, gzip);
  } catch (err) {
    if (err instanceof GroveError) throw err;
    // The browser's own failures (a file removed since it was picked, a damaged gzip stream).
    const reason = err instanceof Error ? err.message : String(err);
    throw new GroveError(`cannot read file: ${reason.split('\n')[0]}`, { file: file.name, code: 'E_IO' });
  }
}

/** The chunks of a byte stream, in order. */
async function* streamChunks(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

/** Every chunk in one array. */
async function allBytes(chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let total = 0;
  for await (const c of chunks) {
    parts.push(c);
    total += c.length;
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Every line of UTF-8 text in chunks, split as Node's `readline` splits it (at `\n`, `\r\n` or a lone `\r`). */
async function* textLines(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  const end = /\r\n|\r|\n/g;
  let rest = '';
  for await (const chunk of chunks) {
    rest += decoder.decode(chunk, { stream: true });
    let from = 0;
    end.lastIndex = 0;
    for (let m = end.exec(rest); m; m = end.exec(rest)) {
      // A `\r` ending the chunk may be the first half of `\r\n`: the next chunk tells.
      if (m[0] === '\r' && m.index === rest.length - 1) break;
      yield rest.slice(from, m.index);
      from = end.lastIndex;
    }
    rest = rest.slice(from);
  }
  const last = (rest + decoder.decode()).split(/\r\n|\r|\n/);
  for (const [i, line] of last.entries()) if (i < last.length - 1 || line !== '') yield line;
}

/** CSV or TSV through the CLI's streaming reader; a CSV's delimiter is sniffed as the CLI sniffs it. */
async function readText(
  file: File,
  chunks: () => AsyncGenerator<Uint8Array>,
  options: TypedReadOptions,
  delimiter?: string,
): Promise<Dataset> {
  const reader = createDelimitedReader({ ...options, delimiter, sizeHint: file.size });
  for await (const chunk of chunks()) reader.push(chunk);
  return reader.finish();
}

/** A picked file as the Parquet decoder's random-access source. */
function fileSource(file: File): ByteSource {
  return {
    size: file.size,
    async read(offset, into) {
      const got = new Uint8Array(await file.slice(offset, offset + into.length).arrayBuffer());
      if (got.length < into.length)
        throw new GroveError('cannot read Parquet: file cut short while reading', { file: file.name, code: 'E_DATA' });
      into.set(got);
    },
  };
}

/**
 * Parquet through grove's decoder, with its built-in codecs (SNAPPY, LZ4, ZSTD, uncompressed) and
 * the page's (GZIP, BROTLI). A file it leaves to DuckDB on the command line (an unusual codec or
 * encoding) is refused with the reason: the page has no DuckDB.
 */
async function readParquet(file: File, options: TypedReadOptions): Promise<Dataset> {
  try {
    return await readParquetSource(fileSource(file), { ...options, codecs: PAGE_CODECS });
  } catch (err) {
    if (!(err instanceof ParquetUnsupported)) throw err;
    throw new GroveError(
      `this Parquet file uses ${err.message}, which the page does not read (grove reads it on the command line)`,
      { file: file.name, code: 'E_DATA' },
    );
  }
}

/** Random access to a picked file's bytes (fewer at the end), for the Arrow framing check. */
function readFromFile(file: File): ReadAt {
  return async (position, length) => new Uint8Array(await file.slice(position, position + length).arrayBuffer());
}

/**
 * Arrow IPC through apache-arrow, its framing checked first as the CLI checks it (within the file's
 * size, or for a gzip-compressed file in a first pass over its stream that keeps nothing). The
 * stream format streams; the file format, whose footer at the end locates its batches, is read whole.
 */
async function readArrow(
  file: File,
  chunks: () => AsyncGenerator<Uint8Array>,
  options: TypedReadOptions,
  gzip: boolean,
): Promise<Dataset> {
  try {
    const first = chunks();
    const head = await readForwards(first)(0, 6);
    await first.return(undefined);
    const fileFormat = String.fromCharCode(...head) === 'ARROW1';
    let reader: BatchReader;
    if (fileFormat) {
      const bytes = await allBytes(chunks());
      await checkArrowFraming(readFromBytes(bytes), bytes.length);
      reader = (await RecordBatchReader.from(bytes)) as unknown as BatchReader;
    } else {
      if (gzip) await checkArrowFraming(readForwards(chunks()), Number.POSITIVE_INFINITY);
      else await checkArrowFraming(readFromFile(file), file.size);
      reader = (await RecordBatchReader.from(chunks())) as BatchReader;
    }
    return await readBatches(reader, file.name, options);
  } catch (err) {
    throw arrowError(err, file.name);
  }
}
