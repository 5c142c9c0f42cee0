import { basename } from 'node:path';
import { assertPositiveInteger, checkEmbedTexts, InvalidArgumentError, ProviderCallError, throwIfAborted } from '@factkit/core';
import type { Embedder, EmbedRequest, EmbedResult, ItemProblem } from '@factkit/core';
import { inspectModelDirectory, lazyLocalPipeline } from './internal/local-model.js';
import type { LocalModelOptions, TransformersProblemCode } from './local-model-options.js';

export type TransformersPooling = 'mean' | 'cls' | 'last_token';

export interface TransformersEmbedderOptions extends LocalModelOptions {
  /** How token vectors become one vector (transformers.js feature-extraction pooling). @default 'mean' */
  readonly pooling?: TransformersPooling;
  /** L2-normalize outputs (sets `normalized`). @default true */
  readonly normalize?: boolean;
  /** Prepended to texts of kind 'query' (E5: 'query: '). @default '' */
  readonly queryPrefix?: string;
  /** Prepended to texts of kind 'passage' (E5: 'passage: '). @default '' */
  readonly passagePrefix?: string;
  /** Texts per forward pass. @default 32 */
  readonly maxBatchSize?: number;
  /** Output size. @default config.json hidden_size (or d_model / dim) */
  readonly dimensions?: number;
  /** @default `transformers:<directory name>` */
  readonly id?: string;
}

/** Embed result with one problem per text that produced no tokens (zero vector returned). */
export interface TransformersEmbedResult extends EmbedResult {
  readonly problems: ItemProblem<TransformersProblemCode>[];
}

export interface TransformersEmbedder extends Embedder {
  readonly maxBatchSize: number;
  readonly normalized: boolean;
  embed(request: EmbedRequest): Promise<TransformersEmbedResult>;
}

interface FeatureExtractor {
  (texts: string[], options: { pooling: TransformersPooling; normalize: boolean }): Promise<{ dims: number[]; data: ArrayLike<number> }>;
  dispose?(): Promise<void>;
}

const WHERE = 'createTransformersEmbedder';

function readDimensions(config: Readonly<Record<string, unknown>>): number | undefined {
  for (const key of ['hidden_size', 'd_model', 'dim', 'word_embed_proj_dim']) {
    const value = config[key];
    if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
  }
  return undefined;
}

/**
 * Creates an Embedder over a local transformers.js feature-extraction model (a directory on disk; never the Hub).
 * The directory is checked now; the ONNX session loads on the first `embed` call.
 * @throws InvalidArgumentError when `modelPath` is not a model directory or an option is out of range.
 * @example
 * const embedder = createTransformersEmbedder({ modelPath: './models/e5-small-v2', queryPrefix: 'query: ', passagePrefix: 'passage: ' });
 */
export function createTransformersEmbedder(options: TransformersEmbedderOptions): TransformersEmbedder {
  const { pooling = 'mean', normalize = true, queryPrefix = '', passagePrefix = '', maxBatchSize = 32 } = options;
  const directory = inspectModelDirectory(WHERE, options, ['model']);
  if (!['mean', 'cls', 'last_token'].includes(pooling)) {
    throw new InvalidArgumentError({ where: WHERE, argument: 'pooling', message: `must be 'mean', 'cls' or 'last_token' (got ${String(pooling)})` });
  }
  assertPositiveInteger('maxBatchSize', maxBatchSize, WHERE);
  const dimensions = options.dimensions ?? readDimensions(directory.config);
  if (dimensions === undefined || !Number.isInteger(dimensions) || dimensions < 1) {
    throw new InvalidArgumentError({ where: WHERE, argument: 'dimensions', message: 'must be given: config.json has no hidden_size/d_model/dim' });
  }
  const id = options.id ?? `transformers:${basename(directory.path)}`;
  const getExtractor = lazyLocalPipeline(WHERE, directory, 'feature-extraction', (pipeline) => pipeline as FeatureExtractor);

  return {
    id,
    dimensions,
    normalized: normalize,
    maxBatchSize,
    async embed(request: EmbedRequest): Promise<TransformersEmbedResult> {
      const { texts, kind, abortSignal } = request;
      checkEmbedTexts(texts, 'transformers embed');
      throwIfAborted(abortSignal);
      const problems: ItemProblem<TransformersProblemCode>[] = [];
      if (texts.length === 0) return { embeddings: [], problems };
      const extractor = await getExtractor();
      const prefix = kind === 'query' ? queryPrefix : passagePrefix;
      const embeddings: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += maxBatchSize) {
        throwIfAborted(abortSignal);
        const batch = texts.slice(start, start + maxBatchSize).map((text) => prefix + text);
        const output = await extractor(batch, { pooling, normalize });
        const [rows, width] = output.dims;
        if (rows !== batch.length || width !== dimensions) {
          throw new ProviderCallError({
            provider: id,
            message: `model returned a [${output.dims.join(', ')}] tensor for ${batch.length} texts of ${dimensions} dimensions (check "pooling" and "dimensions")`,
            isRetryable: false,
          });
        }
        for (let row = 0; row < batch.length; row += 1) {
          const vector = Float32Array.from({ length: dimensions }, (_, column) => output.data[row * dimensions + column] as number);
          // A text with no token at all (possible without [CLS]/[SEP]) mean-pools 0/0 = NaN: return zeros and say so.
          if (vector.some((value) => !Number.isFinite(value))) {
            vector.fill(0);
            problems.push({ index: start + row, code: 'no-tokens', message: 'the tokenizer produced no tokens; returned a zero vector' });
          }
          embeddings.push(vector);
        }
      }
      throwIfAborted(abortSignal);
      return { embeddings, problems };
    },
  };
}
