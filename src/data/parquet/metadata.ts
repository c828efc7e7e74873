/**
 * A Parquet file's footer (FileMetaData) and page headers, decoded from Thrift's compact protocol:
 * only the fields the reader uses; the rest are skipped.
 *
 * PURE: no Node imports.
 */

import { check } from './errors.js';
import { CompactReader, WIRE } from './thrift.js';

/** Physical types (parquet.thrift `Type`). */
export const PHYSICAL = {
  BOOLEAN: 0,
  INT32: 1,
  INT64: 2,
  INT96: 3,
  FLOAT: 4,
  DOUBLE: 5,
  BYTE_ARRAY: 6,
  FIXED_LEN_BYTE_ARRAY: 7,
} as const;

/** Encodings (parquet.thrift `Encoding`). */
export const ENCODING = {
  PLAIN: 0,
  PLAIN_DICTIONARY: 2,
  RLE: 3,
  BIT_PACKED: 4,
  DELTA_BINARY_PACKED: 5,
  DELTA_LENGTH_BYTE_ARRAY: 6,
  DELTA_BYTE_ARRAY: 7,
  RLE_DICTIONARY: 8,
  BYTE_STREAM_SPLIT: 9,
} as const;

/** Compression codecs (parquet.thrift `CompressionCodec`). */
export const CODEC = { UNCOMPRESSED: 0, SNAPPY: 1, GZIP: 2, LZO: 3, BROTLI: 4, LZ4: 5, ZSTD: 6, LZ4_RAW: 7 } as const;

/** Page types (parquet.thrift `PageType`). */
export const PAGE = { DATA: 0, INDEX: 1, DICTIONARY: 2, DATA_V2: 3 } as const;

/** Field repetition (parquet.thrift `FieldRepetitionType`). */
export const REPETITION = { REQUIRED: 0, OPTIONAL: 1, REPEATED: 2 } as const;

/** A logical type annotation: the union's member id, an INTEGER's width and sign, a DECIMAL's scale and precision. */
export interface LogicalType {
  id: number;
  bitWidth?: number;
  signed?: boolean;
  scale?: number;
  precision?: number;
}

export interface SchemaElement {
  name: string;
  type?: number;
  typeLength?: number;
  repetition?: number;
  numChildren?: number;
  convertedType?: number;
  scale?: number;
  precision?: number;
  logical?: LogicalType;
}

export interface ColumnMeta {
  type: number;
  encodings: number[];
  codec: number;
  numValues: number;
  totalCompressedSize: number;
  dataPageOffset: number;
  dictionaryPageOffset?: number;
}

export interface ColumnChunk {
  /** Set when the chunk lives in another file. */
  filePath?: string;
  meta?: ColumnMeta;
  /** Set when the column is encrypted. */
  encrypted: boolean;
}

export interface RowGroup {
  columns: ColumnChunk[];
  numRows: number;
}

export interface FileMetaData {
  schema: SchemaElement[];
  numRows: number;
  rowGroups: RowGroup[];
}

function int(r: CompactReader, type: number): number {
  check(type === WIRE.I32 || type === WIRE.I64 || type === WIRE.I16 || type === WIRE.BYTE, 'metadata: bad field type');
  return type === WIRE.BYTE ? (r.byte() << 24) >> 24 : r.int();
}

function logicalType(r: CompactReader): LogicalType {
  const out: LogicalType = { id: -1 };
  r.struct((id, type) => {
    if (type !== WIRE.STRUCT) return false;
    out.id = id;
    if (id === 10)
      // INTEGER: bitWidth, isSigned
      r.struct((f, t) => {
        if (f === 1) out.bitWidth = int(r, t);
        else if (f === 2 && (t === WIRE.TRUE || t === WIRE.FALSE)) out.signed = t === WIRE.TRUE;
        else return false;
        return true;
      });
    else if (id === 5)
      // DECIMAL: scale, precision
      r.struct((f, t) => {
        if (f === 1) out.scale = int(r, t);
        else if (f === 2) out.precision = int(r, t);
        else return false;
        return true;
      });
    else return false;
    return true;
  });
  return out;
}

function schemaElement(r: CompactReader): SchemaElement {
  const e: SchemaElement = { name: '' };
  r.struct((id, type) => {
    if (id === 1) e.type = int(r, type);
    else if (id === 2) e.typeLength = int(r, type);
    else if (id === 3) e.repetition = int(r, type);
    else if (id === 4 && type === WIRE.BINARY) e.name = r.string();
    else if (id === 5) e.numChildren = int(r, type);
    else if (id === 6) e.convertedType = int(r, type);
    else if (id === 7) e.scale = int(r, type);
    else if (id === 8) e.precision = int(r, type);
    else if (id === 10 && type === WIRE.STRUCT) e.logical = logicalType(r);
    else return false;
    return true;
  });
  return e;
}

function columnMeta(r: CompactReader): ColumnMeta {
  const m: ColumnMeta = {
    type: -1,
    encodings: [],
    codec: -1,
    numValues: -1,
    totalCompressedSize: -1,
    dataPageOffset: -1,
  };
  r.struct((id, type) => {
    if (id === 1) m.type = int(r, type);
    else if (id === 2 && type === WIRE.LIST) m.encodings = r.list((t) => int(r, t));
    else if (id === 4) m.codec = int(r, type);
    else if (id === 5) m.numValues = int(r, type);
    else if (id === 7) m.totalCompressedSize = int(r, type);
    else if (id === 9) m.dataPageOffset = int(r, type);
    else if (id === 11) m.dictionaryPageOffset = int(r, type);
    else return false;
    return true;
  });
  return m;
}

function columnChunk(r: CompactReader): ColumnChunk {
  const c: ColumnChunk = { encrypted: false };
  r.struct((id, type) => {
    if (id === 1 && type === WIRE.BINARY) c.filePath = r.string();
    else if (id === 3 && type === WIRE.STRUCT) c.meta = columnMeta(r);
    else if (id === 8 || id === 9) {
      c.encrypted = true;
      return false;
    } else return false;
    return true;
  });
  return c;
}

function rowGroup(r: CompactReader): RowGroup {
  const g: RowGroup = { columns: [], numRows: -1 };
  r.struct((id, type) => {
    if (id === 1 && type === WIRE.LIST) g.columns = r.list(() => columnChunk(r));
    else if (id === 3) g.numRows = int(r, type);
    else return false;
    return true;
  });
  return g;
}

/** Decode the footer's FileMetaData from `bytes`. */
export function fileMetaData(bytes: Uint8Array): FileMetaData {
  const r = new CompactReader(bytes);
  const m: FileMetaData = { schema: [], numRows: -1, rowGroups: [] };
  r.struct((id, type) => {
    if (id === 2 && type === WIRE.LIST) m.schema = r.list(() => schemaElement(r));
    else if (id === 3) m.numRows = int(r, type);
    else if (id === 4 && type === WIRE.LIST) m.rowGroups = r.list(() => rowGroup(r));
    else return false;
    return true;
  });
  check(m.numRows >= 0 && m.schema.length > 0, 'metadata: no schema or row count');
  return m;
}

/** The header of one page: its type, sizes and the fields of its kind's header. */
export interface PageHeader {
  type: number;
  uncompressedSize: number;
  compressedSize: number;
  numValues: number;
  encoding: number;
  /** Data page v1: the definition levels' encoding. */
  defEncoding: number;
  /** Data page v2: the levels' byte lengths (stored uncompressed before the values). */
  defBytes: number;
  repBytes: number;
  /** Data page v2: whether the values are compressed (default true). */
  compressed: boolean;
}

/** Decode the page header at `reader.pos`; `reader.pos` is then the page's first byte. */
export function pageHeader(reader: CompactReader): PageHeader {
  const h: PageHeader = {
    type: -1,
    uncompressedSize: -1,
    compressedSize: -1,
    numValues: -1,
    encoding: -1,
    defEncoding: ENCODING.RLE,
    defBytes: 0,
    repBytes: 0,
    compressed: true,
  };
  const r = reader;
  r.struct((id, type) => {
    if (id === 1) h.type = int(r, type);
    else if (id === 2) h.uncompressedSize = int(r, type);
    else if (id === 3) h.compressedSize = int(r, type);
    else if ((id === 5 || id === 7) && type === WIRE.STRUCT)
      // DataPageHeader and DictionaryPageHeader: num_values, encoding (v1 also: definition level encoding).
      r.struct((f, t) => {
        if (f === 1) h.numValues = int(r, t);
        else if (f === 2) h.encoding = int(r, t);
        else if (f === 3 && id === 5) h.defEncoding = int(r, t);
        else return false;
        return true;
      });
    else if (id === 8 && type === WIRE.STRUCT)
      r.struct((f, t) => {
        if (f === 1) h.numValues = int(r, t);
        else if (f === 4) h.encoding = int(r, t);
        else if (f === 5) h.defBytes = int(r, t);
        else if (f === 6) h.repBytes = int(r, t);
        else if (f === 7 && (t === WIRE.TRUE || t === WIRE.FALSE)) h.compressed = t === WIRE.TRUE;
        else return false;
        return true;
      });
    else return false;
    return true;
  });
  check(h.compressedSize >= 0 && h.uncompressedSize >= 0, 'page header without sizes');
  return h;
}
