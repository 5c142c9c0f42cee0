import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, ProviderCallError, ResponseParseError, withEmbeddingRetry } from '@factkit/core';
import type { ScriptedOpenAIServer } from '@factkit/test-utils';
import { rejection, useScriptedServers } from '../test/scripted-server.js';
import { createOpenAICompatible } from './openai-compatible-provider.js';
import type { OpenAICompatibleEmbeddingOptions } from './openai-compatible-settings.js';

const serve = useScriptedServers();

function embedderFor(server: ScriptedOpenAIServer, options: OpenAICompatibleEmbeddingOptions = {}) {
  return createOpenAICompatible({ baseURL: server.url, apiKey: 'test-key', timeout: 2_000 }).embedder('embed-model', { dimensions: 2, ...options });
}

/** The embedder under core withEmbeddingRetry, the one retry layer (no jitter, tiny delays). */
function retriedEmbedderFor(server: ScriptedOpenAIServer, maxRetries = 2) {
  return withEmbeddingRetry(embedderFor(server), { maxRetries, initialDelayMs: 1, maxDelayMs: 20, random: () => 0 });
}

const asArrays = (vectors: Float32Array[]) => vectors.map((vector) => Array.from(vector));

describe('createOpenAICompatible().embedder', () => {
  it('returns Float32Arrays in input order even when the server sends items out of order', async () => {
    const server = await serve([
      {
        embeddings: [
          [1, 0],
          [0, 1],
          [0.5, 0.5],
        ],
        reverseOrder: true,
      },
    ]);
    const { embeddings } = await embedderFor(server).embed({ texts: ['a', 'b', 'c'], kind: 'passage' });
    expect(embeddings.every((vector) => vector instanceof Float32Array)).toBe(true);
    expect(asArrays(embeddings)).toEqual([
      [1, 0],
      [0, 1],
      [0.5, 0.5],
    ]);
    expect(server.requests[0]?.path).toBe('/v1/embeddings');
    expect(server.requests[0]?.body).toEqual({ model: 'embed-model', input: ['a', 'b', 'c'], encoding_format: 'float' });
  });

  it('splits a batch by maxBatchSize and keeps the overall order', async () => {
    // each vector encodes its text, so order can be checked end to end
    const server = await serve((request) => ({
      embeddings: (request.body as { input: string[] }).input.map((text) => [Number(text), -Number(text)]),
    }));
    const texts = ['1', '2', '3', '4', '5'];
    const { embeddings } = await embedderFor(server, { maxBatchSize: 2 }).embed({ texts, kind: 'query' });
    expect(asArrays(embeddings)).toEqual(texts.map((text) => [Number(text), -Number(text)]));
    expect(server.requests.map((request) => (request.body as { input: string[] }).input)).toEqual([['1', '2'], ['3', '4'], ['5']]);
  });

  it('rejects vectors whose length differs from `dimensions`, and a wrong vector count', async () => {
    const server = await serve([{ embeddings: [[1, 2, 3]] }, { embeddings: [[1, 2]] }]);
    const wrongLength = await rejection(embedderFor(server).embed({ texts: ['a'], kind: 'query' }));
    expect(ResponseParseError.isInstance(wrongLength)).toBe(true);
    expect((wrongLength as Error).message).toMatch(/3 dimensions, expected 2/);
    const wrongCount = await rejection(embedderFor(server).embed({ texts: ['a', 'b'], kind: 'query' }));
    expect(ResponseParseError.isInstance(wrongCount)).toBe(true);
    expect((wrongCount as Error).message).toMatch(/1 vectors for 2 inputs/);
  });

  it('applies query/passage prefixes and sends `dimensions` only when asked', async () => {
    const server = await serve();
    const embedder = embedderFor(server, { dimensions: 4, requestDimensions: true, queryPrefix: 'query: ', passagePrefix: 'passage: ' });
    const query = await embedder.embed({ texts: ['cats'], kind: 'query' });
    await embedder.embed({ texts: ['cats'], kind: 'passage' });
    expect(server.requests.map((request) => request.body)).toEqual([
      { model: 'embed-model', input: ['query: cats'], encoding_format: 'float', dimensions: 4 },
      { model: 'embed-model', input: ['passage: cats'], encoding_format: 'float', dimensions: 4 },
    ]);
    expect(query.embeddings[0]).toHaveLength(4);
  });

  it('decodes base64 little-endian float32 embeddings', async () => {
    const values = new Float32Array([0.25, -1.5]);
    const base64 = Buffer.from(values.buffer).toString('base64');
    const server = await serve([{ status: 200, body: { object: 'list', data: [{ object: 'embedding', index: 0, embedding: base64 }], usage: { prompt_tokens: 1 } } }]);
    const { embeddings } = await embedderFor(server).embed({ texts: ['a'], kind: 'query' });
    expect(asArrays(embeddings)).toEqual([[0.25, -1.5]]);
  });

  it('makes no request for no texts, and validates its input and options', async () => {
    const server = await serve();
    const embedder = embedderFor(server);
    expect(await embedder.embed({ texts: [], kind: 'query' })).toEqual({ embeddings: [] });
    expect(server.requests).toHaveLength(0);
    expect(await rejection(embedder.embed({ texts: ['a', 3 as never], kind: 'query' }))).toMatchObject({ argument: 'texts[1]' });
    expect(await rejection(embedder.embed({ texts: ['a'], kind: 'other' as never }))).toMatchObject({ argument: 'kind' });
    const openai = createOpenAICompatible({ baseURL: server.url });
    expect(() => openai.embedder('m', { dimensions: 0 })).toThrow(InvalidArgumentError);
    expect(() => openai.embedder('m', { dimensions: 3, maxBatchSize: 0 })).toThrow(/maxBatchSize/);
    expect(() => openai.embedder('my-local-embedder')).toThrow(/dimensions.*is missing/);
    expect(() => openai.embedder('')).toThrow(/modelId/);
    const declared = openai.embedder('m', { dimensions: 3, maxBatchSize: 7, normalized: true });
    expect(declared).toMatchObject({ id: 'openai-compatible:m', dimensions: 3, maxBatchSize: 7, normalized: true });
    // OpenAI's own models need no dimensions
    expect(openai.embedder('text-embedding-3-small')).toMatchObject({ dimensions: 1536, normalized: true });
    expect(openai.embedder('text-embedding-3-large', { dimensions: 256, requestDimensions: true })).toMatchObject({ dimensions: 256, normalized: true });
  });

  it('under withEmbeddingRetry: retries a 503 and a truncated 200 body, and maps a 401 to a non-retryable ProviderCallError', async () => {
    const server = await serve([{ status: 503 }, { embeddings: [[1, 1]] }, { malformed: true }, { embeddings: [[2, 2]] }, { status: 401, body: { error: { message: 'bad key' } } }]);
    expect(asArrays((await retriedEmbedderFor(server).embed({ texts: ['a'], kind: 'query' })).embeddings)).toEqual([[1, 1]]);
    expect(asArrays((await retriedEmbedderFor(server).embed({ texts: ['a'], kind: 'query' })).embeddings)).toEqual([[2, 2]]);
    const error = await rejection(retriedEmbedderFor(server).embed({ texts: ['a'], kind: 'query' }));
    expect(ProviderCallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ statusCode: 401, isRetryable: false });
    expect(server.requests).toHaveLength(5);
  });

  it('rejects with the exact abort reason mid-call', async () => {
    const server = await serve([{ delayMs: 10_000, embeddings: [[1, 1]] }]);
    const controller = new AbortController();
    const reason = new Error('stop embedding');
    const pending = embedderFor(server).embed({ texts: ['a'], kind: 'query', abortSignal: controller.signal });
    while (server.requests.length < 1) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });
});
