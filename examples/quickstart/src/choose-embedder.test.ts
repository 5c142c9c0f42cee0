import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedOpenAIServer } from '@factkit/test-utils';
import type { ScriptedOpenAIServer } from '@factkit/test-utils';
import { chooseEmbedder } from './choose-embedder.js';
import { loadWordNetDocuments } from '@factkit/retrieval/node';
import { QUICKSTART_QUESTIONS } from './questions.js';
import { buildRetrievers } from './search.js';

// A real local OpenAI-compatible server (127.0.0.1): its first /embeddings reply is a 200 with a cut-off body, which
// the quickstart's retry wrapper must absorb; after that, deterministic unit vectors.
let server: ScriptedOpenAIServer;
beforeAll(async () => {
  server = await startScriptedOpenAIServer({ script: (request) => (request.callIndex === 0 ? { malformed: true } : { delayMs: 0 }), defaultDimensions: 16 });
});
afterAll(async () => {
  await server.close();
});

describe('quickstart provider wiring', () => {
  it('uses the offline USE-lite encoder when no embedding model is configured', () => {
    const chosen = chooseEmbedder({});
    expect(chosen.label).toBe('USE-lite');
    expect(chosen.embedder.dimensions).toBe(512);
  });

  it('uses createOpenAICompatible().embedder(FACTKIT_EMBED_MODEL) with OPENAI_BASE_URL / OPENAI_API_KEY, under core retries', async () => {
    const apiKey = 'quickstart-test-key-7731';
    const chosen = chooseEmbedder({ FACTKIT_EMBED_MODEL: 'scripted-embed', FACTKIT_EMBED_DIMENSIONS: '16', OPENAI_BASE_URL: server.url, OPENAI_API_KEY: apiKey });
    expect(chosen.embedder.id).toBe('openai-compatible:scripted-embed');
    expect(chosen.description).toBe(`openai-compatible:scripted-embed at ${server.url} (16-d)`);
    expect(chosen.description).not.toContain(apiKey);
    const documents = (await loadWordNetDocuments({ instancesOnly: true })).slice(0, 20);
    const retrievers = await buildRetrievers(chosen.embedder, documents);
    const { evidence } = await retrievers.dense.retrieve({ query: { text: QUICKSTART_QUESTIONS[0]!.text }, topK: 3 });
    expect(evidence).toHaveLength(3);
    const embedCalls = server.requests.filter((request) => request.path === '/v1/embeddings');
    expect(embedCalls.length).toBeGreaterThanOrEqual(3); // the truncated reply, its retry, the query
    expect(embedCalls.every((request) => (request.body as { model: string }).model === 'scripted-embed')).toBe(true);
    expect(embedCalls.every((request) => request.headers.authorization === `Bearer ${apiKey}`)).toBe(true);
  });

  it('rejects a FACTKIT_EMBED_DIMENSIONS that is not a positive integer, and an unknown model without dimensions', () => {
    expect(() => chooseEmbedder({ FACTKIT_EMBED_MODEL: 'x', FACTKIT_EMBED_DIMENSIONS: 'many' })).toThrow(/FACTKIT_EMBED_DIMENSIONS/);
    expect(() => chooseEmbedder({ FACTKIT_EMBED_MODEL: 'my-local-embedder', OPENAI_BASE_URL: server.url })).toThrow(/dimensions/);
  });
});
