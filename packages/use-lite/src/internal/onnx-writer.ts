/**
 * A minimal ONNX (protobuf) model writer: just the ModelProto / GraphProto / NodeProto / TensorProto /
 * ValueInfoProto / AttributeProto fields the USE-lite graph needs (field numbers from onnx/onnx.proto). Written by
 * hand because the only npm encoders (`onnx-proto` + protobufjs) would add a dependency for ~100 lines of varints.
 */

const encoder = new TextEncoder();

class ProtoWriter {
  private readonly chunks: Uint8Array[] = [];
  private size = 0;

  private push(bytes: Uint8Array): void {
    this.chunks.push(bytes);
    this.size += bytes.length;
  }

  private varint(value: bigint): void {
    // Negative int64 values are encoded as their 64-bit two's complement (10 bytes).
    let rest = BigInt.asUintN(64, value);
    const bytes: number[] = [];
    while (rest >= 0x80n) {
      bytes.push(Number(rest & 0x7fn) | 0x80);
      rest >>= 7n;
    }
    bytes.push(Number(rest));
    this.push(Uint8Array.from(bytes));
  }

  private tag(field: number, wireType: number): void {
    this.varint(BigInt((field << 3) | wireType));
  }

  int(field: number, value: number | bigint): this {
    this.tag(field, 0);
    this.varint(BigInt(value));
    return this;
  }

  float(field: number, value: number): this {
    this.tag(field, 5);
    const bytes = new Uint8Array(4);
    new DataView(bytes.buffer).setFloat32(0, value, true);
    this.push(bytes);
    return this;
  }

  bytes(field: number, value: Uint8Array): this {
    this.tag(field, 2);
    this.varint(BigInt(value.length));
    this.push(value);
    return this;
  }

  string(field: number, value: string): this {
    return this.bytes(field, encoder.encode(value));
  }

  message(field: number, write: (writer: ProtoWriter) => void): this {
    const inner = new ProtoWriter();
    write(inner);
    return this.bytes(field, inner.finish());
  }

  finish(): Uint8Array {
    const out = new Uint8Array(this.size);
    let offset = 0;
    for (const chunk of this.chunks) {
      out.set(chunk, offset);
      offset += chunk.length;
    }
    return out;
  }
}

/** ONNX TensorProto.DataType values used here. */
export const OnnxType = { float: 1, int32: 6, int64: 7 } as const;

export type OnnxAttribute = { kind: 'int'; value: number } | { kind: 'ints'; value: readonly number[] } | { kind: 'float'; value: number };

export interface OnnxNode {
  readonly op: string;
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
  readonly attributes?: Readonly<Record<string, OnnxAttribute>>;
}

export interface OnnxInitializer {
  readonly name: string;
  readonly dims: readonly number[];
  readonly type: (typeof OnnxType)[keyof typeof OnnxType];
  /** Little-endian raw data (Float32Array / Int32Array / BigInt64Array on a little-endian host). */
  readonly data: Float32Array | Int32Array | BigInt64Array;
}

export interface OnnxValueInfo {
  readonly name: string;
  readonly type: (typeof OnnxType)[keyof typeof OnnxType];
  /** A number is a fixed size, a string a named symbolic dimension. */
  readonly dims: ReadonlyArray<number | string>;
}

export interface OnnxGraph {
  readonly name: string;
  readonly nodes: readonly OnnxNode[];
  readonly initializers: readonly OnnxInitializer[];
  readonly inputs: readonly OnnxValueInfo[];
  readonly outputs: readonly OnnxValueInfo[];
  readonly opset: number;
}

const ATTRIBUTE_TYPE = { float: 1, int: 2, ints: 7 } as const;

function writeValueInfo(writer: ProtoWriter, info: OnnxValueInfo): void {
  writer.string(1, info.name).message(2, (type) =>
    type.message(1, (tensor) =>
      tensor.int(1, info.type).message(2, (shape) => {
        for (const dim of info.dims) shape.message(1, (d) => (typeof dim === 'number' ? d.int(1, dim) : d.string(2, dim)));
      }),
    ),
  );
}

/** Serializes a graph as an ONNX ModelProto (IR version 7). */
export function encodeOnnxModel(graph: OnnxGraph): Uint8Array {
  const model = new ProtoWriter();
  model.int(1, 7).string(2, 'factkit');
  model.message(7, (g) => {
    graph.nodes.forEach((node, index) => {
      g.message(1, (n) => {
        for (const input of node.inputs) n.string(1, input);
        for (const output of node.outputs) n.string(2, output);
        n.string(3, `n${index}_${node.op}`).string(4, node.op);
        for (const [name, attribute] of Object.entries(node.attributes ?? {})) {
          n.message(5, (a) => {
            a.string(1, name);
            if (attribute.kind === 'float') a.float(2, attribute.value);
            else if (attribute.kind === 'int') a.int(3, attribute.value);
            else for (const value of attribute.value) a.int(8, value);
            a.int(20, ATTRIBUTE_TYPE[attribute.kind]);
          });
        }
      });
    });
    g.string(2, graph.name);
    for (const init of graph.initializers) {
      g.message(5, (t) => {
        for (const dim of init.dims) t.int(1, dim);
        t.int(2, init.type).string(8, init.name);
        t.bytes(9, new Uint8Array(init.data.buffer, init.data.byteOffset, init.data.byteLength));
      });
    }
    for (const input of graph.inputs) g.message(11, (v) => writeValueInfo(v, input));
    for (const output of graph.outputs) g.message(12, (v) => writeValueInfo(v, output));
  });
  model.message(8, (opset) => opset.string(1, '').int(2, graph.opset));
  return model.finish();
}
