import OpenAI from 'openai';
import { FactkitError, ProviderCallError, ResponseParseError, linkAbort, redactSecrets } from '@factkit/core';
import { isNotJsonBody } from './parse-responses.js';
import { PROVIDER } from './client-config.js';
import type { ResolvedConnection } from './client-config.js';

export interface CallOptions {
  /** What is being done, for messages: 'chat completion', 'embeddings'. */
  readonly operation: string;
  /** The model name, for messages. */
  readonly model: string;
  readonly resolve: () => ResolvedConnection;
  readonly timeoutMs: number;
  readonly abortSignal: AbortSignal | undefined;
  /**
   * Keep the caller's abort linked after the call returns (a stream is read on afterwards); the caller must then
   * call the returned `unlink`. @default false
   */
  readonly keepAbortLink?: boolean;
}

export interface AttemptContext {
  /** Pass to the SDK: aborts on the caller's abort and on the attempt timeout. */
  readonly signal: AbortSignal;
  readonly connection: ResolvedConnection;
}

/**
 * Runs ONE provider call (no retries here: retrying is core `withRetry`'s job, the package's only retry layer) under a
 * per-call timeout and abort handling: an abort always rejects with `abortSignal.reason` unchanged, and every other
 * failure becomes a core error whose message, fields and cause chain carry no secret. A dropped connection, a timeout
 * and a 200 reply whose body is truncated or not JSON come out retryable, so `withRetry` retries them alike.
 */
export async function callOnce<T>(options: CallOptions, attempt: (context: AttemptContext) => Promise<T>): Promise<{ value: T; unlink: () => void }> {
  const { operation, model, resolve, timeoutMs, abortSignal, keepAbortLink = false } = options;
  abortSignal?.throwIfAborted();
  const connection = resolve();
  const controller = new AbortController();
  let timedOut = false;
  // One listener per caller signal however many calls share it (core linkAbort).
  const unlink = linkAbort(abortSignal, () => controller.abort(abortSignal?.reason));
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException('attempt timed out', 'TimeoutError'));
  }, timeoutMs);
  let keep = false;
  try {
    const value = await attempt({ signal: controller.signal, connection });
    keep = keepAbortLink;
    return { value, unlink };
  } catch (error) {
    if (abortSignal?.aborted) throw abortSignal.reason;
    if (timedOut || error instanceof OpenAI.APIConnectionTimeoutError) {
      throw new FactkitError('timeout', `${PROVIDER}: ${operation} with model "${model}" timed out after ${timeoutMs} ms`);
    }
    throw toFactkitError(error, { operation, connection, model });
  } finally {
    clearTimeout(timer);
    if (!keep) unlink();
  }
}

/** Maps anything the SDK (or fetch, or our parsers) throws to a core error without secrets. */
export function toFactkitError(error: unknown, context: { operation: string; connection: ResolvedConnection; model: string }): FactkitError {
  const { operation, connection, model } = context;
  const { secrets } = connection;
  const redact = (text: string): string => redactSecrets(text, secrets);
  if (ResponseParseError.isInstance(error) && isNotJsonBody(error)) {
    // A 200 whose body was cut short (or is not JSON at all: a proxy's HTML page) says nothing about the request:
    // it is a transport failure, retryable like a dropped connection, not a model answer that failed to parse.
    const raw = redact(error.raw);
    return new ProviderCallError({
      provider: PROVIDER,
      message: redact(`${operation} with model "${model}" failed: the HTTP 200 reply body is truncated or not JSON (${error.raw.length} characters received)`),
      statusCode: 200,
      isRetryable: true,
      responseBody: raw,
      cause: new ResponseParseError({ message: redact(error.message), raw }),
    });
  }
  if (ResponseParseError.isInstance(error)) {
    // The raw body (and a JSON SyntaxError's message, which quotes it) could echo a secret.
    return new ResponseParseError({
      message: redact(error.message),
      raw: redact(error.raw),
      ...(error.cause === undefined ? {} : { cause: sanitizeError(error.cause, secrets) }),
    });
  }
  if (FactkitError.isInstance(error)) return error;
  const cause = sanitizeError(error, secrets);
  const prefix = `${operation} with model "${model}" failed`;
  if (error instanceof OpenAI.APIConnectionError) {
    const detail = describeConnectionFailure(error);
    return new ProviderCallError({ provider: PROVIDER, message: redact(`${prefix}: ${detail}`), isRetryable: true, cause });
  }
  if (error instanceof OpenAI.APIError && typeof error.status === 'number') {
    const retryAfterSeconds = readRetryAfterSeconds(error.headers);
    const body = error.error === undefined ? undefined : redact(safeStringify(error.error));
    return new ProviderCallError({
      provider: PROVIDER,
      message: redact(`${prefix}: ${error.message}`),
      statusCode: error.status,
      ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
      ...(body === undefined ? {} : { responseBody: body }),
      cause,
    });
  }
  if (error instanceof SyntaxError) {
    // e.g. an SSE event whose data is not JSON
    return new ResponseParseError({ message: redact(`${PROVIDER}: ${prefix}: response is not valid JSON`), raw: '', cause });
  }
  if (error instanceof TypeError) {
    // fetch failures while reading a body (socket closed mid-response) surface as TypeError('terminated').
    return new ProviderCallError({ provider: PROVIDER, message: redact(`${prefix}: connection failed (${error.message})`), isRetryable: true, cause });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ProviderCallError({ provider: PROVIDER, message: redact(`${prefix}: ${message}`), isRetryable: false, cause });
}

function describeConnectionFailure(error: Error): string {
  const parts = [error.message];
  let inner: unknown = error.cause;
  for (let depth = 0; depth < 3 && inner instanceof Error; depth += 1) {
    parts.push(inner.message);
    inner = inner.cause;
  }
  return `connection failed (${parts.filter((part) => part.length > 0).join(': ')})`;
}

function safeStringify(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Seconds from `retry-after-ms`, or `retry-after` (seconds or an HTTP date). */
export function readRetryAfterSeconds(headers: Headers | undefined, now: number = Date.now()): number | undefined {
  if (headers === undefined) return undefined;
  const milliseconds = headers.get('retry-after-ms');
  if (milliseconds !== null) {
    const value = Number.parseFloat(milliseconds);
    if (Number.isFinite(value) && value >= 0) return value / 1000;
  }
  const retryAfter = headers.get('retry-after');
  if (retryAfter === null) return undefined;
  const trimmed = retryAfter.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number.parseFloat(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, (date - now) / 1000);
}

/**
 * A plain copy of an error chain (name, redacted message, up to 3 causes) so the SDK's objects, response headers
 * and anything else that might hold a secret never travel inside our errors.
 */
export function sanitizeError(error: unknown, secrets: readonly string[], depth = 0): Error {
  const source = error instanceof Error ? error : new Error(String(error));
  const inner = depth < 3 && source.cause !== undefined ? sanitizeError(source.cause, secrets, depth + 1) : undefined;
  const copy = new Error(redactSecrets(source.message, secrets), inner === undefined ? undefined : { cause: inner });
  copy.name = source.name;
  copy.stack = redactSecrets(source.stack ?? '', secrets);
  if (error instanceof OpenAI.APIError && typeof error.status === 'number') {
    Object.defineProperty(copy, 'status', { value: error.status, enumerable: true });
  }
  return copy;
}
