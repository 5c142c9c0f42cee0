import { afterAll, beforeAll } from 'vitest';
import { describeEmbedderContract, describeLanguageModelContract, startScriptedOpenAIServer } from '@factkit/test-utils';
import type { ScriptedOpenAIServer } from '@factkit/test-utils';
import { createOpenAICompatible } from '../src/index.js';

// The scripted server's defaults: chat echoes the last user message (n copies), embeddings are deterministic unit vectors.
let server: ScriptedOpenAIServer;
beforeAll(async () => {
  server = await startScriptedOpenAIServer({ defaultDimensions: 16 });
});
afterAll(async () => {
  await server.close();
});

const provider = () => createOpenAICompatible({ baseURL: server.url, apiKey: 'contract-key', timeout: 5_000 });

describeLanguageModelContract('openai-compatible languageModel (real SDK, scripted server)', () => provider().languageModel('contract-model'));

describeEmbedderContract('openai-compatible embedder (real SDK, scripted server)', () => provider().embedder('contract-embed', { dimensions: 16, normalized: true }));
