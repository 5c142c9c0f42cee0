// Live checks against a real endpoint. Skipped unless FACTKIT_LIVE=1, so CI and offline runs never touch the network.
// FACTKIT_LIVE=1 OPENAI_BASE_URL=http://localhost:11434/v1 FACTKIT_MODEL=llama3.1 \
//   FACTKIT_LIVE_EMBED_MODEL=nomic-embed-text FACTKIT_LIVE_EMBED_DIMENSIONS=768 pnpm vitest run test/live
import { describe } from 'vitest';
import { describeEmbedderContract, describeLanguageModelContract } from '@factkit/test-utils';
import { createOpenAICompatible } from '../../src/index.js';

const live = process.env.FACTKIT_LIVE === '1';
const chatModel = process.env.FACTKIT_MODEL ?? '';
const embedModel = process.env.FACTKIT_LIVE_EMBED_MODEL;
const embedDimensions = Number(process.env.FACTKIT_LIVE_EMBED_DIMENSIONS ?? '0');

// Reported as skipped without FACTKIT_LIVE=1 (with OPENAI_BASE_URL / OPENAI_API_KEY / FACTKIT_MODEL): no endpoint is
// reachable offline or in CI.
describe.skipIf(!live)('live endpoint (FACTKIT_LIVE=1)', () => {
  // n > 1 is only checked where the server supports it; emulateN covers the rest.
  describeLanguageModelContract('live endpoint', () => createOpenAICompatible().languageModel(chatModel, { emulateN: process.env.FACTKIT_LIVE_EMULATE_N === '1' }));
  if (embedModel !== undefined && embedDimensions > 0) {
    describeEmbedderContract('live embeddings', () => createOpenAICompatible().embedder(embedModel, { dimensions: embedDimensions }));
  }
});
