/**
 * A flat Parquet file into a Dataset, decoded in JS: the footer, then each row group's column chunks
 * read by byte range (the next one read while this one is decoded) and decoded straight into a
 * {@link TypedTableBuilder}'s columns, so the Dataset follows the same rules as every other typed
 * source. A file this decoder does not read (see schema.ts, chunk.ts) is a
 * {@link ParquetUnsupported} for the caller to read another way; a damaged one a GroveError naming
 * the file.
 *
 * PURE: no Node imports; the bytes come from a {@link ByteSource} (a file, a browser `Blob`).
 */

import { LITTLE_ENDIAN } from '../../core/arrays.js';
import { GroveError } from '../../core/errors.js';
import type { Dataset } from '../dataset.js';
import { TypedTableBuilder } from '../typed-columns.js';
import type { NumberSink, TextSink, TypedReadOptions } from '../typed-fields.js';
import { type Codecs, decodeChunk } from './chunk.js';
import { check, ParquetCorrupt, ParquetUnsupported } from './errors.js';
import { CODEC, ENCODING, type FileMetaData, fileMetaData } from './metadata.js';
import { flatColumns, type ParquetColumn } from './schema.js';
import { Scratch } from './scratch.js';
import { uint32le } from './varint.js';

export { ParquetUnsupported } from './errors.js';

/** Random access to a file's bytes. */
export interface ByteSource {
  readonly size: number;
  /** Fill `into` with the bytes at `offset…offset + into.length` (within the file). */
  read(offset: number, into: Uint8Array): Promise<void>;
}

/**
 * Options: the typed readers', decompressors for codecs beyond the built-in ones (see chunk.ts's Codecs), and
 * row progress.
 */
export interface ParquetReadOptions extends TypedReadOptions {
  codecs?: Codecs;
  onProgress?: (progress: { rows: number; totalRows: number }) => void;
}

/**
 * The encodings the decoder knows (BIT_PACKED only for definition levels; a page in an encoding its
 * type does not allow is refused).
 */
const KNOWN_ENCODINGS = new Set<number>([
  ENCODING.PLAIN,
  ENCODING.PLAIN_DICTIONARY,
  ENCODING.RLE,
  ENCODING.BIT_PACKED,
  ENCODING.DELTA_BINARY_PACKED,
  ENCODING.DELTA_LENGTH_BYTE_ARRAY,
  ENCODING.DELTA_BYTE_ARRAY,
  ENCODING.RLE_DICTIONARY,
  ENCODING.BYTE_STREAM_SPLIT,
]);

const BUILT_IN_CODECS = new Set<number>([CODEC.UNCOMPRESSED, CODEC.SNAPPY, CODEC.LZ4, CODEC.ZSTD, CODEC.LZ4_RAW]);

const MAGIC = [0x50, 0x41, 0x52, 0x31]; // PAR1

/** Rows a Dataset can hold: row indexes are 32-bit signed integers. */
const MAX_ROWS = 0x7fffffff;

/**
 * Rows the columns first have room for: the footer's count, but no more values (rows × columns)
 * than 8 a byte of the file (a file of real data holds fewer) and at least 4,096 rows. They grow
 * as pages show they hold more, so a count the file's bytes cannot hold takes no memory before
 * the pages bear it out.
 */
function firstCapacity(rows: number, bytes: number, columns: number): number {
  return Math.min(rows, Math.max(4096, Math.floor((8 * bytes) / Math.max(columns, 1))));
}

/** One column chunk to read: where it is and where its rows go. */
interface ChunkTask {
  column: number;
  offset: number;
  length: number;
  codec: number;
  row: number;
  rows: number;
}

/** The footer, after checking both magic numbers. */
async function readFooter(source: ByteSource): Promise<{ meta: FileMetaData; dataEnd: number }> {
  const { size } = source;
  check(size >= 12, 'too short for a Parquet file (truncated?)');
  const head = new Uint8Array(4);
  const tail = new Uint8Array(8);
  await source.read(0, head);
  await source.read(size - 8, tail);
  const magic = (b: Uint8Array, at: number) => MAGIC.every((m, k) => b[at + k] === m);
  check(magic(head, 0), 'not a Parquet file (no PAR1 magic number)');
  check(magic(tail, 4), 'the file is truncated (it starts as Parquet but its end, the footer, is missing)');
  const length = uint32le(tail, 0);
  const dataEnd = size - 8 - length;
  check(dataEnd >= 4, 'footer length larger than the file');
  const footer = new Uint8Array(length);
  await source.read(dataEnd, footer);
  return { meta: fileMetaData(footer), dataEnd };
}

/** The column chunks in file order, each checked against the schema, the codecs and the file's bounds. */
function chunkTasks(
  meta: FileMetaData,
  columns: readonly ParquetColumn[],
  dataEnd: number,
  codecs: Codecs,
): ChunkTask[] {
  const tasks: ChunkTask[] = [];
  let row = 0;
  for (const group of meta.rowGroups) {
    check(group.numRows >= 0 && group.columns.length === columns.length, 'row group does not match the schema');
    group.columns.forEach((chunk, j) => {
      if (chunk.encrypted) throw new ParquetUnsupported('encrypted column');
      if (chunk.filePath !== undefined) throw new ParquetUnsupported('column chunk in another file');
      const m = chunk.meta;
      check(m !== undefined && m.type === columns[j].physical, 'column chunk does not match the schema');
      // For a flat column they agree; a writer that says otherwise is left to DuckDB to judge.
      if (m.numValues !== group.numRows) throw new ParquetUnsupported('column chunk and row group disagree on rows');
      if (!BUILT_IN_CODECS.has(m.codec) && !codecs.has(m.codec))
        throw new ParquetUnsupported(`compression codec ${m.codec}`);
      for (const e of m.encodings) if (!KNOWN_ENCODINGS.has(e)) throw new ParquetUnsupported(`encoding ${e}`);
      const dict = m.dictionaryPageOffset;
      const offset = dict !== undefined && dict > 0 && dict < m.dataPageOffset ? dict : m.dataPageOffset;
      check(
        offset >= 4 && m.totalCompressedSize >= 0 && offset + m.totalCompressedSize <= dataEnd,
        'column chunk outside the file',
      );
      if (group.numRows > 0)
        tasks.push({ column: j, offset, length: m.totalCompressedSize, codec: m.codec, row, rows: group.numRows });
    });
    row += group.numRows;
  }
  check(row === meta.numRows, "row groups' rows do not add up to the file's");
  // Every chunk has bytes of its own: chunks sharing bytes would decode the same bytes many times over.
  const byOffset = tasks.map((t) => [t.offset, t.length] as const).sort((a, b) => a[0] - b[0]);
  for (let k = 1; k < byOffset.length; k++)
    check(byOffset[k - 1][0] + byOffset[k - 1][1] <= byOffset[k][0], 'column chunks overlap');
  return tasks;
}

/**
 * Read a flat Parquet file into a Dataset (`options.source` names it in messages). Rejects with a
 * GroveError, or with a {@link ParquetUnsupported} when the file needs another reader.
 */
export async function readParquetSource(source: ByteSource, options: ParquetReadOptions = {}): Promise<Dataset> {
  try {
    if (!LITTLE_ENDIAN) throw new ParquetUnsupported('big-endian platform');
    const codecs = options.codecs ?? new Map();
    const { meta, dataEnd } = await readFooter(source);
    if (meta.numRows > MAX_ROWS)
      throw new GroveError(
        `the file declares ${meta.numRows.toLocaleString('en-US')} rows, ` +
          `more than grove holds in memory (at most ${MAX_ROWS.toLocaleString('en-US')})`,
        { file: options.source, code: 'E_DATA' },
      );
    const columns = flatColumns(meta.schema);
    const tasks = chunkTasks(meta, columns, dataEnd, codecs);
    const builder = new TypedTableBuilder(
      columns.map((c) => c.field),
      firstCapacity(meta.numRows, source.size, columns.length),
      options,
    );
    await decodeChunks(source, tasks, columns, builder, codecs, options, meta.numRows);
    return builder.finish(meta.numRows);
  } catch (err) {
    if (err instanceof GroveError || err instanceof ParquetUnsupported) throw err;
    if (err instanceof ParquetCorrupt)
      throw new GroveError(`cannot read Parquet: ${err.message}`, { file: options.source, code: 'E_DATA' });
    // Damage is a ParquetCorrupt; anything else (a TypeError, a RangeError) is a bug of the decoder's.
    const internal = new GroveError(
      "cannot read Parquet: internal error in grove's Parquet decoder, " +
        `not a fault of the file (${(err as Error)?.message ?? err}); please report it`,
      { file: options.source, code: 'E_DATA' },
    );
    internal.cause = err;
    throw internal;
  }
}

/** Read and decode every chunk, the next one's bytes loading while this one decodes. */
async function decodeChunks(
  source: ByteSource,
  tasks: readonly ChunkTask[],
  columns: readonly ParquetColumn[],
  builder: TypedTableBuilder,
  codecs: Codecs,
  options: ParquetReadOptions,
  totalRows: number,
): Promise<void> {
  const scratch = new Scratch();
  const reserve = (rows: number) => builder.reserve(rows);
  // Two chunk buffers in turn: one loading while the other decodes.
  const load = (k: number): Promise<Uint8Array> => {
    const { offset, length } = tasks[k];
    const into = scratch.bytes(k & 1 ? 'chunk1' : 'chunk0', length);
    return source.read(offset, into).then(() => into);
  };
  let next: Promise<Uint8Array> | undefined = tasks.length > 0 ? load(0) : undefined;
  try {
    for (let k = 0; k < tasks.length; k++) {
      const bytes = await next!;
      next = k + 1 < tasks.length ? load(k + 1) : undefined;
      const t = tasks[k];
      // Every field is a number, text or boolean one (schema.ts), so its sink takes numbers or texts.
      const sink = builder.sink(t.column) as NumberSink | TextSink;
      const ctx = { column: columns[t.column], sink, codec: t.codec, codecs, scratch, reserve };
      decodeChunk(ctx, bytes, t.row, t.rows);
      if (options.onProgress && (k + 1 === tasks.length || tasks[k + 1].row !== t.row))
        options.onProgress({ rows: t.row + t.rows, totalRows });
    }
  } finally {
    await next?.catch(() => undefined);
  }
}
