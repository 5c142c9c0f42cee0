import { InvalidArgumentError, withEmbeddingRetry } from '@factkit/core';
import type { Embedder } from '@factkit/core';
import { createOpenAICompatible } from '@factkit/openai';
import { createUseLiteEmbedder } from '@factkit/use-lite';

export interface ChosenEmbedder {
  readonly embedder: Embedder;
  /** For the progress line, e.g. 'offline USE-lite encoder (512-d)'. */
  readonly description: string;
  /** Short name for the results line: 'USE-lite' or the embedder id. */
  readonly label: string;
}

/**
 * The quickstart's embedder: the offline USE-lite encoder by default; an OpenAI-compatible endpoint's embedding model
 * when `FACTKIT_EMBED_MODEL` is set (connection from `OPENAI_BASE_URL` / `OPENAI_API_KEY`, vector length from
 * `FACTKIT_EMBED_DIMENSIONS`, optional for OpenAI's own models), with core's retry wrapper around it.
 */
export function chooseEmbedder(env: Readonly<Record<string, string | undefined>> = process.env): ChosenEmbedder {
  const modelId = env['FACTKIT_EMBED_MODEL']?.trim();
  if (!modelId) return { embedder: createUseLiteEmbedder({ backend: 'auto' }), description: 'offline USE-lite encoder (512-d)', label: 'USE-lite' };
  const dimensionsText = env['FACTKIT_EMBED_DIMENSIONS']?.trim();
  const dimensions = dimensionsText ? Number(dimensionsText) : undefined;
  if (dimensions !== undefined && !(Number.isInteger(dimensions) && dimensions > 0)) {
    throw new InvalidArgumentError({ where: 'quickstart', argument: 'FACTKIT_EMBED_DIMENSIONS', message: `must be a positive integer (got ${dimensionsText})` });
  }
  const baseURL = env['OPENAI_BASE_URL']?.trim();
  const apiKey = env['OPENAI_API_KEY']?.trim();
  const provider = createOpenAICompatible({ ...(baseURL ? { baseURL } : {}), ...(apiKey ? { apiKey } : {}) });
  const embedder = withEmbeddingRetry(provider.embedder(modelId, dimensions === undefined ? {} : { dimensions }), { maxRetries: 2 });
  return { embedder, description: `${embedder.id} at ${provider.baseURL} (${embedder.dimensions}-d)`, label: embedder.id };
}
