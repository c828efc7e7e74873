/**
 * The subset of onnx/onnx.proto (package `onnx`) that grove writes, and its protobuf encoder: message
 * and field names and numbers exactly as in onnx.proto. Fields are written in field-number order;
 * a plain field equal to its default (0, '', empty bytes) is left out, as protobuf's implicit
 * presence allows; a member of a oneof is written whenever set; repeated numbers are packed (every
 * protobuf parser accepts both encodings).
 */

/** A field's value type: a scalar, an enum (written as its number) or another message. */
type FieldType = 'string' | 'bytes' | 'int64' | 'int32' | 'float' | 'enum' | MessageName;

interface Field {
  readonly name: string;
  readonly id: number;
  readonly type: FieldType;
  readonly repeated?: true;
  /** A oneof member: written whenever set, even to its default. */
  readonly oneof?: true;
}

type MessageName =
  | 'ModelProto'
  | 'OperatorSetIdProto'
  | 'GraphProto'
  | 'NodeProto'
  | 'AttributeProto'
  | 'TensorProto'
  | 'ValueInfoProto'
  | 'TypeProto'
  | 'TypeProto.Tensor'
  | 'TensorShapeProto'
  | 'TensorShapeProto.Dimension';

const f = (name: string, id: number, type: FieldType, extra: { repeated?: true; oneof?: true } = {}): Field => ({
  name,
  id,
  type,
  ...extra,
});
const many = { repeated: true } as const;

/** Each message's fields, in field-number order. */
const MESSAGES: { readonly [M in MessageName]: readonly Field[] } = {
  ModelProto: [
    f('ir_version', 1, 'int64'),
    f('producer_name', 2, 'string'),
    f('producer_version', 3, 'string'),
    f('doc_string', 6, 'string'),
    f('graph', 7, 'GraphProto'),
    f('opset_import', 8, 'OperatorSetIdProto', many),
  ],
  OperatorSetIdProto: [f('domain', 1, 'string'), f('version', 2, 'int64')],
  GraphProto: [
    f('node', 1, 'NodeProto', many),
    f('name', 2, 'string'),
    f('initializer', 5, 'TensorProto', many),
    f('input', 11, 'ValueInfoProto', many),
    f('output', 12, 'ValueInfoProto', many),
  ],
  NodeProto: [
    f('input', 1, 'string', many),
    f('output', 2, 'string', many),
    f('name', 3, 'string'),
    f('op_type', 4, 'string'),
    f('attribute', 5, 'AttributeProto', many),
    f('domain', 7, 'string'),
  ],
  AttributeProto: [
    f('name', 1, 'string'),
    f('f', 2, 'float'),
    f('i', 3, 'int64'),
    f('s', 4, 'bytes'),
    f('t', 5, 'TensorProto'),
    f('floats', 7, 'float', many),
    f('ints', 8, 'int64', many),
    f('strings', 9, 'bytes', many),
    f('type', 20, 'enum'),
  ],
  TensorProto: [
    f('dims', 1, 'int64', many),
    f('data_type', 2, 'int32'),
    f('float_data', 4, 'float', many),
    f('string_data', 6, 'bytes', many),
    f('int64_data', 7, 'int64', many),
    f('name', 8, 'string'),
  ],
  ValueInfoProto: [f('name', 1, 'string'), f('type', 2, 'TypeProto')],
  TypeProto: [f('tensor_type', 1, 'TypeProto.Tensor', { oneof: true })],
  'TypeProto.Tensor': [f('elem_type', 1, 'int32'), f('shape', 2, 'TensorShapeProto')],
  TensorShapeProto: [f('dim', 1, 'TensorShapeProto.Dimension', many)],
  'TensorShapeProto.Dimension': [
    f('dim_value', 1, 'int64', { oneof: true }),
    f('dim_param', 2, 'string', { oneof: true }),
  ],
};

/** TensorProto.DataType values used here. */
export const DataType = { FLOAT: 1, INT64: 7, STRING: 8 } as const;

/** AttributeProto.AttributeType values used here. */
export const AttributeType = { FLOAT: 1, INT: 2, STRING: 3, TENSOR: 4, FLOATS: 6, INTS: 7, STRINGS: 8 } as const;

const utf8 = new TextEncoder();
const WIRE_VARINT = 0;
const WIRE_FIXED32 = 5;
const WIRE_BYTES = 2;

/** A growing byte buffer with protobuf's primitive writers. */
class ByteWriter {
  private buf = new Uint8Array(1024);
  private view = new DataView(this.buf.buffer);
  length = 0;

  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.length + n));
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  /** An integer as a varint; a negative one as its 64-bit two's complement (ten bytes). */
  varint(value: number): void {
    this.room(10);
    if (value < 0) {
      let v = BigInt.asUintN(64, BigInt(Math.trunc(value)));
      while (v >= 0x80n) {
        this.buf[this.length++] = Number(v & 0x7fn) | 0x80;
        v >>= 7n;
      }
      this.buf[this.length++] = Number(v);
      return;
    }
    let v = Math.trunc(value);
    while (v >= 0x80) {
      this.buf[this.length++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.buf[this.length++] = v;
  }

  float(value: number): void {
    this.room(4);
    this.view.setFloat32(this.length, value, true);
    this.length += 4;
  }

  bytes(b: Uint8Array): void {
    this.varint(b.length);
    this.room(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }

  tag(id: number, wire: number): void {
    this.varint(id * 8 + wire);
  }

  finish(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}

type Message = { readonly [field: string]: unknown };

/** True when a plain field holds its default, which protobuf leaves out. */
function isDefault(type: FieldType, v: unknown): boolean {
  if (type === 'string') return v === '';
  if (type === 'bytes') return (v as Uint8Array).length === 0;
  if (type === 'float') return Object.is(v, 0);
  if (type === 'int64' || type === 'int32' || type === 'enum') return v === 0;
  return false;
}

function writeValue(w: ByteWriter, field: Field, v: unknown): void {
  const t = field.type;
  if (t === 'string') {
    w.tag(field.id, WIRE_BYTES);
    w.bytes(utf8.encode(v as string));
  } else if (t === 'bytes') {
    w.tag(field.id, WIRE_BYTES);
    w.bytes(v as Uint8Array);
  } else if (t === 'float') {
    w.tag(field.id, WIRE_FIXED32);
    w.float(v as number);
  } else if (t === 'int64' || t === 'int32' || t === 'enum') {
    w.tag(field.id, WIRE_VARINT);
    w.varint(v as number);
  } else {
    w.tag(field.id, WIRE_BYTES);
    w.bytes(encodeMessage(t, v as Message));
  }
}

/** Repeated numbers, packed: one length-delimited field holding every value. */
function writePacked(w: ByteWriter, field: Field, values: ArrayLike<number>): void {
  const inner = new ByteWriter();
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    if (field.type === 'float') inner.float(v);
    else inner.varint(v);
  }
  w.tag(field.id, WIRE_BYTES);
  w.bytes(inner.finish());
}

/** The protobuf encoding of `message`, a value of the message type `type`. */
function encodeMessage(type: MessageName, message: Message): Uint8Array {
  const w = new ByteWriter();
  for (const field of MESSAGES[type]) {
    if (!Object.hasOwn(message, field.name)) continue;
    const v = message[field.name];
    if (v === undefined || v === null) continue;
    if (field.repeated) {
      const values = v as ArrayLike<unknown>;
      if (values.length === 0) continue;
      if (field.type === 'float' || field.type === 'int64') writePacked(w, field, values as ArrayLike<number>);
      else for (let i = 0; i < values.length; i++) writeValue(w, field, values[i]);
    } else if (field.oneof || !isDefault(field.type, v)) {
      writeValue(w, field, v);
    }
  }
  return w.finish();
}

/** The serialised `onnx.ModelProto` of `model`, an object of the message's shape. */
export function encodeModelProto(model: Message): Uint8Array {
  return encodeMessage('ModelProto', model);
}
