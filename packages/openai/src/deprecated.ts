// The factories of 0.1, kept for one minor as thin aliases of the provider's models (STYLE §13).
import { InvalidArgumentError, retryWithBackoff } from '@factkit/core';
import type { Embedder, LanguageModel, RetryOptions } from '@factkit/core';
import { createChatModel } from './internal/chat-model.js';
import { createConnection, DEFAULT_BASE_URL, DEFAULT_TIMEOUT_MS, isHttpUrl, readEnv, validateTimeout } from './internal/client-config.js';
import { createEmbeddingModel } from './internal/embedding-model.js';
import type { OpenAICompatibleEmbeddingOptions, OpenAICompatibleGenerateDefaults, OpenAICompatibleLanguageModelOptions } from './openai-compatible-settings.js';

/**
 * Options shared by the deprecated model and embedder factories.
 * @deprecated Use `createOpenAICompatible(settings)` (connection) and pass the model id to `.languageModel(id)` / `.embedder(id)`.
 */
export interface OpenAICompatibleConnectionOptions {
  /** Model name. Falls back to `FACTKIT_MODEL`, read at call time. */
  readonly model?: string;
  /** Base URL including `/v1`. Falls back to `OPENAI_BASE_URL`, read at call time. @default 'https://api.openai.com/v1' */
  readonly baseUrl?: string;
  /** API key. Falls back to `OPENAI_API_KEY`, read at call time. */
  readonly apiKey?: string;
  readonly organization?: string;
  readonly project?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Time limit of one attempt, in ms. @default 120000 */
  readonly timeoutMs?: number;
  /** Retries after the first attempt (through core `retryWithBackoff`, the only retry layer). @default 2 */
  readonly maxRetries?: number;
  /** Backoff tuning of core `retryWithBackoff`. */
  readonly retry?: Omit<RetryOptions, 'maxRetries'>;
  readonly fetch?: typeof globalThis.fetch;
}

/** @deprecated Use `createOpenAICompatible(settings).languageModel(modelId, options)` and core `withRetry`. */
export interface OpenAICompatibleModelOptions extends OpenAICompatibleConnectionOptions, OpenAICompatibleLanguageModelOptions {}

/** @deprecated Use `createOpenAICompatible(settings).embedder(modelId, options)` and core `withEmbeddingRetry`. */
export interface OpenAICompatibleEmbedderOptions extends OpenAICompatibleConnectionOptions, Omit<OpenAICompatibleEmbeddingOptions, 'dimensions'> {
  readonly dimensions: number;
}

export type { OpenAICompatibleGenerateDefaults };

function connectionFor(where: string, options: OpenAICompatibleConnectionOptions) {
  const { timeoutMs, maxRetries, baseUrl, model } = options;
  validateTimeout(where, 'timeoutMs', timeoutMs);
  if (maxRetries !== undefined && (!Number.isInteger(maxRetries) || maxRetries < 0)) {
    throw new InvalidArgumentError({ where, argument: 'maxRetries', message: `must be an integer >= 0 (got ${String(maxRetries)})` });
  }
  if (baseUrl !== undefined && !isHttpUrl(baseUrl)) {
    throw new InvalidArgumentError({ where, argument: 'baseUrl', message: 'must be an http(s) URL' });
  }
  if (model !== undefined && (typeof model !== 'string' || model.trim() === '')) {
    throw new InvalidArgumentError({ where, argument: 'model', message: 'must be a non-empty string' });
  }
  const connection = createConnection(where, {
    baseUrl: () => options.baseUrl ?? readEnv('OPENAI_BASE_URL') ?? DEFAULT_BASE_URL,
    apiKey: options.apiKey,
    organization: options.organization,
    project: options.project,
    headers: options.headers,
    fetch: options.fetch,
    timeoutMs: timeoutMs ?? DEFAULT_TIMEOUT_MS,
  });
  const modelName = { current: () => options.model ?? readEnv('FACTKIT_MODEL'), missing: 'is missing: pass the "model" option or set FACTKIT_MODEL' };
  const retry = (abortSignal: AbortSignal | undefined) => ({ ...options.retry, maxRetries: maxRetries ?? 2, ...(abortSignal ? { abortSignal } : {}) });
  return { connection, modelName, retry };
}

/**
 * A copy of `target` whose `method` runs under core `retryWithBackoff`; every other member is copied with its property
 * descriptor, so getters stay getters (ids keep following FACTKIT_MODEL). Core `withRetry` would snapshot them.
 */
function retrying<T extends object>(target: T, method: keyof T & string, options: (request: unknown) => Parameters<typeof retryWithBackoff>[1]): T {
  const call = target[method] as unknown as (request: unknown) => Promise<unknown>;
  const copy = Object.defineProperties({}, Object.getOwnPropertyDescriptors(target)) as T;
  Object.defineProperty(copy, method, {
    value: (request: unknown) => retryWithBackoff(() => call.call(target, request), options(request)),
    enumerable: true,
  });
  return copy;
}

/**
 * Creates a core LanguageModel for an OpenAI-compatible endpoint, retried per `maxRetries` through core `retryWithBackoff`.
 * @deprecated Since 0.2: use `withRetry(createOpenAICompatible({ baseURL, apiKey }).languageModel(model, options), { maxRetries })`.
 * Removed in the next minor. (`stream` is not retried.)
 * @throws InvalidArgumentError for out-of-range options.
 */
export function createOpenAICompatibleModel(options: OpenAICompatibleModelOptions = {}): LanguageModel {
  const where = 'createOpenAICompatibleModel';
  const { connection, modelName, retry } = connectionFor(where, options);
  const { defaults, maxTokensField, emulateN, streamUsage, id } = options;
  const model = createChatModel(where, connection, modelName, {
    ...(defaults === undefined ? {} : { defaults }),
    ...(maxTokensField === undefined ? {} : { maxTokensField }),
    ...(emulateN === undefined ? {} : { emulateN }),
    ...(streamUsage === undefined ? {} : { streamUsage }),
    ...(id === undefined ? {} : { id }),
  });
  return retrying(model, 'generate', (request) => retry((request as { abortSignal?: AbortSignal } | undefined)?.abortSignal));
}

/**
 * Creates a core Embedder for an OpenAI-compatible `/embeddings` endpoint, retried per `maxRetries` through core `retryWithBackoff`.
 * @deprecated Since 0.2: use `withEmbeddingRetry(createOpenAICompatible({ baseURL, apiKey }).embedder(model, { dimensions }), { maxRetries })`.
 * Removed in the next minor.
 * @throws InvalidArgumentError for a missing or out-of-range option.
 */
export function createOpenAICompatibleEmbedder(options: OpenAICompatibleEmbedderOptions): Embedder {
  const where = 'createOpenAICompatibleEmbedder';
  if (typeof options !== 'object' || options === null) {
    throw new InvalidArgumentError({ where, argument: 'options', message: 'must be an object with at least "dimensions"' });
  }
  const { connection, modelName, retry } = connectionFor(where, options);
  if (options.dimensions === undefined) {
    throw new InvalidArgumentError({ where, argument: 'dimensions', message: `must be an integer >= 1 (got undefined)` });
  }
  const { dimensions, requestDimensions, maxBatchSize, normalized = false, queryPrefix, passagePrefix, id } = options;
  const embedder = createEmbeddingModel(where, connection, modelName, {
    dimensions,
    normalized,
    ...(requestDimensions === undefined ? {} : { requestDimensions }),
    ...(maxBatchSize === undefined ? {} : { maxBatchSize }),
    ...(queryPrefix === undefined ? {} : { queryPrefix }),
    ...(passagePrefix === undefined ? {} : { passagePrefix }),
    ...(id === undefined ? {} : { id }),
  });
  return retrying(embedder, 'embed', (request) => retry((request as { abortSignal?: AbortSignal } | undefined)?.abortSignal));
}
