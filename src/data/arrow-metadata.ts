/**
 * Checks of Arrow IPC metadata (the flatbuffers of messages and of the file footer) before
 * apache-arrow reads them. apache-arrow trusts them: a read past the buffer gives zeros and a
 * vector's length is never compared with the bytes that hold it, so one damaged bit can make it
 * loop over billions of fields or allocate a record batch of billions of rows. Here every table,
 * vector and string must lie inside the metadata, tables are visited a bounded number of times,
 * fields nest a bounded depth, and a batch's buffers, row and null counts fit in its body.
 */

/** A reason the metadata is damaged (the reader adds the file's name). */
export class ArrowDamage extends Error {}

/** Field nesting deeper than this is refused (grove reads flat tables; Arrow's own readers recurse). */
const MAX_NESTING = 64;

/** Rows a batch without buffers (every column of Arrow's Null type) may declare. */
const ROWS_WITHOUT_BUFFERS = 1 << 16;

/** Message header types: the ones grove reads. */
const HEADER_SCHEMA = 1;
const HEADER_DICTIONARY = 2;
const HEADER_BATCH = 3;

/** Type union members with offsets inside their tables. */
const TYPE_TIMESTAMP = 10;
const TYPE_UNION = 14;

/** A flatbuffer read with every position checked against its bytes. */
class Flatbuffer {
  private readonly view: DataView;
  private visits = 0;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly what: string,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  damaged(reason: string): never {
    throw new ArrowDamage(`${this.what}: ${reason}`);
  }

  private need(pos: number, size: number, what: string): void {
    if (!(pos >= 0 && pos + size <= this.bytes.length))
      this.damaged(`${what} at byte ${pos} lies outside the metadata`);
  }

  u8(pos: number): number {
    this.need(pos, 1, 'a value');
    return this.view.getUint8(pos);
  }

  i32(pos: number): number {
    this.need(pos, 4, 'a value');
    return this.view.getInt32(pos, true);
  }

  u32(pos: number): number {
    this.need(pos, 4, 'a value');
    return this.view.getUint32(pos, true);
  }

  /** A 64-bit integer as a number (beyond 2^53 it is damage anyway for the sizes read here). */
  i64(pos: number): number {
    this.need(pos, 8, 'a value');
    return Number(this.view.getBigInt64(pos, true));
  }

  /** The root table's position. */
  root(): number {
    return this.table(this.u32(0));
  }

  /** Check the table at `pos` (its vtable and extent) and count the visit. */
  table(pos: number): number {
    // Each table holds at least its 4-byte vtable offset: more visits mean shared tables revisited.
    if (++this.visits > this.bytes.length / 4 + 1) this.damaged('tables refer to each other in a loop');
    this.need(pos, 4, 'a table');
    const vtable = pos - this.i32(pos);
    this.need(vtable, 4, 'a vtable');
    const vsize = this.view.getUint16(vtable, true);
    const tsize = this.view.getUint16(vtable + 2, true);
    if (vsize < 4 || vsize % 2 !== 0) this.damaged(`a vtable at byte ${vtable} has size ${vsize}`);
    this.need(vtable, vsize, 'a vtable');
    this.need(pos, Math.max(tsize, 4), 'a table');
    for (let at = vtable + 4; at < vtable + vsize; at += 2) {
      const offset = this.view.getUint16(at, true);
      if (offset !== 0 && (offset < 4 || offset >= tsize))
        this.damaged(`a field of the table at byte ${pos} lies outside it`);
    }
    return pos;
  }

  /** Position of field `i` of the table at `t` holding `size` bytes, or -1 when absent. */
  field(t: number, i: number, size: number): number {
    const vtable = t - this.i32(t);
    const vsize = this.view.getUint16(vtable, true);
    if (4 + 2 * i >= vsize) return -1;
    const offset = this.view.getUint16(vtable + 4 + 2 * i, true);
    if (offset === 0) return -1;
    this.need(t + offset, size, 'a field');
    return t + offset;
  }

  /** Field `i` as a scalar (its default when absent). */
  int(t: number, i: number, size: 1 | 4 | 8, absent = 0): number {
    const p = this.field(t, i, size);
    if (p < 0) return absent;
    return size === 1 ? this.u8(p) : size === 4 ? this.i32(p) : this.i64(p);
  }

  /** Where the offset field `i` points, or -1 when absent. */
  private target(t: number, i: number): number {
    const p = this.field(t, i, 4);
    return p < 0 ? -1 : p + this.u32(p);
  }

  /** Field `i` as a table (checked), or -1 when absent. */
  child(t: number, i: number): number {
    const p = this.target(t, i);
    return p < 0 ? -1 : this.table(p);
  }

  /** Field `i` as a vector of `n` elements of `size` bytes from `start` (n = 0 when absent). */
  vector(t: number, i: number, size: number): { start: number; n: number } {
    const p = this.target(t, i);
    if (p < 0) return { start: 0, n: 0 };
    const n = this.u32(p);
    if (n * size > this.bytes.length) this.damaged(`a vector at metadata byte ${p} declares ${n} elements`);
    this.need(p + 4, n * size, 'a vector');
    return { start: p + 4, n };
  }

  /** The tables of vector field `i`. */
  tables(t: number, i: number): number[] {
    const { start, n } = this.vector(t, i, 4);
    const out: number[] = [];
    for (let k = 0; k < n; k++) out.push(this.table(start + 4 * k + this.u32(start + 4 * k)));
    return out;
  }
}

/** Key-value pairs (custom metadata) in vector field `i`: two strings each. */
function checkKeyValues(fb: Flatbuffer, t: number, i: number): void {
  for (const kv of fb.tables(t, i)) {
    fb.vector(kv, 0, 1);
    fb.vector(kv, 1, 1);
  }
}

/** A Schema table: its fields (nested through an explicit stack), metadata and features. */
function checkSchema(fb: Flatbuffer, schema: number): void {
  const stack = fb.tables(schema, 1).map((field) => ({ field, depth: 1 }));
  checkKeyValues(fb, schema, 2);
  fb.vector(schema, 3, 8);
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const { field, depth } = top;
    if (depth > MAX_NESTING) fb.damaged(`fields nest deeper than ${MAX_NESTING}`);
    fb.vector(field, 0, 1);
    const typeId = fb.int(field, 2, 1);
    const type = fb.child(field, 3);
    if (type >= 0 && typeId === TYPE_TIMESTAMP) fb.vector(type, 1, 1);
    if (type >= 0 && typeId === TYPE_UNION) fb.vector(type, 1, 4);
    const dictionary = fb.child(field, 4);
    if (dictionary >= 0) fb.child(dictionary, 1);
    for (const child of fb.tables(field, 5)) stack.push({ field: child, depth: depth + 1 });
    checkKeyValues(fb, field, 6);
  }
}

/** A RecordBatch table: buffers inside the body, row and null counts the body can hold. */
function checkBatch(fb: Flatbuffer, batch: number, bodyLength: number): void {
  const rows = fb.int(batch, 0, 8);
  const buffers = fb.vector(batch, 2, 16);
  for (let k = 0; k < buffers.n; k++) {
    const offset = fb.i64(buffers.start + 16 * k);
    const length = fb.i64(buffers.start + 16 * k + 8);
    if (!(offset >= 0 && length >= 0 && offset + length <= bodyLength))
      fb.damaged(`buffer ${k + 1} (${length} bytes at ${offset}) lies outside the body of ${bodyLength} bytes`);
  }
  // Every column type but Null spends at least a bit per row in some buffer.
  const maxRows = buffers.n === 0 ? ROWS_WITHOUT_BUFFERS : 8 * bodyLength;
  if (!(rows >= 0 && rows <= maxRows)) fb.damaged(`a batch of ${rows} rows in a body of ${bodyLength} bytes`);
  const nodes = fb.vector(batch, 1, 16);
  for (let k = 0; k < nodes.n; k++) {
    const length = fb.i64(nodes.start + 16 * k);
    const nulls = fb.i64(nodes.start + 16 * k + 8);
    if (!(length >= 0 && length <= maxRows && nulls >= 0 && nulls <= length))
      fb.damaged(`column node ${k + 1} declares ${length} values and ${nulls} nulls in a body of ${bodyLength} bytes`);
  }
  fb.child(batch, 3);
  const counts = fb.vector(batch, 4, 8);
  for (let k = 0; k < counts.n; k++) {
    const c = fb.i64(counts.start + 8 * k);
    if (!(c >= 0 && c <= buffers.n)) fb.damaged(`a variadic buffer count of ${c}`);
  }
}

/** What {@link checkMessage} learnt: the header's type and the body's length. */
export interface MessageInfo {
  header: 'schema' | 'dictionary' | 'batch';
  bodyLength: number;
}

/**
 * Check one message's metadata flatbuffer (without its length prefix). `maxBody` is the most
 * bytes its body may have (what is left of the file); throws {@link ArrowDamage}.
 */
export function checkMessage(bytes: Uint8Array, maxBody: number, what: string): MessageInfo {
  const fb = new Flatbuffer(bytes, what);
  const message = fb.root();
  const type = fb.int(message, 1, 1);
  const header = fb.child(message, 2);
  const bodyLength = fb.int(message, 3, 8);
  checkKeyValues(fb, message, 4);
  if (!(bodyLength >= 0 && bodyLength <= maxBody))
    fb.damaged(`a body of ${bodyLength} bytes where ${Math.max(maxBody, 0)} remain`);
  if (header < 0) fb.damaged('a message without a header');
  if (type === HEADER_SCHEMA) {
    checkSchema(fb, header);
    return { header: 'schema', bodyLength };
  }
  if (type === HEADER_BATCH) {
    checkBatch(fb, header, bodyLength);
    return { header: 'batch', bodyLength };
  }
  if (type === HEADER_DICTIONARY) {
    const data = fb.child(header, 1);
    if (data < 0) fb.damaged('a dictionary without data');
    checkBatch(fb, data, bodyLength);
    return { header: 'dictionary', bodyLength };
  }
  return fb.damaged(`a message of type ${type} (grove reads schemas, dictionaries and record batches)`);
}

/** One block of the file footer: where a message starts, its metadata's and body's lengths. */
export interface FooterBlock {
  offset: number;
  metaLength: number;
  bodyLength: number;
}

/** Check the file footer's flatbuffer (its schema included); return its dictionary and batch blocks. */
export function checkFooter(bytes: Uint8Array, what: string): FooterBlock[] {
  const fb = new Flatbuffer(bytes, what);
  const footer = fb.root();
  const schema = fb.child(footer, 1);
  if (schema < 0) fb.damaged('no schema');
  checkSchema(fb, schema);
  checkKeyValues(fb, footer, 4);
  const blocks: FooterBlock[] = [];
  for (const i of [2, 3]) {
    const { start, n } = fb.vector(footer, i, 24);
    for (let k = 0; k < n; k++)
      blocks.push({
        offset: fb.i64(start + 24 * k),
        metaLength: fb.i32(start + 24 * k + 8),
        bodyLength: fb.i64(start + 24 * k + 16),
      });
  }
  return blocks;
}
