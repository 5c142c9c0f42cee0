import { ProviderCallError } from '@factkit/core';
import { createMockLanguageModel } from '@factkit/core/testing';
import { describe, expect, it } from 'vitest';
import { SUPPORT_PROMPT, SUPPORT_PROMPT_CONTRASTIVE } from '../prompts.js';
import { createLlmSupportJudge } from './llm-support-judge.js';
import { isSupporting } from './support-judge.js';

const candidates = Array.from({ length: 20 }, (_, index) => ({ documentId: `c${index}`, text: `candidate text ${index}` }));

/** Texts in a rendered prompt's batch ("Text 1: candidate text 7" → 7). */
function batchOf(prompt: string): number[] {
  const part = prompt.slice(prompt.lastIndexOf('Group of Texts: '));
  return [...part.matchAll(/Text \d+: candidate text (\d+)/g)].map((match) => Number(match[1]));
}

describe('createLlmSupportJudge', () => {
  it('sends batches of b = 15 with the Fig. 4 prompt and keeps the texts scored 1', async () => {
    const model = createMockLanguageModel({
      responses: (request) =>
        `#analysis: ok\n#scores: ${batchOf(request.prompt ?? '')
          .map((id) => (id % 3 === 0 ? 1 : 0))
          .join(', ')}`,
    });
    const judge = createLlmSupportJudge({ model });
    const result = await judge.judge({ query: 'A claim.', candidates });
    expect(model.calls.map((call) => batchOf(call.prompt ?? '').length)).toEqual([15, 5]);
    expect(model.calls[0]?.prompt?.startsWith(SUPPORT_PROMPT.slice(0, SUPPORT_PROMPT.indexOf('{{query}}')))).toBe(true);
    expect(model.calls[0]).toMatchObject({ temperature: 0, maxTokens: 1024 });
    expect(result.judgements.filter(isSupporting).map((judgement) => judgement.documentId)).toEqual(['c0', 'c3', 'c6', 'c9', 'c12', 'c15', 'c18']);
    expect(result.calls.map((call) => call.analysis)).toEqual(['ok', 'ok']);
    expect(result.usage.totalTokens).toBeGreaterThan(0);
  });

  it('re-asks a malformed batch item by item; an item that stays unreadable is null, never a guessed score', async () => {
    const model = createMockLanguageModel({
      responses: (request) => {
        const ids = batchOf(request.prompt ?? '');
        if (ids.length > 1) return '#analysis: too lazy\n#scores: 1, 0'; // wrong count
        if (ids[0] === 4) return 'I cannot decide.';
        return `#analysis: single\n#scores: ${(ids[0] as number) % 2}`;
      },
    });
    const result = await createLlmSupportJudge({ model, batchSize: 5 }).judge({ query: 'q', candidates: candidates.slice(0, 5) });
    expect(result.judgements.map((judgement) => (judgement.status === 'ok' ? judgement.value : null))).toEqual([false, true, false, true, null]);
    expect(result.judgements[4]?.problems?.map((problem) => problem.code)).toEqual(['missing-section']);
    expect(result.calls.filter((call) => call.reasked)).toHaveLength(5);
  });

  it('re-asks only the unreadable items of an aligned batch', async () => {
    const model = createMockLanguageModel({ responses: (request) => (batchOf(request.prompt ?? '').length > 1 ? '#scores: 1, maybe, 0' : '#scores: 1') });
    const result = await createLlmSupportJudge({ model, template: SUPPORT_PROMPT_CONTRASTIVE }).judge({ query: 'q', candidates: candidates.slice(0, 3) });
    expect(result.judgements.map((judgement) => (judgement.status === 'ok' ? judgement.value : null))).toEqual([true, true, false]);
    expect(model.calls).toHaveLength(2);
  });

  it('marks the items of a failed call as unjudged with the error (secrets redacted), keeping the other batches', async () => {
    let call = 0;
    const model = {
      id: 'flaky',
      async generate() {
        call++;
        if (call === 1) throw new ProviderCallError({ provider: 'x', message: 'HTTP 500 with key sk-abcdefghijklmnop', statusCode: 500 });
        return { texts: [`#scores: ${Array(5).fill(1).join(', ')}`], usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } };
      },
    };
    const result = await createLlmSupportJudge({ model, batchSize: 15, concurrency: 1 }).judge({ query: 'q', candidates });
    expect(result.judgements.slice(0, 15).every((judgement) => judgement.status === 'failed')).toBe(true);
    expect(result.judgements.slice(15).every((judgement) => isSupporting(judgement))).toBe(true);
    expect(result.judgements[0]?.problems?.[0]?.code).toBe('call-failed');
    expect(JSON.stringify(result)).not.toContain('sk-abcdefghijklmnop');
  });

  it('rejects with the abort reason unchanged, and validates options', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    controller.abort(reason);
    const judge = createLlmSupportJudge({ model: createMockLanguageModel() });
    await expect(judge.judge({ query: 'q', candidates, abortSignal: controller.signal })).rejects.toBe(reason);
    expect(() => createLlmSupportJudge({ model: createMockLanguageModel(), batchSize: 0 })).toThrow(/"batchSize"/);
    expect(() => createLlmSupportJudge({ model: createMockLanguageModel(), template: 'no placeholders' })).toThrow(/"template"/);
  });
});
