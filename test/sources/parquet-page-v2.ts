/**
 * Test helper: rewrite a flat Parquet file as DuckDB writes it (data pages v1) page by page into
 * what DuckDB does not write: data pages v2 (DuckDB writes none), pages of nulls stored as v2 pages
 * with no value bytes though marked compressed (as parquet-java does), REQUIRED columns (DuckDB
 * writes every column OPTIONAL). The footer and page headers are decoded as generic Thrift trees,
 * changed and encoded again, the chunk offsets and sizes set to the new ones (page indexes
 * dropped). DuckDB reading the rewritten file is the check that it is valid. Also: a dictionary
 * giving way to PLAIN pages partway through a chunk (DuckDB writes one data page per chunk).
 */
import { decodeHybrid } from '../../src/data/parquet/hybrid.js';
import { ENCODING, PAGE, type PageHeader, PHYSICAL, pageHeader } from '../../src/data/parquet/metadata.js';
import { plainTexts } from '../../src/data/parquet/plain.js';
import { snappyDecompress, snappyLength } from '../../src/data/parquet/snappy.js';
import { CompactReader, WIRE } from '../../src/data/parquet/thrift.js';

/** A Thrift value: a struct's fields, a list, bytes, a number or a boolean. */
type Value = Field[] | { elem: number; items: Value[] } | Uint8Array | number | boolean;
export interface Field {
  id: number;
  type: number;
  value: Value;
}

function readValue(r: CompactReader, type: number): Value {
  if (type === WIRE.TRUE || type === WIRE.FALSE) return type === WIRE.TRUE;
  if (type === WIRE.BYTE) return r.byte();
  if (type === WIRE.I16 || type === WIRE.I32 || type === WIRE.I64) return r.int();
  if (type === WIRE.BINARY) return r.binary();
  if (type === WIRE.LIST || type === WIRE.SET) {
    const { size, type: elem } = r.listHeader();
    const items: Value[] = [];
    for (let k = 0; k < size; k++) items.push(elem === WIRE.TRUE ? r.byte() === 1 : readValue(r, elem));
    return { elem, items };
  }
  if (type === WIRE.STRUCT) return readStruct(r);
  throw new Error(`thrift type ${type} not handled by the test helper`);
}

function readStruct(r: CompactReader): Field[] {
  const fields: Field[] = [];
  r.struct((id, type) => {
    fields.push({ id, type, value: readValue(r, type) });
    return true;
  });
  return fields;
}

class Writer {
  readonly out: number[] = [];
  varint(v: number): void {
    while (v >= 0x80) {
      this.out.push((v % 128) | 0x80);
      v = Math.floor(v / 128);
    }
    this.out.push(v);
  }
  value(type: number, v: Value): void {
    if (type === WIRE.BYTE) this.out.push(v as number);
    else if (type === WIRE.I16 || type === WIRE.I32 || type === WIRE.I64) {
      const n = v as number;
      this.varint(n >= 0 ? 2 * n : -2 * n - 1);
    } else if (type === WIRE.BINARY) {
      this.varint((v as Uint8Array).length);
      for (const b of v as Uint8Array) this.out.push(b);
    } else if (type === WIRE.LIST || type === WIRE.SET) {
      const { elem, items } = v as { elem: number; items: Value[] };
      if (items.length < 15) this.out.push((items.length << 4) | elem);
      else {
        this.out.push(0xf0 | elem);
        this.varint(items.length);
      }
      for (const item of items) elem === WIRE.TRUE ? this.out.push(item ? 1 : 0) : this.value(elem, item);
    } else if (type === WIRE.STRUCT) this.struct(v as Field[]);
  }
  struct(fields: readonly Field[]): void {
    let last = 0;
    for (const f of [...fields].sort((a, b) => a.id - b.id)) {
      const type = f.type === WIRE.TRUE || f.type === WIRE.FALSE ? (f.value ? WIRE.TRUE : WIRE.FALSE) : f.type;
      if (f.id > last && f.id - last <= 15) this.out.push(((f.id - last) << 4) | type);
      else {
        this.out.push(type);
        this.value(WIRE.I16, f.id);
      }
      last = f.id;
      if (type !== WIRE.TRUE && type !== WIRE.FALSE) this.value(type, f.value);
    }
    this.out.push(0);
  }
}

export const field = (fields: Field[], id: number) => fields.find((f) => f.id === id);
const i32 = (id: number, value: number): Field => ({ id, type: WIRE.I32, value });

/** Set (or add) field `id` of a struct to an integer. */
export function setInt(fields: Field[], id: number, type: number, value: number): void {
  const f = field(fields, id);
  if (f) f.value = value;
  else fields.push({ id, type, value });
}

/** Byte pieces, joined once at the end. */
class Pieces {
  private readonly parts: Uint8Array[] = [];
  length = 0;
  push(bytes: Uint8Array): void {
    this.parts.push(bytes);
    this.length += bytes.length;
  }
  join(): Uint8Array {
    const out = new Uint8Array(this.length);
    let at = 0;
    for (const p of this.parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }
}

const encode = (fields: Field[]): Uint8Array => {
  const w = new Writer();
  w.struct(fields);
  return Uint8Array.from(w.out);
};

/** A page: its header's fields and its body. */
interface Page {
  header: Field[];
  body: Uint8Array;
}

/** The chunk a page is in: its physical type and its dictionary page's body, if it has one. */
interface ChunkInfo {
  physical: number;
  dictionary?: { body: Uint8Array; size: number };
}

/** A data page after a rewrite (one page or several), or undefined to keep the page as it is. */
type PageRewrite = (h: PageHeader, header: Field[], body: Uint8Array, chunk: ChunkInfo) => Page | Page[] | undefined;

/** The file with each data page passed through `rewrite` and the footer through `footerEdit`; `pages` counts the pages changed. */
export function rewritePages(
  file: Uint8Array,
  rewrite: PageRewrite,
  footerEdit: (footer: Field[]) => void = () => {},
): { bytes: Uint8Array; pages: number } {
  const view = new DataView(file.buffer, file.byteOffset, file.length);
  const footerLength = view.getUint32(file.length - 8, true);
  const footer = readStruct(new CompactReader(file, file.length - 8 - footerLength, file.length - 8));
  footerEdit(footer);
  const out = new Pieces();
  out.push(Uint8Array.from([0x50, 0x41, 0x52, 0x31]));
  let pages = 0;
  const groups = field(footer, 4)!.value as { items: Field[][] };
  for (const group of groups.items) {
    for (let k = group.length - 1; k >= 0; k--) if (group[k].id === 5 || group[k].id === 6) group.splice(k, 1);
    for (const chunk of (field(group, 1)!.value as { items: Field[][] }).items) {
      for (let k = chunk.length - 1; k >= 0; k--) if (chunk[k].id >= 4 && chunk[k].id <= 7) chunk.splice(k, 1);
      const meta = field(chunk, 3)!.value as Field[];
      // Size statistics (level histograms) would no longer match the pages.
      for (let k = meta.length - 1; k >= 0; k--) if (meta[k].id === 16) meta.splice(k, 1);
      const data = field(meta, 9)!.value as number;
      const dict = field(meta, 11)?.value as number | undefined;
      const first = dict ?? data;
      const end = first + (field(meta, 7)!.value as number);
      const start = out.length;
      let newData = -1;
      const info: ChunkInfo = { physical: field(meta, 1)!.value as number };
      for (let pos = first; pos < end; ) {
        const h = pageHeader(new CompactReader(file, pos));
        const headerReader = new CompactReader(file, pos);
        const header = readStruct(headerReader);
        const body = file.subarray(headerReader.pos, headerReader.pos + h.compressedSize);
        const next = headerReader.pos + h.compressedSize;
        if (h.type === PAGE.DICTIONARY) info.dictionary = { body, size: h.numValues };
        const changed = h.type === PAGE.DATA ? rewrite(h, header, body, info) : undefined;
        if (h.type === PAGE.DATA && newData < 0) newData = out.length;
        if (!changed) out.push(file.subarray(pos, next));
        else {
          for (const page of Array.isArray(changed) ? changed : [changed]) {
            out.push(encode(page.header));
            out.push(page.body);
          }
          pages++;
        }
        pos = next;
      }
      setInt(meta, 9, WIRE.I64, newData);
      if (dict !== undefined) setInt(meta, 11, WIRE.I64, start);
      setInt(meta, 7, WIRE.I64, out.length - start);
      setInt(meta, 6, WIRE.I64, out.length - start);
      setInt(chunk, 2, WIRE.I64, start);
    }
  }
  const footerBytes = encode(footer);
  out.push(footerBytes);
  const tail = new Uint8Array(8);
  new DataView(tail.buffer).setUint32(0, footerBytes.length, true);
  tail.set([0x50, 0x41, 0x52, 0x31], 4);
  out.push(tail);
  return { bytes: out.join(), pages };
}

/** A data page v2 header: `levels` bytes of definition levels, `size` bytes in all, compressed or not. */
function v2Header(h: PageHeader, nulls: number, levels: number, size: number, compressed: boolean): Field[] {
  const v2 = [i32(1, h.numValues), i32(2, nulls), i32(3, h.numValues), i32(4, h.encoding), i32(5, levels), i32(6, 0)];
  // is_compressed defaults to true: left out then, as writers do.
  if (!compressed) v2.push({ id: 7, type: WIRE.FALSE, value: false });
  return [i32(1, PAGE.DATA_V2), i32(2, size), i32(3, size), { id: 8, type: WIRE.STRUCT, value: v2 }];
}

/**
 * An UNCOMPRESSED file with every data page as a data page v2, keeping the page's levels and values
 * (without the v1 levels' length prefix), marked uncompressed. `required`: the file's columns are
 * REQUIRED (see {@link asRequired}), their pages without levels.
 */
export function rewriteAsPageV2(file: Uint8Array, required = false): { bytes: Uint8Array; pages: number } {
  return rewritePages(file, (h, _header, body) => {
    if (required) return { header: v2Header(h, 0, 0, body.length, false), body };
    const view = new DataView(body.buffer, body.byteOffset, body.length);
    const defBytes = view.getUint32(0, true);
    const levels = new Uint8Array(h.numValues);
    decodeHybrid(body, 4, 4 + defBytes, 1, h.numValues, levels);
    let nulls = 0;
    for (const v of levels) nulls += v === 0 ? 1 : 0;
    const payload = body.subarray(4);
    return { header: v2Header(h, nulls, defBytes, payload.length, false), body: payload };
  });
}

/**
 * A SNAPPY file whose data pages of nulls only are rewritten as data pages v2 with their levels and
 * no value bytes at all, marked compressed (parquet-java writes such pages).
 */
export function nullPagesAsEmptyV2(file: Uint8Array): { bytes: Uint8Array; pages: number } {
  return rewritePages(file, (h, _header, body) => {
    const raw = new Uint8Array(snappyLength(body));
    snappyDecompress(body, raw);
    const defBytes = new DataView(raw.buffer).getUint32(0, true);
    if (raw.length !== 4 + defBytes) return undefined; // values follow the levels: not all null
    const levels = raw.subarray(4);
    return { header: v2Header(h, h.numValues, defBytes, defBytes, true), body: levels };
  });
}

/**
 * An UNCOMPRESSED file without nulls whose columns are all REQUIRED: the schema's leaves say so and
 * the data pages v1 hold no definition levels.
 */
export function asRequired(file: Uint8Array): { bytes: Uint8Array; pages: number } {
  return rewritePages(
    file,
    (h, header, body) => {
      const defBytes = new DataView(body.buffer, body.byteOffset, body.length).getUint32(0, true);
      const levels = new Uint8Array(h.numValues);
      decodeHybrid(body, 4, 4 + defBytes, 1, h.numValues, levels);
      if (levels.includes(0)) throw new Error('a null in a column made REQUIRED');
      const values = body.subarray(4 + defBytes);
      setInt(header, 2, WIRE.I32, values.length);
      setInt(header, 3, WIRE.I32, values.length);
      return { header: header.filter((f) => f.id !== 4), body: values }; // a CRC would no longer match
    },
    (footer) => {
      const schema = (field(footer, 2)!.value as { items: Field[][] }).items;
      for (const e of schema.slice(1)) setInt(e, 3, WIRE.I32, 0);
    },
  );
}

/** Bytes of a little-endian 4-byte length, then `body`. */
function lengthPrefixed(body: Uint8Array): Uint8Array {
  const out = new Uint8Array(4 + body.length);
  new DataView(out.buffer).setUint32(0, body.length, true);
  out.set(body, 4);
  return out;
}

/** Hybrid-encoded values, each as a run of one (a valid if wasteful encoding) of `bytes` bytes. */
function runsOfOne(values: ArrayLike<number>, bytes: number): Uint8Array {
  const w = new Writer();
  for (let k = 0; k < values.length; k++) {
    w.varint(2);
    for (let b = 0; b < bytes; b++) w.out.push((values[k] >> (8 * b)) & 0xff);
  }
  return Uint8Array.from(w.out);
}

/**
 * An UNCOMPRESSED file whose dictionary-encoded string pages (without nulls) are each split in two:
 * the first half still dictionary-encoded, the second PLAIN, as a writer does when the dictionary
 * grows too large partway through a chunk (pyarrow's `dictionary_pagesize_limit`).
 */
export function dictionaryThenPlain(file: Uint8Array): { bytes: Uint8Array; pages: number } {
  return rewritePages(file, (h, header, body, chunk) => {
    if (chunk.physical !== PHYSICAL.BYTE_ARRAY || !chunk.dictionary || h.numValues < 2) return undefined;
    const n = h.numValues;
    const view = new DataView(body.buffer, body.byteOffset, body.length);
    const defBytes = view.getUint32(0, true);
    const levels = new Uint8Array(n);
    decodeHybrid(body, 4, 4 + defBytes, 1, n, levels);
    if (levels.includes(0)) throw new Error('nulls in a page split by the test helper');
    const values = body.subarray(4 + defBytes);
    const indexes = new Int32Array(n);
    decodeHybrid(values, 1, values.length, values[0], n, indexes);
    const texts = plainTexts(chunk.dictionary.body, chunk.dictionary.size);
    const half = n >> 1;
    // Definition levels: one run of `count` ones.
    const allPresent = (count: number) => {
      const w = new Writer();
      w.varint(2 * count);
      w.out.push(1);
      return lengthPrefixed(Uint8Array.from(w.out));
    };
    const page = (count: number, encoding: number, payload: Uint8Array): Page => {
      const bytes = new Pieces();
      bytes.push(allPresent(count));
      bytes.push(payload);
      const pageBody = bytes.join();
      const dataHeader = [i32(1, count), i32(2, encoding), i32(3, ENCODING.RLE), i32(4, ENCODING.RLE)];
      const fields = header.filter((f) => f.id !== 4 && f.id !== 5).map((f) => ({ ...f }));
      setInt(fields, 2, WIRE.I32, pageBody.length);
      setInt(fields, 3, WIRE.I32, pageBody.length);
      fields.push({ id: 5, type: WIRE.STRUCT, value: dataHeader });
      return { header: fields, body: pageBody };
    };
    const width = 32 - Math.clz32(Math.max(chunk.dictionary.size - 1, 1));
    const first = new Pieces();
    first.push(Uint8Array.from([width]));
    first.push(runsOfOne(indexes.subarray(0, half), (width + 7) >> 3));
    const plain = new Pieces();
    for (let k = half; k < n; k++) plain.push(lengthPrefixed(new TextEncoder().encode(texts[indexes[k]])));
    return [page(half, h.encoding, first.join()), page(n - half, ENCODING.PLAIN, plain.join())];
  });
}

/** The file's footer as a generic Thrift tree, and where it starts. */
export function readFooterTree(file: Uint8Array): { footer: Field[]; start: number } {
  const view = new DataView(file.buffer, file.byteOffset, file.length);
  const start = file.length - 8 - view.getUint32(file.length - 8, true);
  return { footer: readStruct(new CompactReader(file, start, file.length - 8)), start };
}

/** The file with `footer` (raw bytes) in place of its own; the pages are kept as they are. */
export function withFooterBytes(file: Uint8Array, footer: Uint8Array): Uint8Array {
  const { start } = readFooterTree(file);
  const out = new Pieces();
  out.push(file.subarray(0, start));
  out.push(footer);
  const tail = new Uint8Array(8);
  new DataView(tail.buffer).setUint32(0, footer.length, true);
  tail.set([0x50, 0x41, 0x52, 0x31], 4);
  out.push(tail);
  return out.join();
}

/**
 * The file with its footer changed by `edit`, given the footer and helpers to reach a field and
 * set an integer (FileMetaData: 3 num_rows, 4 row_groups; RowGroup: 1 columns, 3 num_rows;
 * ColumnChunk: 3 meta_data; ColumnMetaData: 5 num_values, 7 total_compressed_size, 9
 * data_page_offset, 11 dictionary_page_offset).
 */
export function editFooter(
  file: Uint8Array,
  edit: (
    footer: Field[],
    at: (fields: Field[], id: number) => Value,
    set: (fields: Field[], id: number, v: number) => void,
  ) => void,
): Uint8Array {
  const { footer } = readFooterTree(file);
  edit(
    footer,
    (fields, id) => field(fields, id)!.value,
    (fields, id, v) => setInt(fields, id, WIRE.I64, v),
  );
  return withFooterBytes(file, encode(footer));
}
