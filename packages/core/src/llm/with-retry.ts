import type { LanguageModel } from '../language-model.js';
import type { Embedder } from '../embedder.js';
import { FactkitError, ProviderCallError } from '../errors/factkit-error.js';
import { abortableDelay } from './abortable-delay.js';
import { assertNonNegativeInteger } from '../errors/guards.js';

export interface RetryOptions {
  /** Retries after the first attempt. @default 2 */
  readonly maxRetries?: number;
  /** Delay before the first retry, in ms. @default 500 */
  readonly initialDelayMs?: number;
  /** Upper bound of one delay, in ms (Retry-After is honoured up to this). @default 30000 */
  readonly maxDelayMs?: number;
  /** Growth of the delay per retry. @default 2 */
  readonly backoffFactor?: number;
  /** Random source for full jitter, for reproducible tests. @default Math.random */
  readonly random?: () => number;
  /** Called before each retry (for progress/logging by the caller). */
  readonly onRetry?: (event: { attempt: number; delayMs: number; error: unknown }) => void;
}

/** True for errors worth retrying: retryable provider errors (408/409/429/5xx, network), timeouts, fetch network failures. */
export function isRetryableError(error: unknown): boolean {
  if (ProviderCallError.isInstance(error)) return error.isRetryable;
  if (FactkitError.isInstance(error)) return error.code === 'timeout';
  if (error instanceof TypeError && /fetch failed|network|socket|ECONNRESET|ECONNREFUSED/i.test(String(error.message))) return true;
  return false;
}

/**
 * Runs `operation` and retries it on retryable errors with exponential backoff and full jitter, honouring a
 * server's Retry-After. An abort is rethrown unchanged and never retried.
 */
export async function retryWithBackoff<T>(operation: (attempt: number) => Promise<T>, options: RetryOptions & { abortSignal?: AbortSignal } = {}): Promise<T> {
  const { maxRetries = 2, initialDelayMs = 500, maxDelayMs = 30_000, backoffFactor = 2, random = Math.random, onRetry, abortSignal } = options;
  assertNonNegativeInteger('maxRetries', maxRetries, 'retryWithBackoff');
  for (let attempt = 0; ; attempt += 1) {
    abortSignal?.throwIfAborted();
    try {
      return await operation(attempt);
    } catch (error) {
      if (abortSignal?.aborted) throw abortSignal.reason;
      if (attempt >= maxRetries || !isRetryableError(error)) throw error;
      const exponential = Math.min(maxDelayMs, initialDelayMs * backoffFactor ** attempt);
      let delayMs = Math.round(exponential * random());
      if (ProviderCallError.isInstance(error) && error.retryAfterSeconds !== undefined) {
        delayMs = Math.min(maxDelayMs, Math.max(delayMs, error.retryAfterSeconds * 1000));
      }
      onRetry?.({ attempt: attempt + 1, delayMs, error });
      await abortableDelay(delayMs, abortSignal);
    }
  }
}

/** Wraps a LanguageModel so its calls are retried; see {@link retryWithBackoff}. */
export function withRetry(model: LanguageModel, options: RetryOptions = {}): LanguageModel {
  return {
    ...model,
    generate: (request) => retryWithBackoff(() => model.generate(request), { ...options, ...(request.abortSignal ? { abortSignal: request.abortSignal } : {}) }),
  };
}

/** Wraps an Embedder so its calls are retried; see {@link retryWithBackoff}. */
export function withEmbeddingRetry(embedder: Embedder, options: RetryOptions = {}): Embedder {
  return {
    ...embedder,
    embed: (request) => retryWithBackoff(() => embedder.embed(request), { ...options, ...(request.abortSignal ? { abortSignal: request.abortSignal } : {}) }),
  };
}
