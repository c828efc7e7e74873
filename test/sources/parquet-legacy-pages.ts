/**
 * Test helper: rewrite an UNCOMPRESSED Parquet file as DuckDB writes it into a deprecated form
 * older writers used and no writer at hand still makes: definition levels in the BIT_PACKED
 * encoding (one bit a value, most significant bit first, no length before them). (The deprecated
 * PLAIN_DICTIONARY marking needs no rewrite: DuckDB writes it.)
 */
import { decodeHybrid } from '../../src/data/parquet/hybrid.js';
import { ENCODING } from '../../src/data/parquet/metadata.js';
import { WIRE } from '../../src/data/parquet/thrift.js';
import { type Field, field, rewritePages, setInt } from './parquet-page-v2.js';

/** The v1 data page header (field 5) of a page header. */
const dataHeader = (header: Field[]) => field(header, 5)!.value as Field[];

/** Every column chunk's list of encodings, changed by `edit`. */
function editEncodings(footer: Field[], edit: (encodings: number[]) => number[]): void {
  for (const group of (field(footer, 4)!.value as { items: Field[][] }).items)
    for (const chunk of (field(group, 1)!.value as { items: Field[][] }).items) {
      const list = field(field(chunk, 3)!.value as Field[], 2)!.value as { items: number[] };
      list.items = edit(list.items);
    }
}

/** The file with the definition levels of its data pages v1 in the BIT_PACKED encoding. */
export function levelsBitPacked(file: Uint8Array): { bytes: Uint8Array; pages: number } {
  return rewritePages(
    file,
    (h, header, body) => {
      const n = h.numValues;
      const length = new DataView(body.buffer, body.byteOffset, body.length).getUint32(0, true);
      const levels = new Uint8Array(n);
      decodeHybrid(body, 4, 4 + length, 1, n, levels);
      const values = body.subarray(4 + length);
      const out = new Uint8Array(Math.ceil(n / 8) + values.length);
      for (let i = 0; i < n; i++) out[i >> 3] |= levels[i] << (7 - (i & 7));
      out.set(values, Math.ceil(n / 8));
      setInt(dataHeader(header), 3, WIRE.I32, ENCODING.BIT_PACKED);
      setInt(header, 2, WIRE.I32, out.length);
      setInt(header, 3, WIRE.I32, out.length);
      return { header: header.filter((f) => f.id !== 4), body: out }; // a CRC would no longer match
    },
    (footer) => editEncodings(footer, (list) => [...list, ENCODING.BIT_PACKED]),
  );
}
