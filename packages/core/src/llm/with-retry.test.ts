import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, ProviderCallError } from '../errors/factkit-error.js';
import type { Embedder, EmbedRequest } from '../embedder.js';
import { createMockEmbedder, createMockLanguageModel } from '../testing/index.js';
import { retryWithBackoff, withEmbeddingRetry, withRetry } from './with-retry.js';

const fast = { initialDelayMs: 1, maxDelayMs: 50, random: () => 1 };

describe('retryWithBackoff', () => {
  it('retries retryable errors and then succeeds', async () => {
    let attempts = 0;
    const delays: number[] = [];
    const value = await retryWithBackoff(
      async () => {
        attempts += 1;
        if (attempts < 3) throw new ProviderCallError({ provider: 'p', message: 'server error', statusCode: 503 });
        return 'ok';
      },
      { ...fast, maxRetries: 3, onRetry: ({ delayMs }) => delays.push(delayMs) },
    );
    expect(value).toBe('ok');
    expect(attempts).toBe(3);
    expect(delays).toEqual([1, 2]);
  });

  it('honours Retry-After up to maxDelayMs', async () => {
    const delays: number[] = [];
    let attempts = 0;
    await retryWithBackoff(
      async () => {
        attempts += 1;
        if (attempts === 1) throw new ProviderCallError({ provider: 'p', message: 'slow down', statusCode: 429, retryAfterSeconds: 0.03 });
        return 1;
      },
      { ...fast, onRetry: ({ delayMs }) => delays.push(delayMs) },
    );
    expect(delays).toEqual([30]);
  });

  it('does not retry a 400 and gives up after maxRetries', async () => {
    let attempts = 0;
    const badRequest = new ProviderCallError({ provider: 'p', message: 'bad', statusCode: 400 });
    await expect(
      retryWithBackoff(async () => {
        attempts += 1;
        throw badRequest;
      }, fast),
    ).rejects.toBe(badRequest);
    expect(attempts).toBe(1);
    attempts = 0;
    await expect(
      retryWithBackoff(
        async () => {
          attempts += 1;
          throw new ProviderCallError({ provider: 'p', message: 'x', statusCode: 500 });
        },
        { ...fast, maxRetries: 2 },
      ),
    ).rejects.toThrow(/x/);
    expect(attempts).toBe(3);
  });

  it('rethrows the abort reason unchanged, also while waiting', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    const promise = retryWithBackoff(
      async () => {
        throw new ProviderCallError({ provider: 'p', message: 'x', statusCode: 500 });
      },
      { initialDelayMs: 10_000, random: () => 1, abortSignal: controller.signal },
    );
    setTimeout(() => controller.abort(reason), 10);
    await expect(promise).rejects.toBe(reason);
  });

  it('validates maxRetries', async () => {
    await expect(retryWithBackoff(async () => 1, { maxRetries: -1 })).rejects.toSatisfy(InvalidArgumentError.isInstance);
  });
});

describe('withRetry', () => {
  it('wraps a model', async () => {
    let calls = 0;
    const model = createMockLanguageModel({
      responses: () => {
        calls += 1;
        if (calls === 1) throw new ProviderCallError({ provider: 'mock', message: 'busy', statusCode: 429 });
        return 'fine';
      },
    });
    const result = await withRetry(model, fast).generate({ prompt: 'x' });
    expect(result.texts).toEqual(['fine']);
  });
});

describe('withEmbeddingRetry', () => {
  /** An embedder that fails with the given errors first, then embeds with the mock embedder. */
  function flakyEmbedder(failures: unknown[]): Embedder & { attempts: EmbedRequest[] } {
    const inner = createMockEmbedder({ dimensions: 8 });
    const attempts: EmbedRequest[] = [];
    return {
      id: 'flaky',
      dimensions: 8,
      maxBatchSize: 16,
      normalized: true,
      attempts,
      async embed(request) {
        attempts.push(request);
        const failure = failures.shift();
        if (failure !== undefined) throw failure;
        return inner.embed(request);
      },
    };
  }

  it('retries retryable failures and returns the same vectors as an unfailing call', async () => {
    const embedder = flakyEmbedder([new ProviderCallError({ provider: 'p', message: 'busy', statusCode: 429 }), new ProviderCallError({ provider: 'p', message: 'down', statusCode: 503 })]);
    const retries: number[] = [];
    const wrapped = withEmbeddingRetry(embedder, { ...fast, maxRetries: 2, onRetry: ({ attempt }) => retries.push(attempt) });
    const result = await wrapped.embed({ texts: ['aspirin', 'fever'], kind: 'passage' });
    const expected = await createMockEmbedder({ dimensions: 8 }).embed({ texts: ['aspirin', 'fever'], kind: 'passage' });
    expect(result.embeddings.map((vector) => Array.from(vector))).toEqual(expected.embeddings.map((vector) => Array.from(vector)));
    expect(embedder.attempts).toHaveLength(3);
    expect(retries).toEqual([1, 2]);
  });

  it('keeps the embedder metadata, passes the request through unchanged and does not retry a 400', async () => {
    const badRequest = new ProviderCallError({ provider: 'p', message: 'bad input', statusCode: 400 });
    const embedder = flakyEmbedder([badRequest]);
    const wrapped = withEmbeddingRetry(embedder, { ...fast, maxRetries: 3 });
    expect([wrapped.id, wrapped.dimensions, wrapped.maxBatchSize, wrapped.normalized]).toEqual(['flaky', 8, 16, true]);
    await expect(wrapped.embed({ texts: ['x'], kind: 'query' })).rejects.toBe(badRequest);
    expect(embedder.attempts).toHaveLength(1);
    expect(embedder.attempts[0]).toMatchObject({ texts: ['x'], kind: 'query' });
  });

  it('gives up after maxRetries with the last error', async () => {
    const errors = [1, 2, 3].map((attempt) => new ProviderCallError({ provider: 'p', message: `down ${attempt}`, statusCode: 503 }));
    const embedder = flakyEmbedder([...errors]);
    await expect(withEmbeddingRetry(embedder, { ...fast, maxRetries: 2 }).embed({ texts: ['x'], kind: 'query' })).rejects.toBe(errors[2]);
    expect(embedder.attempts).toHaveLength(3);
  });

  it("rethrows the request's abort reason unchanged, also while waiting to retry", async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    const embedder = flakyEmbedder([new ProviderCallError({ provider: 'p', message: 'busy', statusCode: 503 })]);
    const wrapped = withEmbeddingRetry(embedder, { initialDelayMs: 10_000, maxDelayMs: 10_000, maxRetries: 2, onRetry: () => controller.abort(reason) });
    await expect(wrapped.embed({ texts: ['x'], kind: 'query', abortSignal: controller.signal })).rejects.toBe(reason);
    expect(embedder.attempts).toHaveLength(1);
  });
});
