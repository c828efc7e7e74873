/**
 * Thrift's compact protocol, read only as far as Parquet's footer and page headers need: a struct
 * is walked field by field, the caller reads the fields it knows and every other field is skipped
 * by its wire type. Bounds are checked on every byte, so a damaged footer is a {@link ParquetCorrupt}.
 *
 * PURE: no Node imports.
 */

import { check, ParquetCorrupt } from './errors.js';
import { varint } from './varint.js';

/** Compact protocol wire types. */
export const WIRE = {
  TRUE: 1,
  FALSE: 2,
  BYTE: 3,
  I16: 4,
  I32: 5,
  I64: 6,
  DOUBLE: 7,
  BINARY: 8,
  LIST: 9,
  SET: 10,
  MAP: 11,
  STRUCT: 12,
} as const;

/** Nesting (structs, lists, maps) deeper than this is taken for damage (Parquet's own structs nest a few levels). */
const MAX_DEPTH = 64;

const utf8 = new TextDecoder();

export class CompactReader {
  pos: number;
  private depth = 0;

  constructor(
    readonly bytes: Uint8Array,
    start = 0,
    readonly end = bytes.length,
  ) {
    this.pos = start;
  }

  byte(): number {
    check(this.pos < this.end, 'metadata cut short');
    return this.bytes[this.pos++];
  }

  /** An unsigned varint (exact up to 2^53). */
  varint(): number {
    const { value, next } = varint(this.bytes, this.pos, this.end);
    this.pos = next;
    return value;
  }

  /** A zigzag-encoded signed integer (i16, i32 or i64; i64 exact up to 2^53). */
  int(): number {
    const v = this.varint();
    return v % 2 === 0 ? v / 2 : -(v + 1) / 2;
  }

  binary(): Uint8Array {
    const n = this.varint();
    check(n <= this.end - this.pos, 'metadata cut short');
    const out = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  string(): string {
    return utf8.decode(this.binary());
  }

  /** A list's header: element count and wire type. */
  listHeader(): { size: number; type: number } {
    const h = this.byte();
    const size = h >> 4 === 15 ? this.varint() : h >> 4;
    check(size <= this.end - this.pos, 'metadata: list longer than the bytes left');
    return { size, type: h & 15 };
  }

  /** The elements of a list, each read by `item` (given its wire type). */
  list<T>(item: (type: number) => T): T[] {
    const { size, type } = this.listHeader();
    const out: T[] = [];
    for (let k = 0; k < size; k++) out.push(item(type));
    return out;
  }

  /**
   * Walk a struct: `field(id, type)` reads the field and returns true, or returns false to have it
   * skipped. Boolean fields carry their value in the type (`type === WIRE.TRUE`).
   */
  struct(field: (id: number, type: number) => boolean): void {
    check(++this.depth <= MAX_DEPTH, 'metadata nested too deep');
    let id = 0;
    for (;;) {
      const h = this.byte();
      if (h === 0) break;
      const type = h & 15;
      id = h >> 4 ? id + (h >> 4) : this.int();
      if (!field(id, type)) this.skip(type);
    }
    this.depth--;
  }

  /** Skip a value of wire type `type`. */
  skip(type: number): void {
    switch (type) {
      case WIRE.TRUE:
      case WIRE.FALSE:
        return;
      case WIRE.BYTE:
        this.byte();
        return;
      case WIRE.I16:
      case WIRE.I32:
      case WIRE.I64:
        this.varint();
        return;
      case WIRE.DOUBLE:
        check(this.end - this.pos >= 8, 'metadata cut short');
        this.pos += 8;
        return;
      case WIRE.BINARY:
        this.binary();
        return;
      case WIRE.LIST:
      case WIRE.SET: {
        // Lists and maps nest as structs do: the same limit, so skipping never recurses unbounded.
        check(++this.depth <= MAX_DEPTH, 'metadata nested too deep');
        const { size, type: t } = this.listHeader();
        for (let k = 0; k < size; k++) this.skipElement(t);
        this.depth--;
        return;
      }
      case WIRE.MAP: {
        const size = this.varint();
        if (size === 0) return;
        check(size <= this.end - this.pos, 'metadata: map longer than the bytes left');
        check(++this.depth <= MAX_DEPTH, 'metadata nested too deep');
        const kv = this.byte();
        for (let k = 0; k < size; k++) {
          this.skipElement(kv >> 4);
          this.skipElement(kv & 15);
        }
        this.depth--;
        return;
      }
      case WIRE.STRUCT:
        this.struct(() => false);
        return;
      default:
        throw new ParquetCorrupt(`metadata: unknown thrift type ${type}`);
    }
  }

  /** In a list or map a boolean is one byte. */
  private skipElement(type: number): void {
    if (type === WIRE.TRUE || type === WIRE.FALSE) this.byte();
    else this.skip(type);
  }
}
