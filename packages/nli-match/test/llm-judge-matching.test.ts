import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAICompatible } from '@factkit/openai';
import { createLlmNliJudge } from '@factkit/nli-models';
import type { ScriptedOpenAIServer } from '@factkit/test-utils';
import { startScriptedOpenAIServer } from '@factkit/test-utils';
import { matchGenerationToEvidence } from '../src/index.js';

describe('matching with the LLM NLI judge of @factkit/nli-models over HTTP (scripted OpenAI server)', () => {
  let server: ScriptedOpenAIServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('matches a generation through real chat-completion calls, including an unreadable answer', async () => {
    server = await startScriptedOpenAIServer({
      script: (request) => {
        const body = request.body as { messages: { content: string }[] };
        const prompt = body.messages.at(-1)?.content ?? '';
        if (prompt.includes('S2: It was released by Fox 2000 Pictures.')) return { content: '**Entailment**' };
        if (prompt.includes('S2: Critics hated it.')) return { content: 'I cannot tell.' };
        return { content: 'Neutral.' };
      },
    });
    const model = createOpenAICompatible({ baseURL: server.url, apiKey: 'sk-test-not-real' }).languageModel('gpt-4o-mini');
    const nli = createLlmNliJudge({ model, concurrency: 2 });
    const result = await matchGenerationToEvidence({
      claim: 'Fox 2000 Pictures released the film Soul Food.',
      generation: 'Soul Food is a 1997 film. It was released by Fox 2000 Pictures. Critics hated it.',
      evidence: ['Soul Food is a 1997 American comedy-drama film released by Fox 2000 Pictures.'],
      nli,
    });
    expect(result.matched).toBe(true);
    expect(result.labels).toEqual([['neutral', 'entailment', null]]);
    expect(result.entailingPairs[0]?.sentence).toBe('It was released by Fox 2000 Pictures.');
    expect(result.problems).toEqual([expect.objectContaining({ code: 'nli-unreadable', raw: 'I cannot tell.' })]);
    const chatRequests = server.requests.filter((request) => request.path === '/v1/chat/completions');
    expect(chatRequests).toHaveLength(3);
    expect((chatRequests[0]?.body as { temperature: number }).temperature).toBe(0);
  });
});
