import { InferenceSession, Tensor } from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { encodeOnnxModel, OnnxType } from './onnx-writer.js';

// ONNX Runtime is the independent reader: if it parses the bytes and computes the expected numbers, the encoding
// (varints incl. negative int64, attributes, raw initializers, symbolic dims) is right.
describe('encodeOnnxModel', () => {
  it('writes a model ONNX Runtime loads and runs as specified', async () => {
    const bytes = encodeOnnxModel({
      name: 'tiny',
      opset: 13,
      nodes: [
        { op: 'Add', inputs: ['x', 'offset'], outputs: ['shifted'] },
        { op: 'Reshape', inputs: ['shifted', 'shape'], outputs: ['flat'] },
        { op: 'Softmax', inputs: ['flat'], outputs: ['soft'], attributes: { axis: { kind: 'int', value: -1 } } },
        { op: 'Transpose', inputs: ['x'], outputs: ['xt'], attributes: { perm: { kind: 'ints', value: [1, 0] } } },
        { op: 'LeakyRelu', inputs: ['xt'], outputs: ['leaky'], attributes: { alpha: { kind: 'float', value: 0.5 } } },
      ],
      initializers: [
        { name: 'offset', dims: [3], type: OnnxType.float, data: Float32Array.of(1, 2, 3) },
        { name: 'shape', dims: [2], type: OnnxType.int64, data: BigInt64Array.of(1n, -1n) },
      ],
      inputs: [{ name: 'x', type: OnnxType.float, dims: ['rows', 3] }],
      outputs: [
        { name: 'soft', type: OnnxType.float, dims: [1, 'all'] },
        { name: 'leaky', type: OnnxType.float, dims: [3, 'rows'] },
      ],
    });
    const session = await InferenceSession.create(bytes);
    try {
      const x = Float32Array.of(0, -2, 1, 4, 0, -6);
      const out = await session.run({ x: new Tensor('float32', x, [2, 3]) });
      const shifted = [1, 0, 4, 5, 2, -3];
      const denominator = shifted.reduce((sum, value) => sum + Math.exp(value), 0);
      expect(out['soft']?.dims).toEqual([1, 6]);
      Array.from(out['soft']?.data as Float32Array).forEach((value, index) => expect(value).toBeCloseTo(Math.exp(shifted[index] as number) / denominator, 6));
      expect(out['leaky']?.dims).toEqual([3, 2]);
      expect(Array.from(out['leaky']?.data as Float32Array)).toEqual([0, 4, -1, 0, 1, -3]);
    } finally {
      await session.release();
    }
  });
});
