/**
 * Test helper: rewrite an UNCOMPRESSED flat Parquet file (as DuckDB writes it, data pages v1) with
 * every data page as a data page v2 (DuckDB writes no v2 pages). A v2 page keeps the page's levels
 * and values, without the v1 levels' length prefix, marked uncompressed. The footer is decoded as a
 * generic Thrift tree, its chunk offsets and sizes set to the new ones (page indexes dropped) and
 * encoded again. DuckDB reading the rewritten file is the check that it is valid.
 */
import { decodeHybrid } from '../../src/data/parquet/hybrid.js';
import { PAGE, pageHeader } from '../../src/data/parquet/metadata.js';
import { CompactReader, WIRE } from '../../src/data/parquet/thrift.js';

/** A Thrift value: a struct's fields, a list, bytes, a number or a boolean. */
type Value = Field[] | { elem: number; items: Value[] } | Uint8Array | number | boolean;
interface Field {
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
      this.out.push(...(v as Uint8Array));
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

const field = (fields: Field[], id: number) => fields.find((f) => f.id === id);
const i32 = (id: number, value: number): Field => ({ id, type: WIRE.I32, value });

/** Set (or add) field `id` of a struct to an integer. */
function setInt(fields: Field[], id: number, type: number, value: number): void {
  const f = field(fields, id);
  if (f) f.value = value;
  else fields.push({ id, type, value });
}

/** The file rewritten with data pages v2; `pages` counts the pages rewritten. */
export function rewriteAsPageV2(file: Uint8Array): { bytes: Uint8Array; pages: number } {
  const view = new DataView(file.buffer, file.byteOffset, file.length);
  const footerLength = view.getUint32(file.length - 8, true);
  const footer = readStruct(new CompactReader(file, file.length - 8 - footerLength, file.length - 8));
  const out: number[] = [0x50, 0x41, 0x52, 0x31];
  let pages = 0;
  const groups = field(footer, 4)!.value as { items: Field[][] };
  for (const group of groups.items) {
    for (let k = group.length - 1; k >= 0; k--) if (group[k].id === 5 || group[k].id === 6) group.splice(k, 1);
    for (const chunk of (field(group, 1)!.value as { items: Field[][] }).items) {
      for (let k = chunk.length - 1; k >= 0; k--) if (chunk[k].id >= 4 && chunk[k].id <= 7) chunk.splice(k, 1);
      const meta = field(chunk, 3)!.value as Field[];
      const data = field(meta, 9)!.value as number;
      const dict = field(meta, 11)?.value as number | undefined;
      const first = dict ?? data;
      const end = first + (field(meta, 7)!.value as number);
      const start = out.length;
      let newData = -1;
      for (let pos = first; pos < end; ) {
        const reader = new CompactReader(file, pos);
        const h = pageHeader(reader);
        const body = reader.pos;
        const next = body + h.compressedSize;
        if (h.type !== PAGE.DATA) out.push(...file.subarray(pos, next));
        else {
          if (newData < 0) newData = out.length;
          const defBytes = view.getUint32(body, true);
          const levels = new Uint8Array(h.numValues);
          decodeHybrid(file, body + 4, body + 4 + defBytes, 1, h.numValues, levels);
          const nulls = levels.reduce((s, v) => s + (v === 0 ? 1 : 0), 0);
          const payload = file.subarray(body + 4, next);
          const v2 = [
            i32(1, h.numValues),
            i32(2, nulls),
            i32(3, h.numValues),
            i32(4, h.encoding),
            i32(5, defBytes),
            i32(6, 0),
            { id: 7, type: WIRE.FALSE, value: false },
          ];
          const w = new Writer();
          w.struct([
            i32(1, PAGE.DATA_V2),
            i32(2, payload.length),
            i32(3, payload.length),
            { id: 8, type: WIRE.STRUCT, value: v2 },
          ]);
          out.push(...w.out, ...payload);
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
  const w = new Writer();
  w.struct(footer);
  const tail = new Uint8Array(8);
  new DataView(tail.buffer).setUint32(0, w.out.length, true);
  tail.set([0x50, 0x41, 0x52, 0x31], 4);
  return { bytes: Uint8Array.from([...out, ...w.out, ...tail]), pages };
}
