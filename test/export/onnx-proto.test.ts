/**
 * grove's own protobuf encoder for ONNX files, checked against protobufjs (a devDependency only):
 * protobufjs decodes what grove wrote, from the messages' .proto text, and encodes it again to the
 * same bytes; the decoded model holds what was exported.
 */
import { resolve } from 'node:path';
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { encodeModelProto } from '../../src/export/onnx/proto.js';
import { fit, fitForest, forestToOnnx, readDataset, treeToOnnx } from '../../src/node.js';
import { repoRoot } from '../helpers/cli.js';

/**
 * The messages of onnx/onnx.proto that grove writes, field numbers as there, in proto3 form: a scalar
 * at its default is not written (implicit presence, as grove writes) and repeated numbers are packed.
 */
const ONNX_PROTO = `
syntax = "proto3";
package onnx;
message AttributeProto {
  enum AttributeType { UNDEFINED = 0; FLOAT = 1; INT = 2; STRING = 3; TENSOR = 4; FLOATS = 6; INTS = 7; STRINGS = 8; }
  string name = 1; AttributeType type = 20; float f = 2; int64 i = 3;
  bytes s = 4; TensorProto t = 5; repeated float floats = 7; repeated int64 ints = 8;
  repeated bytes strings = 9;
}
message ValueInfoProto { string name = 1; TypeProto type = 2; }
message NodeProto {
  repeated string input = 1; repeated string output = 2; string name = 3; string op_type = 4;
  string domain = 7; repeated AttributeProto attribute = 5;
}
message ModelProto {
  int64 ir_version = 1; repeated OperatorSetIdProto opset_import = 8; string producer_name = 2;
  string producer_version = 3; string doc_string = 6; GraphProto graph = 7;
}
message GraphProto {
  repeated NodeProto node = 1; string name = 2; repeated TensorProto initializer = 5;
  repeated ValueInfoProto input = 11; repeated ValueInfoProto output = 12;
}
message TensorProto {
  repeated int64 dims = 1; int32 data_type = 2; repeated float float_data = 4;
  repeated bytes string_data = 6; repeated int64 int64_data = 7; string name = 8;
}
message TensorShapeProto {
  message Dimension { oneof value { int64 dim_value = 1; string dim_param = 2; } }
  repeated Dimension dim = 1;
}
message TypeProto {
  message Tensor { int32 elem_type = 1; TensorShapeProto shape = 2; }
  oneof value { Tensor tensor_type = 1; }
}
message OperatorSetIdProto { string domain = 1; int64 version = 2; }
`;

const modelType = protobuf.parse(ONNX_PROTO, { keepCase: true }).root.lookupType('onnx.ModelProto');

/** protobufjs's reading of the bytes, and its own encoding of what it read. */
function reencode(bytes: Uint8Array): { model: Record<string, unknown>; again: Uint8Array } {
  const decoded = modelType.decode(bytes);
  return { model: modelType.toObject(decoded, { longs: Number }), again: modelType.encode(decoded).finish() };
}

describe('the ONNX protobuf encoder', () => {
  it('writes tree and forest models as protobufjs reads and re-encodes them, byte for byte', async () => {
    for (const name of ['iris', 'house-votes-84', 'zoo']) {
      const data = await readDataset(resolve(repoRoot, `data/${name}.csv`));
      const tree = fit(data, { algorithm: 'c45' });
      const forest = fitForest(data, { trees: 3, seed: 2 });
      for (const bytes of [treeToOnnx(tree).bytes, forestToOnnx(forest).bytes]) {
        const { model, again } = reencode(bytes);
        expect(Buffer.from(again).equals(Buffer.from(bytes))).toBe(true);
        expect(model.producer_name).toBe('grove');
        const graph = model.graph as { input: { name: string }[]; output: { name: string }[] };
        expect(graph.input.map((i) => i.name)).toEqual(tree.features.map((f) => f.name));
        expect(graph.output.map((o) => o.name)).toEqual(['label', 'probabilities']);
      }
    }
  });

  it('writes negative and large int64s, NaN and -0 floats, and leaves out default scalars', () => {
    const attribute = [
      { name: 'big', type: 7, ints: [-1, 2 ** 40, 0, -(2 ** 40)] },
      { name: 'fl', type: 6, floats: [Number.NaN, -0, 1.5] },
      { name: 'zero', type: 2, i: 0 },
      { name: 'negzero', type: 1, f: -0 },
    ];
    const bytes = encodeModelProto({ ir_version: 8, doc_string: '', graph: { node: [{ op_type: 'X', attribute }] } });
    const { model, again } = reencode(bytes);
    expect(Buffer.from(again).equals(Buffer.from(bytes))).toBe(true);
    const attrs = (model.graph as { node: { attribute: Record<string, unknown>[] }[] }).node[0]?.attribute;
    expect(attrs?.[0]?.ints).toEqual([-1, 2 ** 40, 0, -(2 ** 40)]);
    const floats = (attrs?.[1]?.floats ?? []) as number[];
    expect(Object.is(floats[1], -0)).toBe(true);
    expect(Number.isNaN(floats[0])).toBe(true);
    expect(Object.is(attrs?.[3]?.f, -0)).toBe(true);
    expect(model.doc_string).toBeUndefined();
  });
});
