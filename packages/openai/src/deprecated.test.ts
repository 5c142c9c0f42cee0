import { afterEach, describe, expect, it, vi } from 'vitest';
import { InvalidArgumentError, ProviderCallError } from '@factkit/core';
import { rejection, useScriptedServers } from '../test/scripted-server.js';
import { createOpenAICompatibleEmbedder, createOpenAICompatibleModel } from './deprecated.js';

afterEach(() => {
  vi.unstubAllEnvs();
});
const serve = useScriptedServers();
const fast = { initialDelayMs: 1, maxDelayMs: 20, random: () => 0 };

describe('deprecated createOpenAICompatibleModel / createOpenAICompatibleEmbedder (kept for one minor)', () => {
  it('still read OPENAI_BASE_URL, OPENAI_API_KEY and FACTKIT_MODEL on every call, and the id follows FACTKIT_MODEL', async () => {
    const server = await serve([{ content: 'one' }, { content: 'two' }]);
    const model = createOpenAICompatibleModel({ retry: fast }); // created before the environment is set
    vi.stubEnv('OPENAI_BASE_URL', server.url);
    vi.stubEnv('OPENAI_API_KEY', 'env-key-1');
    vi.stubEnv('FACTKIT_MODEL', 'env-model-a');
    expect(model.id).toBe('openai-compatible:env-model-a');
    expect(model.provider).toBe(`openai-compatible(${server.url})`);
    await model.generate({ prompt: 'x' });
    vi.stubEnv('OPENAI_API_KEY', 'env-key-2');
    vi.stubEnv('FACTKIT_MODEL', 'env-model-b');
    expect(model.id).toBe('openai-compatible:env-model-b');
    await model.generate({ prompt: 'x' });
    expect(server.requests.map((request) => request.headers.authorization)).toEqual(['Bearer env-key-1', 'Bearer env-key-2']);
    expect(server.requests.map((request) => (request.body as { model: string }).model)).toEqual(['env-model-a', 'env-model-b']);
  });

  it('retry maxRetries times through core retryWithBackoff (one layer: the model itself makes one call per attempt)', async () => {
    const server = await serve([{ status: 500 }, { malformed: true }, { content: 'third try' }, { status: 503 }, { status: 503 }]);
    const retries: number[] = [];
    const model = createOpenAICompatibleModel({ model: 'm', baseUrl: server.url, apiKey: 'k', retry: { ...fast, onRetry: ({ attempt }) => retries.push(attempt) } });
    expect((await model.generate({ prompt: 'x' })).texts).toEqual(['third try']);
    expect(retries).toEqual([1, 2]);
    const once = createOpenAICompatibleModel({ model: 'm', baseUrl: server.url, apiKey: 'k', maxRetries: 0 });
    expect(await rejection(once.generate({ prompt: 'x' }))).toMatchObject({ statusCode: 503, isRetryable: true });
    expect(server.requests).toHaveLength(4);

    const embedServer = await serve([{ drop: true }, { embeddings: [[1, 0]] }]);
    const embedder = createOpenAICompatibleEmbedder({ model: 'e', baseUrl: embedServer.url, apiKey: 'k', dimensions: 2, retry: fast });
    expect((await embedder.embed({ texts: ['a'], kind: 'query' })).embeddings.map((vector) => Array.from(vector))).toEqual([[1, 0]]);
    expect(embedder).toMatchObject({ id: 'openai-compatible:e', dimensions: 2, normalized: false, maxBatchSize: 256 });
    expect(ProviderCallError.isInstance(await rejection(createOpenAICompatibleModel({ model: 'm', baseUrl: embedServer.url, maxRetries: 0 }).generate({ prompt: 'x' })))).toBe(true);
  });

  it('validate their options as before', () => {
    expect(() => createOpenAICompatibleModel({ timeoutMs: 0 })).toThrow(/timeoutMs/);
    expect(() => createOpenAICompatibleModel({ maxRetries: -1 })).toThrow(/maxRetries/);
    expect(() => createOpenAICompatibleModel({ baseUrl: 'ftp://x' })).toThrow(/baseUrl/);
    expect(() => createOpenAICompatibleEmbedder({ dimensions: 0 })).toThrow(InvalidArgumentError);
    expect(() => createOpenAICompatibleEmbedder(undefined as never)).toThrow(/dimensions/);
  });
});
