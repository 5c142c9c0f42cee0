import { createMemoryCache, InvalidArgumentError, withCache } from '@factkit/core';
import { createMockLanguageModel } from '@factkit/core/testing';
import { describe, expect, it } from 'vitest';
import { QUERY2DOC_PROMPT } from './prompts.js';
import { createQuery2docExpander } from './query2doc-expander.js';

const claim = { id: 'c1', text: 'Aspirin lowers fever.' };

describe('createQuery2docExpander', () => {
  it('builds q × 5 + d for BM25 (Equation 1) and records prompt, sampling, seed and usage', async () => {
    const model = createMockLanguageModel({ responses: ['Aspirin is an antipyretic drug.'] });
    const expanded = await createQuery2docExpander({ model }).expand({ query: claim });
    expect(expanded.text).toBe('Aspirin lowers fever. Aspirin lowers fever. Aspirin lowers fever. Aspirin lowers fever. Aspirin lowers fever. Aspirin is an antipyretic drug.');
    expect(expanded.id).toBe('c1');
    expect(expanded.original).toEqual(claim);
    expect(expanded.generations).toEqual(['Aspirin is an antipyretic drug.']);
    expect(expanded.problems).toBeUndefined();
    expect(expanded.provenance).toMatchObject({
      step: 'query2doc', // GenerationProvenance: `step` replaces `method`
      provider: 'mock',
      cached: false,
      modelId: 'mock:language-model',
      prompts: ['Write a passage that answers the following query:\nAspirin lowers fever.'],
      sampling: { temperature: 0.7, topP: 1, maxTokens: 512, n: 1, seed: 0 },
    });
    expect(expanded.provenance!.usage?.totalTokens).toBeGreaterThan(0);
    expect(model.calls).toHaveLength(1);
    expect(model.calls[0]).toMatchObject({ prompt: expanded.provenance!.prompts?.[0], temperature: 0.7, topP: 1, maxTokens: 512, n: 1, seed: 0 });
  });

  it('builds q [SEP] d in dense form, honours repeats and a custom prompt', async () => {
    const model = createMockLanguageModel({ responses: ['D.'] });
    const dense = await createQuery2docExpander({ model, form: 'dense' }).expand({ query: claim });
    expect(dense.text).toBe('Aspirin lowers fever. [SEP] D.');
    const two = await createQuery2docExpander({ model, repeats: 2, prompt: 'Q: {{query}} ({{topic}})', promptVariables: { topic: 'medicine' } }).expand({ query: claim });
    expect(two.text).toBe('Aspirin lowers fever. Aspirin lowers fever. D.');
    expect(two.provenance!.prompts).toEqual(['Q: Aspirin lowers fever. (medicine)']);
  });

  it('sends the sample index as seed, so withCache keeps repeated samples apart and replays them', async () => {
    let counter = 0;
    const model = createMockLanguageModel({ responses: () => `Passage number ${(counter += 1)}.` });
    const cached = withCache(model, createMemoryCache());
    const expander = createQuery2docExpander({ model: cached });
    const first = await expander.expand({ query: claim, sample: 0 });
    const second = await expander.expand({ query: claim, sample: 1 });
    const again = await expander.expand({ query: claim, sample: 0 });
    expect(model.calls.map((call) => call.seed)).toEqual([0, 1]);
    expect(first.generations).toEqual(['Passage number 1.']);
    expect(second.generations).toEqual(['Passage number 2.']);
    expect(again.generations).toEqual(first.generations);
    expect(second.provenance!.sampling?.seed).toBe(1);
  });

  it('records refusals, empty and wrong-language generations as problems and leaves them out of the query', async () => {
    const model = createMockLanguageModel({ responses: ["I'm sorry, but I can't help with that.", '  ', '阿司匹林可以降低发烧。', 'Aspirin reduces fever.'] });
    const expanded = await createQuery2docExpander({ model, n: 4, repeats: 1 }).expand({ query: claim });
    expect(expanded.generations).toHaveLength(4);
    expect(expanded.problems?.map((problem) => [problem.index, problem.code])).toEqual([
      [0, 'refusal'],
      [1, 'empty'],
      [2, 'wrong-language'],
    ]);
    expect(expanded.problems?.[0]?.raw).toBe("I'm sorry, but I can't help with that.");
    expect(expanded.text).toBe('Aspirin lowers fever. Aspirin reduces fever.');
  });

  it('keepFlagged uses flagged non-empty generations too', async () => {
    const model = createMockLanguageModel({ responses: ['阿司匹林可以降低发烧。'] });
    const expanded = await createQuery2docExpander({ model, repeats: 1, keepFlagged: true }).expand({ query: claim });
    expect(expanded.text).toBe('Aspirin lowers fever. 阿司匹林可以降低发烧。');
    expect(expanded.problems?.[0]?.code).toBe('wrong-language');
  });

  it('falls back to the original query, with a problem, when nothing is usable', async () => {
    const model = createMockLanguageModel({ responses: ['I am unable to provide that.'] });
    const expanded = await createQuery2docExpander({ model }).expand({ query: claim });
    expect(expanded.text).toBe(claim.text);
    expect(expanded.problems?.map((problem) => problem.code)).toEqual(['refusal', 'no-usable-generation']);
  });

  it('records a missing completion when the model returns fewer than n', async () => {
    const model = { id: 'short', generate: async () => ({ texts: ['Only one.'], usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } }) };
    const expanded = await createQuery2docExpander({ model, n: 2 }).expand({ query: claim });
    expect(expanded.generations).toEqual(['Only one.', '']);
    expect(expanded.problems).toEqual([expect.objectContaining({ index: 1, code: 'missing' })]);
  });

  it('rethrows the abort reason unchanged', async () => {
    const controller = new AbortController();
    const reason = new Error('stop now');
    const model = {
      id: 'slow',
      generate: (request: { abortSignal?: AbortSignal }) => new Promise<never>((_resolve, reject) => request.abortSignal?.addEventListener('abort', () => reject(request.abortSignal?.reason))),
    };
    const pending = createQuery2docExpander({ model }).expand({ query: claim, abortSignal: controller.signal });
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    await expect(createQuery2docExpander({ model }).expand({ query: claim, abortSignal: controller.signal })).rejects.toBe(reason);
  });

  it('validates options and requests with InvalidArgumentError naming the argument', async () => {
    const model = createMockLanguageModel();
    const cases: [() => unknown, string][] = [
      [() => createQuery2docExpander({ model, repeats: 0 }), 'repeats'],
      [() => createQuery2docExpander({ model, temperature: -1 }), 'temperature'],
      [() => createQuery2docExpander({ model, topP: 0 }), 'topP'],
      [() => createQuery2docExpander({ model, maxTokens: 1.5 }), 'maxTokens'],
      [() => createQuery2docExpander({ model, n: 0 }), 'n'],
      [() => createQuery2docExpander({ model, prompt: 'no placeholder' }), 'prompt'],
      [() => createQuery2docExpander({ model, prompt: '{{query}} {{lang}}' }), 'promptVariables'],
      [() => createQuery2docExpander({ model: undefined as never }), 'model'],
      [() => createQuery2docExpander({ model, form: 'hybrid' as never }), 'form'],
    ];
    for (const [make, argument] of cases) {
      let caught: unknown;
      try {
        make();
      } catch (error) {
        caught = error;
      }
      expect(InvalidArgumentError.isInstance(caught), argument).toBe(true);
      expect((caught as InvalidArgumentError).argument).toBe(argument);
    }
    const expander = createQuery2docExpander({ model });
    await expect(expander.expand({ query: { text: '  ' } })).rejects.toMatchObject({ code: 'invalid_argument', argument: 'request.query.text' });
    await expect(expander.expand({ query: claim, sample: -1 })).rejects.toMatchObject({ argument: 'request.sample' });
    expect(QUERY2DOC_PROMPT).toContain('{{query}}');
  });
});
