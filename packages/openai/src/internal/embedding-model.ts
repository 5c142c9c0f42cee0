import { assertPositiveInteger, InvalidArgumentError } from '@factkit/core';
import type { Embedder, EmbedRequest, EmbedResult } from '@factkit/core';
import type { OpenAICompatibleEmbeddingOptions } from '../openai-compatible-settings.js';
import { callOnce } from './call-once.js';
import { PROVIDER } from './client-config.js';
import type { Connection } from './client-config.js';
import { parseEmbeddingsBody } from './parse-responses.js';

/** OpenAI's own embedding models: their vector length, and that they are L2-normalized. */
const KNOWN_MODELS: Readonly<Record<string, number>> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
};

/**
 * The `/embeddings` Embedder behind `provider.embedder()`: one HTTP call per `maxBatchSize` texts, never retried here.
 */
export function createEmbeddingModel(where: string, connection: Connection, model: string, options: OpenAICompatibleEmbeddingOptions = {}): Embedder {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidArgumentError({ where, argument: 'options', message: 'must be an object' });
  }
  const known = KNOWN_MODELS[model];
  const { dimensions = known, requestDimensions = false, maxBatchSize = 256, normalized = known !== undefined, queryPrefix = '', passagePrefix = '' } = options;
  if (dimensions === undefined) {
    throw new InvalidArgumentError({ where, argument: 'dimensions', message: `is missing: give the vector length of model "${model}"` });
  }
  assertPositiveInteger('dimensions', dimensions, where);
  assertPositiveInteger('maxBatchSize', maxBatchSize, where);
  const { timeoutMs } = connection;

  return {
    get id(): string {
      return options.id ?? `${PROVIDER}:${model}`;
    },
    dimensions,
    maxBatchSize,
    normalized,

    async embed(request: EmbedRequest): Promise<EmbedResult> {
      request?.abortSignal?.throwIfAborted();
      const embedWhere = `${where}.embed`;
      if (typeof request !== 'object' || request === null || !Array.isArray(request.texts)) {
        throw new InvalidArgumentError({ where: embedWhere, argument: 'texts', message: 'must be an array of strings' });
      }
      const { texts, kind, abortSignal } = request;
      if (kind !== 'query' && kind !== 'passage') {
        throw new InvalidArgumentError({ where: embedWhere, argument: 'kind', message: `must be 'query' or 'passage' (got ${String(kind)})` });
      }
      texts.forEach((text, index) => {
        if (typeof text !== 'string') throw new InvalidArgumentError({ where: embedWhere, argument: `texts[${index}]`, message: 'must be a string' });
      });
      if (texts.length === 0) return { embeddings: [] };
      const prefix = kind === 'query' ? queryPrefix : passagePrefix;
      const embeddings: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += maxBatchSize) {
        abortSignal?.throwIfAborted();
        const batch = texts.slice(start, start + maxBatchSize).map((text) => prefix + text);
        const { value } = await callOnce({ operation: 'embeddings', model, resolve: () => connection.resolve(), timeoutMs, abortSignal }, async ({ signal, connection: resolved }) => {
          const response = await resolved.client.embeddings.create({ model, input: batch, encoding_format: 'float', ...(requestDimensions ? { dimensions } : {}) }, { signal }).asResponse();
          const raw = await response.text();
          return parseEmbeddingsBody(raw, { count: batch.length, dimensions }).embeddings;
        });
        embeddings.push(...value);
      }
      return { embeddings };
    },
  };
}
