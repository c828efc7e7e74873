import protobuf from 'protobufjs';

/**
 * The subset of onnx/onnx.proto (package `onnx`, proto2) that grove writes, as a protobufjs JSON
 * descriptor: message and field names and numbers exactly as in onnx.proto. Repeated numeric
 * fields are written packed (every protobuf parser accepts both encodings).
 */
const descriptor = {
  nested: {
    onnx: {
      nested: {
        AttributeProto: {
          fields: {
            name: { type: 'string', id: 1 },
            type: { type: 'AttributeType', id: 20 },
            f: { type: 'float', id: 2 },
            i: { type: 'int64', id: 3 },
            s: { type: 'bytes', id: 4 },
            t: { type: 'TensorProto', id: 5 },
            floats: { rule: 'repeated', type: 'float', id: 7, options: { packed: true } },
            ints: { rule: 'repeated', type: 'int64', id: 8, options: { packed: true } },
            strings: { rule: 'repeated', type: 'bytes', id: 9 },
          },
          nested: {
            AttributeType: {
              values: { UNDEFINED: 0, FLOAT: 1, INT: 2, STRING: 3, TENSOR: 4, FLOATS: 6, INTS: 7, STRINGS: 8 },
            },
          },
        },
        ValueInfoProto: {
          fields: { name: { type: 'string', id: 1 }, type: { type: 'TypeProto', id: 2 } },
        },
        NodeProto: {
          fields: {
            input: { rule: 'repeated', type: 'string', id: 1 },
            output: { rule: 'repeated', type: 'string', id: 2 },
            name: { type: 'string', id: 3 },
            op_type: { type: 'string', id: 4 },
            domain: { type: 'string', id: 7 },
            attribute: { rule: 'repeated', type: 'AttributeProto', id: 5 },
          },
        },
        ModelProto: {
          fields: {
            ir_version: { type: 'int64', id: 1 },
            opset_import: { rule: 'repeated', type: 'OperatorSetIdProto', id: 8 },
            producer_name: { type: 'string', id: 2 },
            producer_version: { type: 'string', id: 3 },
            doc_string: { type: 'string', id: 6 },
            graph: { type: 'GraphProto', id: 7 },
          },
        },
        GraphProto: {
          fields: {
            node: { rule: 'repeated', type: 'NodeProto', id: 1 },
            name: { type: 'string', id: 2 },
            initializer: { rule: 'repeated', type: 'TensorProto', id: 5 },
            input: { rule: 'repeated', type: 'ValueInfoProto', id: 11 },
            output: { rule: 'repeated', type: 'ValueInfoProto', id: 12 },
          },
        },
        TensorProto: {
          fields: {
            dims: { rule: 'repeated', type: 'int64', id: 1, options: { packed: true } },
            data_type: { type: 'int32', id: 2 },
            float_data: { rule: 'repeated', type: 'float', id: 4, options: { packed: true } },
            string_data: { rule: 'repeated', type: 'bytes', id: 6 },
            int64_data: { rule: 'repeated', type: 'int64', id: 7, options: { packed: true } },
            name: { type: 'string', id: 8 },
          },
          nested: { DataType: { values: { UNDEFINED: 0, FLOAT: 1, INT64: 7, STRING: 8 } } },
        },
        TensorShapeProto: {
          fields: { dim: { rule: 'repeated', type: 'Dimension', id: 1 } },
          nested: {
            Dimension: {
              oneofs: { value: { oneof: ['dim_value', 'dim_param'] } },
              fields: { dim_value: { type: 'int64', id: 1 }, dim_param: { type: 'string', id: 2 } },
            },
          },
        },
        TypeProto: {
          oneofs: { value: { oneof: ['tensor_type'] } },
          fields: { tensor_type: { type: 'Tensor', id: 1 } },
          nested: {
            Tensor: {
              fields: { elem_type: { type: 'int32', id: 1 }, shape: { type: 'TensorShapeProto', id: 2 } },
            },
          },
        },
        OperatorSetIdProto: {
          fields: { domain: { type: 'string', id: 1 }, version: { type: 'int64', id: 2 } },
        },
      },
    },
  },
};

let modelType: protobuf.Type | undefined;

/** The `onnx.ModelProto` message type (built once). */
export function modelProto(): protobuf.Type {
  modelType ??= protobuf.Root.fromJSON(descriptor).lookupType('onnx.ModelProto');
  return modelType;
}

/** TensorProto.DataType values used here. */
export const DataType = { FLOAT: 1, INT64: 7, STRING: 8 } as const;

/** AttributeProto.AttributeType values used here. */
export const AttributeType = { FLOAT: 1, INT: 2, STRING: 3, TENSOR: 4, FLOATS: 6, INTS: 7, STRINGS: 8 } as const;
