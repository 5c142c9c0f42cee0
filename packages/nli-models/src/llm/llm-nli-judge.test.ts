import { afterEach, describe, expect, it } from 'vitest';
import { InvalidArgumentError, createMemoryCache, withCache } from '@factkit/core';
import { createMockLanguageModel } from '@factkit/core/testing';
import { createOpenAICompatible } from '@factkit/openai';
import type { ScriptedOpenAIServer } from '@factkit/test-utils';
import { startScriptedOpenAIServer } from '@factkit/test-utils';
import { createLlmNliJudge } from './llm-nli-judge.js';
import { NLI_PROMPT } from './nli-prompt.js';

describe('createLlmNliJudge with core mocks', () => {
  it('sends the paper prompt (Figure A3) with premise = evidence and hypothesis = sentence, at temperature 0', async () => {
    const model = createMockLanguageModel({ responses: ['Entailment'] });
    const judge = createLlmNliJudge({ model });
    const { results } = await judge.classify({ pairs: [{ premise: 'Soul Food was released by Fox 2000 Pictures.', hypothesis: 'Fox released Soul Food.' }] });
    expect(results).toMatchObject([{ label: 'entailment', raw: 'Entailment', problems: [] }]);
    expect(results[0]).toMatchObject({ provenance: { step: 'nli-models.llm-judge', modelId: 'mock:language-model', cached: false, sampling: { temperature: 0, maxTokens: 16 } } });
    expect(model.calls[0]?.prompt).toBe(
      'Given the premise sentence S1, determine if the hypothesis sentence S2 is entailed or contradicted or neutral, by three labels: entailment, contradiction, neutral.\n' +
        'Respond only with one of the labels.\n' +
        'S1: Soul Food was released by Fox 2000 Pictures.\n' +
        'S2: Fox released Soul Food.\n' +
        'Label:',
    );
    expect(model.calls[0]?.temperature).toBe(0);
    expect(judge.id).toBe('llm-nli(mock:language-model)');
  });

  it('keeps answers that are not a label as label null with the raw text and a problem', async () => {
    const model = createMockLanguageModel({ responses: [' CONTRADICTION.', 'I am not sure.', 'neutral'] });
    const { results } = await createLlmNliJudge({ model, concurrency: 1 }).classify({
      pairs: [
        { premise: 'a', hypothesis: 'b' },
        { premise: 'c', hypothesis: 'd' },
        { premise: 'e', hypothesis: 'f' },
      ],
    });
    expect(results.map((result) => result.label)).toEqual(['contradiction', null, 'neutral']);
    expect(results[1]).toMatchObject({ raw: 'I am not sure.', problem: expect.stringMatching(/no-label/) });
  });

  it('turns a failed call into a per-pair problem and keeps the other pairs', async () => {
    const model = createMockLanguageModel({
      responses: (request) => {
        if (request.prompt?.includes('S1: bad')) throw new Error('HTTP 500 from provider');
        return 'entailment';
      },
    });
    const { results } = await createLlmNliJudge({ model }).classify({
      pairs: [
        { premise: 'good', hypothesis: 'x' },
        { premise: 'bad', hypothesis: 'y' },
      ],
    });
    expect(results[0]?.label).toBe('entailment');
    expect(results[1]).toMatchObject({ label: null, problem: expect.stringMatching(/HTTP 500/) });
  });

  it('accepts a custom prompt and rejects one without the placeholders', () => {
    const model = createMockLanguageModel();
    expect(() => createLlmNliJudge({ model, prompt: 'Premise: {{premise}}' })).toThrow(/hypothesis/);
    let thrown: unknown;
    try {
      createLlmNliJudge({ model: undefined as never });
    } catch (error) {
      thrown = error;
    }
    expect(InvalidArgumentError.isInstance(thrown)).toBe(true);
    expect(createLlmNliJudge({ model, prompt: 'P={{premise}} H={{hypothesis}}' }).id).toBe('llm-nli(mock:language-model)');
  });

  it('is cacheable through core withCache: a rerun makes no model calls', async () => {
    const model = createMockLanguageModel({ responses: ['neutral'] });
    const cached = withCache(model, createMemoryCache());
    const pairs = [{ premise: 'p', hypothesis: 'h' }];
    await createLlmNliJudge({ model: cached }).classify({ pairs });
    await createLlmNliJudge({ model: cached }).classify({ pairs });
    expect(model.calls).toHaveLength(1);
  });

  it('rethrows the abort reason unchanged', async () => {
    const controller = new AbortController();
    const reason = new Error('cancelled');
    controller.abort(reason);
    const judge = createLlmNliJudge({ model: createMockLanguageModel() });
    await expect(judge.classify({ pairs: [{ premise: 'a', hypothesis: 'b' }], abortSignal: controller.signal })).rejects.toBe(reason);
  });

  it('exports the prompt as a constant', () => {
    expect(NLI_PROMPT).toContain('{{premise}}');
    expect(NLI_PROMPT).toContain('{{hypothesis}}');
  });
});

describe('createLlmNliJudge end to end over HTTP (@factkit/openai against a scripted OpenAI server)', () => {
  let server: ScriptedOpenAIServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('labels pairs through real chat-completion calls, keeping an unreadable answer as a problem', async () => {
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
    const premise = 'Soul Food is a 1997 American comedy-drama film released by Fox 2000 Pictures.';
    const { results } = await createLlmNliJudge({ model, concurrency: 2 }).classify({
      pairs: ['Soul Food is a 1997 film.', 'It was released by Fox 2000 Pictures.', 'Critics hated it.'].map((hypothesis) => ({ premise, hypothesis })),
    });
    expect(results.map((result) => result.label)).toEqual(['neutral', 'entailment', null]);
    expect(results[2]).toMatchObject({ raw: 'I cannot tell.', problem: expect.any(String) });
    const chatRequests = server.requests.filter((request) => request.path === '/v1/chat/completions');
    expect(chatRequests).toHaveLength(3);
    expect((chatRequests[0]?.body as { temperature: number }).temperature).toBe(0);
  });

  it('records an HTTP error as a per-pair problem without losing the other pairs', async () => {
    let calls = 0;
    server = await startScriptedOpenAIServer({
      script: () => {
        calls += 1;
        return calls === 1 ? { status: 400, body: { error: { message: 'bad request', type: 'invalid_request_error' } } } : { content: 'entailment' };
      },
    });
    const model = createOpenAICompatible({ baseURL: server.url, apiKey: 'sk-test-not-real' }).languageModel('gpt-4o-mini');
    const { results } = await createLlmNliJudge({ model, concurrency: 1 }).classify({
      pairs: [
        { premise: 'a', hypothesis: 'b' },
        { premise: 'c', hypothesis: 'd' },
      ],
    });
    expect(results[0]).toMatchObject({ label: null, problem: expect.stringMatching(/model call failed/) });
    expect(results[0]?.problem).not.toContain('sk-test-not-real');
    expect(results[1]?.label).toBe('entailment');
  });
});
