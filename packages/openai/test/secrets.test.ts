import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FactkitError, withEmbeddingRetry, withRetry } from '@factkit/core';
import type { GenerateStreamPart } from '@factkit/core';
import { startScriptedOpenAIServer } from '@factkit/test-utils';
import type { ScriptedOpenAIServer, ScriptedReply } from '@factkit/test-utils';
import { createOpenAICompatible } from '../src/index.js';

// Neither secret matches core's generic key patterns (sk-…, bearer …), so only our explicit redaction can hide them.
const API_KEY = 'zq7PLAINsecretKEY4242';
const HEADER_SECRET = 'azHeaderSecret9911';

/** Each scenario makes the server answer in a way that fails, echoing the credentials it received wherever it can. */
const scenarios: Record<string, (authorization: string, apiKeyHeader: string) => ScriptedReply> = {
  '401 echoing the key': (authorization, apiKeyHeader) => ({
    status: 401,
    body: { error: { message: `Incorrect API key provided: ${authorization} / ${apiKeyHeader}`, type: 'invalid_request_error', code: 'invalid_api_key' } },
  }),
  '429 with retry-after': (authorization) => ({ status: 429, headers: { 'retry-after': '1', 'x-echo': authorization }, body: { error: { message: `slow down ${authorization}` } } }),
  '500 plain text': (authorization) => ({ status: 500, body: `internal error for ${authorization}` }),
  '400 bad request': (_authorization, apiKeyHeader) => ({ status: 400, body: { error: { message: `bad request, api-key=${apiKeyHeader}` } } }),
  'malformed JSON body': () => ({ malformed: true }),
  timeout: () => ({ delayMs: 5_000, content: 'late' }),
  'dropped connection': () => ({ drop: true }),
  'unparseable JSON quoting the key': (authorization) => ({ status: 200, body: `{"id": "${authorization}", broken` }),
  'wrong shape quoting the key': (authorization) => ({ status: 200, body: { choices: [], note: authorization, data: [{ index: 0, embedding: [1, 2, 3], note: authorization }] } }),
};

let server: ScriptedOpenAIServer;
let scenario = '';
beforeAll(async () => {
  server = await startScriptedOpenAIServer({
    script: (request) => {
      const authorization = String(request.headers.authorization ?? '');
      const apiKeyHeader = String(request.headers['api-key'] ?? '');
      const make = scenarios[scenario];
      if (!make) throw new Error(`unknown scenario ${scenario}`);
      return make(authorization, apiKeyHeader);
    },
  });
});
afterAll(async () => {
  await server.close();
});

const retry = { maxRetries: 1, initialDelayMs: 1, maxDelayMs: 5, random: () => 0 };
const provider = () => createOpenAICompatible({ baseURL: server.url, apiKey: API_KEY, headers: { 'api-key': HEADER_SECRET }, timeout: 150 });

function everyRendering(error: unknown): string {
  const chain: unknown[] = [];
  for (let current: unknown = error; current !== undefined && chain.length < 10; current = (current as { cause?: unknown }).cause) chain.push(current);
  return [
    JSON.stringify(error),
    inspect(error, { depth: Infinity, showHidden: true, getters: true }),
    String(error),
    ...chain.map((item) => `${(item as Error).message}\n${(item as Error).stack ?? ''}`),
    JSON.stringify(Object.entries(error as object)),
  ].join('\n');
}

async function failure(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

describe('no secret leaves in an error', () => {
  for (const name of Object.keys(scenarios)) {
    it(`model.generate: ${name}`, async () => {
      scenario = name;
      const model = withRetry(provider().languageModel('m'), retry);
      const error = await failure(() => model.generate({ prompt: 'x' }));
      expect(FactkitError.isInstance(error)).toBe(true);
      const rendered = everyRendering(error);
      expect(rendered).not.toContain(API_KEY);
      expect(rendered).not.toContain(HEADER_SECRET);
    });

    it(`model.stream: ${name}`, async () => {
      scenario = name;
      const model = provider().languageModel('m');
      const parts: GenerateStreamPart[] = [];
      for await (const part of model.stream!({ prompt: 'x' })) parts.push(part);
      const errors = parts.filter((part) => part.type === 'error');
      const rendered = parts.map((part) => everyRendering(part.type === 'error' ? part.error : part)).join('\n');
      expect(errors).toHaveLength(1);
      expect(rendered).not.toContain(API_KEY);
      expect(rendered).not.toContain(HEADER_SECRET);
    });

    it(`embedder.embed: ${name}`, async () => {
      scenario = name;
      const embedder = withEmbeddingRetry(provider().embedder('m', { dimensions: 2 }), retry);
      const error = await failure(() => embedder.embed({ texts: ['x'], kind: 'query' }));
      expect(FactkitError.isInstance(error)).toBe(true);
      const rendered = everyRendering(error);
      expect(rendered).not.toContain(API_KEY);
      expect(rendered).not.toContain(HEADER_SECRET);
    });
  }

  it('the provider and its models show no key when inspected or serialized', () => {
    const openai = provider();
    for (const value of [openai, openai.languageModel('m'), openai.embedder('m', { dimensions: 2 })]) {
      const rendered = [inspect(value, { depth: Infinity, showHidden: true, getters: true }), JSON.stringify(value), String(value)].join('\n');
      expect(rendered).not.toContain(API_KEY);
      expect(rendered).not.toContain(HEADER_SECRET);
    }
  });

  it('the scenarios really do carry the secrets to the client (the test can fail)', async () => {
    scenario = '401 echoing the key';
    const response = await fetch(`${server.url}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${API_KEY}`, 'api-key': HEADER_SECRET, 'content-type': 'application/json' },
      body: '{}',
    });
    const text = await response.text();
    expect(text).toContain(API_KEY);
    expect(text).toContain(HEADER_SECRET);
  });
});
