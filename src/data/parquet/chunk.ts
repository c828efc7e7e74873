/**
 * One column chunk (a column's pages within a row group) decoded into its sink: the dictionary page,
 * then data pages v1 or v2, each decompressed once (SNAPPY, LZ4_RAW, the deprecated LZ4 and ZSTD
 * built in, other codecs given by the caller) into reused scratch memory; definition levels (RLE,
 * or the deprecated BIT_PACKED) say which rows hold a value (a single run of ones, the usual case,
 * costs nothing per row; REQUIRED columns have none); values PLAIN, dictionary-indexed, RLE
 * booleans, or the v2 encodings of delta.ts (DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY,
 * DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT). A page of PLAIN doubles without nulls is copied into the
 * column as bytes, with no per-value work.
 *
 * PURE: no Node imports.
 */

import { BOOLEAN_TEXTS, type NumberSink, type TextSink } from '../typed-fields.js';
import { deltaFixed, deltaLengthTexts, deltaNumbers, deltaTexts, unsplit } from './delta.js';
import { check, ParquetCorrupt, ParquetUnsupported } from './errors.js';
import { decodeHybrid, isSingleRun } from './hybrid.js';
import { lz4Decompress, lz4LegacyDecompress } from './lz4.js';
import { CODEC, ENCODING, PAGE, type PageHeader, PHYSICAL, pageHeader } from './metadata.js';
import { numberWidth, plainBooleans, plainNumbers, plainTexts } from './plain.js';
import type { ParquetColumn } from './schema.js';
import type { Scratch } from './scratch.js';
import { snappyDecompress, snappyLength } from './snappy.js';
import { CompactReader } from './thrift.js';
import { uint32le } from './varint.js';
import { zstdDecompress } from './zstd.js';

/** A decompressor: `input` to exactly `size` bytes (the caller checks the size). */
export type Decompress = (input: Uint8Array, size: number) => Uint8Array;

/**
 * Decompressors of codecs beyond the built-in UNCOMPRESSED, SNAPPY, LZ4, ZSTD and LZ4_RAW, by codec id (GZIP
 * = 2, BROTLI = 4).
 */
export type Codecs = ReadonlyMap<number, Decompress>;

/**
 * The most bytes one input byte can become in each codec, so a damaged size is refused before
 * memory is taken for it: Snappy's longest copy (64 bytes) takes 3 bytes; an LZ4 length byte adds
 * at most 255; a ZSTD block (at most 128 KiB) takes at least 4 bytes; DEFLATE (GZIP) gives at most
 * 258 bytes for 2 bits. BROTLI has no useful bound: its pages are bounded by their values alone.
 */
const MAX_EXPANSION = new Map<number, number>([
  [CODEC.SNAPPY, 22],
  [CODEC.LZ4, 255],
  [CODEC.LZ4_RAW, 255],
  [CODEC.ZSTD, 32768],
  [CODEC.GZIP, 1032],
]);

/**
 * The most bytes of one string a page may average: a page of `n` strings declaring more (1 GiB for
 * 3) is refused before memory is taken for it. A category label of 16 MiB is already no data a
 * tree can use.
 */
export const MAX_TEXT_BYTES = 2 ** 24;

/**
 * The most bytes a page of `n` values can take decompressed, levels included, so a header
 * declaring more (1 GiB for 3 values) is refused before memory is taken for it: 4 bytes a value
 * for the levels (runs of one), and for the values the widest of their encodings (PLAIN,
 * dictionary indexes of up to 32 bits in runs of one, DELTA_BINARY_PACKED of up to 64 bits,
 * DELTA_BYTE_ARRAY's two lengths of fixed-length values; a string's 4-byte length and
 * {@link MAX_TEXT_BYTES}).
 */
function maxPageBytes(column: ParquetColumn, n: number): number {
  const { physical } = column;
  if (physical === PHYSICAL.BYTE_ARRAY) return 256 + n * (8 + MAX_TEXT_BYTES);
  const width = physical === PHYSICAL.BOOLEAN ? 1 : physical === PHYSICAL.INT96 ? 12 : numberWidth(column);
  return 256 + n * (4 + Math.max(width, 8) + (physical === PHYSICAL.FIXED_LEN_BYTE_ARRAY ? 16 : 0));
}

/** The column chunk's dictionary, once its dictionary page is read. */
interface Dictionary {
  numbers?: Float64Array;
  texts?: string[];
  size: number;
}

/** What a decoder needs besides the chunk: the column, its sink, the codecs and scratch memory. */
export interface ChunkContext {
  column: ParquetColumn;
  sink: NumberSink | TextSink;
  codec: number;
  codecs: Codecs;
  scratch: Scratch;
  /** Make room in the sinks for rows `0…rows - 1`, once a page has shown it holds them. */
  reserve?: (rows: number) => void;
}

/** The pages of one column chunk (`bytes`) into rows `row…row + rows - 1` of the context's sink. */
export function decodeChunk(ctx: ChunkContext, bytes: Uint8Array, row: number, rows: number): void {
  let dictionary: Dictionary | undefined;
  let pos = 0;
  let done = 0;
  while (done < rows) {
    check(pos < bytes.length, 'column chunk holds fewer values than its row group has rows');
    const reader = new CompactReader(bytes, pos);
    const h = pageHeader(reader);
    const start = reader.pos;
    const most = maxPageBytes(ctx.column, Math.max(h.numValues, 0));
    check(
      h.uncompressedSize <= most,
      ctx.column.physical === PHYSICAL.BYTE_ARRAY
        ? `page declares ${h.uncompressedSize} bytes for ${h.numValues} strings ` +
            `(at most ${MAX_TEXT_BYTES} bytes a string are read)`
        : `page declares ${h.uncompressedSize} bytes for ${h.numValues} values`,
    );
    pos = start + h.compressedSize;
    check(pos <= bytes.length, 'page cut short');
    const page = bytes.subarray(start, pos);
    if (h.type === PAGE.DICTIONARY) dictionary = readDictionary(ctx, h, page);
    else if (h.type === PAGE.DATA || h.type === PAGE.DATA_V2) {
      check(h.numValues >= 0 && h.numValues <= rows - done, 'page holds more values than its row group has rows');
      readDataPage(ctx, h, page, dictionary, row + done);
      done += h.numValues;
    } // index pages and unknown page types are skipped
  }
}

/** The page's bytes decompressed to `size` bytes (in scratch memory unless stored uncompressed). */
function decompress(ctx: ChunkContext, input: Uint8Array, size: number): Uint8Array {
  if (ctx.codec === CODEC.UNCOMPRESSED) {
    check(input.length === size, 'page size mismatch');
    return input;
  }
  const expansion = MAX_EXPANSION.get(ctx.codec);
  if (expansion !== undefined)
    check(
      size <= expansion * input.length + 256,
      `page declares ${size} bytes, more than its ${input.length} can hold`,
    );
  // A codec the caller gives (Node's native zstd, where it has one) before the built-in one.
  const given = ctx.codecs.get(ctx.codec);
  const builtIn = given
    ? undefined
    : ctx.codec === CODEC.SNAPPY
      ? snappyDecompress
      : ctx.codec === CODEC.LZ4_RAW
        ? lz4Decompress
        : ctx.codec === CODEC.LZ4
          ? lz4LegacyDecompress
          : ctx.codec === CODEC.ZSTD
            ? zstdDecompress
            : undefined;
  if (builtIn) {
    if (ctx.codec === CODEC.SNAPPY) check(snappyLength(input) === size, 'page size mismatch');
    const out = ctx.scratch.bytes('page', size);
    builtIn(input, out);
    return out;
  }
  const codec = given;
  if (!codec) throw new ParquetUnsupported(`compression codec ${ctx.codec}`);
  let out: Uint8Array;
  try {
    out = codec(input, size);
  } catch (err) {
    // A codec refuses damaged input its own way (zlib: an Error with a code): damage all the same.
    throw new ParquetCorrupt(`page does not decompress (${(err as Error)?.message ?? err})`);
  }
  check(out.length === size, 'page size mismatch');
  return out;
}

function readDictionary(ctx: ChunkContext, h: PageHeader, page: Uint8Array): Dictionary {
  if (h.encoding !== ENCODING.PLAIN && h.encoding !== ENCODING.PLAIN_DICTIONARY)
    throw new ParquetUnsupported(`dictionary encoding ${h.encoding}`);
  check(h.numValues >= 0, 'bad dictionary size');
  const bytes = decompress(ctx, page, h.uncompressedSize);
  const { physical } = ctx.column;
  if (physical === PHYSICAL.BYTE_ARRAY) return { texts: plainTexts(bytes, h.numValues), size: h.numValues };
  if (physical === PHYSICAL.BOOLEAN) throw new ParquetUnsupported('dictionary of booleans');
  check(h.numValues * numberWidth(ctx.column) <= bytes.length, 'values cut short');
  const numbers = new Float64Array(h.numValues);
  plainNumbers(bytes, h.numValues, ctx.column, numbers, ctx.scratch);
  return { numbers, size: h.numValues };
}

/**
 * The page's definition levels and values (decompressed); `bitPacked`: levels in the deprecated BIT_PACKED
 * encoding.
 */
interface PageParts {
  levels: Uint8Array;
  values: Uint8Array;
  bitPacked?: boolean;
}

function pageParts(ctx: ChunkContext, h: PageHeader, page: Uint8Array): PageParts {
  const { optional } = ctx.column;
  if (h.type === PAGE.DATA_V2) {
    const levelBytes = h.repBytes + h.defBytes;
    check(h.repBytes >= 0 && h.defBytes >= 0 && levelBytes <= page.length, 'bad level lengths');
    const raw = page.subarray(levelBytes);
    const size = h.uncompressedSize - levelBytes;
    check(size >= 0, 'bad level lengths');
    // No values (a page of nulls) may be stored as no bytes though marked compressed, as some writers do.
    const values = size === 0 ? raw.subarray(0, 0) : h.compressed ? decompress(ctx, raw, size) : raw;
    return { levels: page.subarray(h.repBytes, levelBytes), values };
  }
  const data = decompress(ctx, page, h.uncompressedSize);
  if (!optional) return { levels: data.subarray(0, 0), values: data };
  if (h.defEncoding === ENCODING.BIT_PACKED) {
    // One bit a value, no length before them.
    const n = Math.ceil(Math.max(h.numValues, 0) / 8);
    check(n <= data.length, 'levels cut short');
    return { levels: data.subarray(0, n), values: data.subarray(n), bitPacked: true };
  }
  if (h.defEncoding !== ENCODING.RLE) throw new ParquetUnsupported(`definition level encoding ${h.defEncoding}`);
  check(data.length >= 4, 'levels cut short');
  const n = uint32le(data, 0);
  check(n <= data.length - 4, 'levels cut short');
  return { levels: data.subarray(4, 4 + n), values: data.subarray(4 + n) };
}

/** A data page's values, which rows hold them, and where they go. */
interface DataPage {
  /** Values (rows) of the page, nulls included, and of them those present. */
  n: number;
  present: number;
  /** 1 at each row holding a value, or null when all do. */
  defined: Uint8Array | null;
  values: Uint8Array;
  encoding: number;
  dictionary: Dictionary | undefined;
  dictionaryEncoded: boolean;
  row: number;
}

function readDataPage(
  ctx: ChunkContext,
  h: PageHeader,
  page: Uint8Array,
  dictionary: Dictionary | undefined,
  row: number,
): void {
  const n = h.numValues;
  const { levels, values, bitPacked } = pageParts(ctx, h, page);
  let defined: Uint8Array | null = null;
  let present = n;
  if (ctx.column.optional && (bitPacked || !isSingleRun(levels, 0, levels.length, n, 1))) {
    defined = ctx.scratch.levels(n);
    if (bitPacked) for (let i = 0; i < n; i++) defined[i] = (levels[i >> 3] >> (7 - (i & 7))) & 1;
    else decodeHybrid(levels, 0, levels.length, 1, n, defined);
    present = 0;
    for (let i = 0; i < n; i++) present += defined[i];
  }
  const encoding = h.encoding;
  const dictionaryEncoded = encoding === ENCODING.PLAIN_DICTIONARY || encoding === ENCODING.RLE_DICTIONARY;
  if (!dictionaryEncoded && !readsEncoding(ctx.column.physical, encoding))
    throw new ParquetUnsupported(`value encoding ${encoding}`);
  if (dictionaryEncoded) check(dictionary !== undefined, 'dictionary-encoded page without a dictionary');
  const p: DataPage = { n, present, defined, values, encoding, dictionary, dictionaryEncoded, row };
  if (ctx.sink.kind === 'number') readNumbers(ctx, ctx.sink, p);
  else readTexts(ctx, ctx.sink, p);
}

function readNumbers(ctx: ChunkContext, sink: NumberSink, p: DataPage): void {
  const { column, scratch } = ctx;
  const { n, present, defined, values, encoding, row } = p;
  const split = encoding === ENCODING.BYTE_STREAM_SPLIT;
  if (!defined && column.physical === PHYSICAL.DOUBLE && (encoding === ENCODING.PLAIN || split)) {
    check(values.length >= n * 8, 'values cut short');
    ctx.reserve?.(row + n);
    sink.setFloat64Bytes(row, split ? unsplit(values, n, 8, scratch) : values.subarray(0, n * 8));
    return;
  }
  const width = numberWidth(column);
  // Values of a fixed width must all be there before memory is taken for them.
  if (encoding === ENCODING.PLAIN || split) check(values.length >= present * width, 'values cut short');
  const got = scratch.values(present);
  if (present > 0) {
    if (p.dictionaryEncoded) {
      const indexes = dictionaryIndexes(values, present, p.dictionary!.size, scratch);
      const numbers = p.dictionary!.numbers!;
      for (let k = 0; k < present; k++) got[k] = numbers[indexes[k]];
    } else if (encoding === ENCODING.DELTA_BINARY_PACKED) deltaNumbers(values, present, column, got, scratch);
    else {
      const plain = split
        ? unsplit(values, present, width, scratch)
        : encoding === ENCODING.DELTA_BYTE_ARRAY
          ? deltaFixed(values, present, width, scratch)
          : values;
      plainNumbers(plain, present, column, got, scratch);
    }
  }
  ctx.reserve?.(row + n);
  if (!defined) {
    sink.setMany(row, got);
    return;
  }
  const out = scratch.rowValues(n);
  for (let i = 0, k = 0; i < n; i++) out[i] = defined[i] ? got[k++] : NaN;
  sink.setMany(row, out);
}

function readTexts(ctx: ChunkContext, sink: TextSink, p: DataPage): void {
  const { column, scratch } = ctx;
  const { n, present, defined, values, encoding, dictionary, row } = p;
  let indexes = scratch.indexes(present);
  let texts: readonly string[];
  // A page of nulls keeps the chunk's dictionary, so the sink keeps its lookups.
  if (present === 0) texts = dictionary?.texts ?? BOOLEAN_TEXTS;
  else if (p.dictionaryEncoded) {
    indexes = dictionaryIndexes(values, present, dictionary!.size, scratch);
    texts = dictionary!.texts!;
  } else if (column.physical === PHYSICAL.BOOLEAN) {
    texts = BOOLEAN_TEXTS;
    if (encoding === ENCODING.PLAIN) plainBooleans(values, present, indexes);
    else {
      // RLE booleans: a 4-byte length, then the hybrid runs of width 1.
      check(values.length >= 4, 'booleans cut short');
      const length = uint32le(values, 0);
      check(length <= values.length - 4, 'booleans cut short');
      decodeHybrid(values, 4, 4 + length, 1, present, indexes);
    }
  } else {
    texts =
      encoding === ENCODING.PLAIN
        ? plainTexts(values, present)
        : encoding === ENCODING.DELTA_LENGTH_BYTE_ARRAY
          ? deltaLengthTexts(values, present, scratch)
          : deltaTexts(values, present, scratch);
    for (let k = 0; k < present; k++) indexes[k] = k;
  }
  if (defined) {
    const out = scratch.rowIndexes(n);
    for (let i = 0, k = 0; i < n; i++) out[i] = defined[i] ? indexes[k++] : -1;
    indexes = out;
  }
  ctx.reserve?.(row + n);
  sink.setIndexed(row, indexes, texts);
}

/** The non-dictionary value encodings read for each physical type. */
function readsEncoding(physical: number, encoding: number): boolean {
  if (encoding === ENCODING.PLAIN) return true;
  switch (physical) {
    case PHYSICAL.BOOLEAN:
      return encoding === ENCODING.RLE;
    case PHYSICAL.INT32:
    case PHYSICAL.INT64:
      return encoding === ENCODING.DELTA_BINARY_PACKED || encoding === ENCODING.BYTE_STREAM_SPLIT;
    case PHYSICAL.FLOAT:
    case PHYSICAL.DOUBLE:
      return encoding === ENCODING.BYTE_STREAM_SPLIT;
    case PHYSICAL.FIXED_LEN_BYTE_ARRAY:
      return encoding === ENCODING.BYTE_STREAM_SPLIT || encoding === ENCODING.DELTA_BYTE_ARRAY;
    case PHYSICAL.BYTE_ARRAY:
      return encoding === ENCODING.DELTA_LENGTH_BYTE_ARRAY || encoding === ENCODING.DELTA_BYTE_ARRAY;
    default:
      return false;
  }
}

/** `count` dictionary indexes (a bit-width byte, then hybrid runs), each checked against the dictionary's size. */
function dictionaryIndexes(values: Uint8Array, count: number, size: number, scratch: Scratch): Int32Array {
  check(values.length >= 1, 'dictionary indexes cut short');
  const out = scratch.indexes(count);
  decodeHybrid(values, 1, values.length, values[0], count, out);
  for (let k = 0; k < count; k++) check(out[k] >>> 0 < size, 'dictionary index out of range');
  return out;
}
