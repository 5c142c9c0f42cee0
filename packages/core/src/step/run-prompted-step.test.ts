import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ProviderCallError } from '../errors/factkit-error.js';
import type { LanguageModel } from '../language-model.js';
import { createMemoryCache } from '../llm/cache-stores.js';
import { withCache } from '../llm/with-cache.js';
import { parseLabel } from '../parse/parse-label.js';
import { createMockLanguageModel } from '../testing/index.js';
import type { Progress } from '../outcome/progress.js';
import { runPromptedStep, stepOutcome, type ReplyParser } from './run-prompted-step.js';

const TEMPLATE = 'Claim: {{claim}}\nAnswer with Supported or Refuted.';
const LABELS = { labels: ['Supported', 'Refuted'] as const };
const parseVerdict: ReplyParser<{ text: string }, 'Supported' | 'Refuted'> = (reply) => parseLabel(reply, LABELS);

describe('runPromptedStep', () => {
  it('renders, calls, parses and records provenance per input, in input order', async () => {
    const model = createMockLanguageModel({ responses: (request) => (request.prompt?.includes('sky') ? '**Supported**' : 'Not supported; refuted.') });
    const items = await runPromptedStep([{ text: 'The sky is blue.' }, { text: 'The moon is cheese.' }], {
      step: 'verdict',
      model,
      template: TEMPLATE,
      variables: (claim) => ({ claim: claim.text }),
      parse: parseVerdict,
      temperature: 0,
      seed: (_claim, index) => 10 + index,
    });
    expect(items.map((item) => [item.index, item.status, item.value, item.raw])).toEqual([
      [0, 'ok', 'Supported', ['**Supported**']],
      [1, 'ok', 'Refuted', ['Not supported; refuted.']],
    ]);
    const provenance = items[1]?.provenance;
    expect(provenance).toMatchObject({
      step: 'verdict',
      provider: 'mock',
      modelId: 'mock:language-model',
      prompts: ['Claim: The moon is cheese.\nAnswer with Supported or Refuted.'],
      sampling: { temperature: 0, n: 1, seed: 11 },
      cached: false,
    });
    expect(provenance?.usage.totalTokens).toBeGreaterThan(0);
    expect(Date.parse(provenance?.finishedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(provenance?.startedAt ?? ''));
    expect(model.calls.map((call) => call.seed)).toEqual([10, 11]);
  });

  it('keeps a parse problem next to the value and never invents one', async () => {
    const model = createMockLanguageModel({ responses: ['supported or refuted'] });
    const [item] = await runPromptedStep([{ text: 'x' }], { step: 'verdict', model, template: TEMPLATE, variables: (claim) => ({ claim: claim.text }), parse: parseVerdict });
    expect(item?.status).toBe('ok');
    expect(item?.value).toBeUndefined();
    expect(item?.problems.map((problem) => problem.code)).toEqual(['ambiguous-label']);
  });

  it('turns a failed call into a failed item with the reason, secrets redacted, and keeps the rest', async () => {
    const secret = 'sk-abcdefghijklmnopqrstuvwxyz123456';
    const model = createMockLanguageModel({
      responses: (request) => {
        if (request.prompt?.includes('boom')) throw new ProviderCallError({ provider: 'x', message: `401 bad key ${secret}`, statusCode: 401 });
        return 'Refuted';
      },
    });
    const progress: Progress[] = [];
    const items = await runPromptedStep([{ text: 'a' }, { text: 'boom' }, { text: 'c' }], {
      step: 'verdict',
      model,
      template: TEMPLATE,
      variables: (claim) => ({ claim: claim.text }),
      parse: parseVerdict,
      concurrency: 1,
      onProgress: (entry) => progress.push(entry),
    });
    expect(items.map((item) => item.status)).toEqual(['ok', 'failed', 'ok']);
    const failed = items[1];
    expect(failed?.value).toBeUndefined();
    expect(failed?.raw).toEqual([]);
    expect(failed?.problems).toHaveLength(1);
    expect(failed?.problems[0]).toMatchObject({ index: 1, code: 'call-failed' });
    expect(failed?.problems[0]?.message).toContain('401 bad key');
    expect(failed?.problems[0]?.message).not.toContain(secret);
    expect(ProviderCallError.isInstance(failed?.error)).toBe(true);
    expect(JSON.stringify(failed)).not.toContain('"error"');
    expect(failed?.provenance.prompts).toEqual(['Claim: boom\nAnswer with Supported or Refuted.']);
    expect(progress).toEqual([
      { completed: 1, total: 3, failed: 0 },
      { completed: 2, total: 3, failed: 1 },
      { completed: 3, total: 3, failed: 1 },
    ]);
  });

  it('stepOutcome: ok only with a value; a failed call or an unparsed reply is failed with its problems and raw reply', async () => {
    const model = createMockLanguageModel({
      responses: (request) => {
        if (request.prompt?.includes('boom')) throw new ProviderCallError({ provider: 'x', message: 'down', statusCode: 503 });
        return request.prompt?.includes('mumble') ? 'I cannot say' : 'Supported';
      },
    });
    const items = await runPromptedStep([{ text: 'a' }, { text: 'boom' }, { text: 'mumble' }], {
      step: 'verdict',
      model,
      template: TEMPLATE,
      variables: (claim) => ({ claim: claim.text }),
      parse: parseVerdict,
      concurrency: 1,
    });
    const [ok, callFailed, unparsed] = items.map(stepOutcome);
    expect(ok).toEqual({ status: 'ok', value: 'Supported' });
    expect(callFailed?.status).toBe('failed');
    expect(callFailed?.status === 'failed' && callFailed.problems.map((problem) => problem.code)).toEqual(['call-failed']);
    expect(callFailed && 'raw' in callFailed).toBe(false);
    expect(items[2]?.status).toBe('ok');
    expect(unparsed).toMatchObject({ status: 'failed', raw: 'I cannot say' });
    expect(unparsed?.status === 'failed' && unparsed.problems.length).toBeGreaterThan(0);
  });

  it('reports a prompt that cannot be rendered as a failed item, not a crash', async () => {
    const model = createMockLanguageModel({ responses: ['Supported'] });
    const items = await runPromptedStep([{ text: 'a' }, { text: 'b' }], {
      step: 'verdict',
      model,
      template: TEMPLATE,
      variables: (claim): Record<string, string> => (claim.text === 'b' ? {} : { claim: claim.text }),
      parse: parseVerdict,
    });
    expect(items.map((item) => [item.status, item.problems[0]?.code])).toEqual([
      ['ok', undefined],
      ['failed', 'invalid-input'],
    ]);
    expect(model.calls).toHaveLength(1);
  });

  it('parses n replies, reports missing ones, and survives a throwing parser', async () => {
    const model: LanguageModel = { id: 'short', generate: async () => ({ texts: ['Supported', 'Refuted'], usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 } }) };
    const [item] = await runPromptedStep([{ text: 'a' }], { step: 's', model, template: TEMPLATE, variables: (claim) => ({ claim: claim.text }), parse: parseVerdict, n: 3 });
    expect(item?.replies.map((reply) => reply.value)).toEqual(['Supported', 'Refuted']);
    expect(item?.value).toBe('Supported');
    expect(item?.problems).toEqual([{ index: 2, code: 'missing-reply', message: 'the model returned 2 of 3 replies' }]);
    const [thrown] = await runPromptedStep([{ text: 'a' }], {
      step: 's',
      model,
      template: TEMPLATE,
      variables: (claim) => ({ claim: claim.text }),
      parse: () => {
        throw new Error('bug');
      },
    });
    expect(thrown?.status).toBe('ok');
    expect(thrown?.problems[0]).toMatchObject({ code: 'parse-failed' });
  });

  it('records cached replies from withCache', async () => {
    const model = createMockLanguageModel({ responses: ['Supported'] });
    const cached = withCache(model, createMemoryCache());
    const options = { step: 's', model: cached, template: TEMPLATE, variables: (claim: { text: string }) => ({ claim: claim.text }), parse: parseVerdict, seed: 1 };
    const first = await runPromptedStep([{ text: 'a' }], options);
    const second = await runPromptedStep([{ text: 'a' }], options);
    expect(first[0]?.provenance.cached).toBe(false);
    expect(second[0]?.provenance.cached).toBe(true);
    expect(model.calls).toHaveLength(1);
  });

  it('rethrows the abort reason unchanged', async () => {
    const controller = new AbortController();
    const reason = new Error('stopped by user');
    const model = createMockLanguageModel({
      responses: () => {
        controller.abort(reason);
        return 'Supported';
      },
    });
    await expect(
      runPromptedStep([{ text: 'a' }, { text: 'b' }, { text: 'c' }], {
        step: 's',
        model,
        template: TEMPLATE,
        variables: (claim) => ({ claim: claim.text }),
        parse: parseVerdict,
        concurrency: 1,
        abortSignal: controller.signal,
      }),
    ).rejects.toBe(reason);
    expect(model.calls).toHaveLength(1);
  });

  it('checks its arguments before any call', async () => {
    const model = createMockLanguageModel();
    const base = { step: 's', model, template: TEMPLATE, variables: () => ({ claim: 'x' }), parse: parseVerdict };
    await expect(runPromptedStep('x' as never, base)).rejects.toMatchObject({ argument: 'inputs' });
    await expect(runPromptedStep([{ text: 'x' }], { ...base, model: {} as never })).rejects.toMatchObject({ argument: 'model' });
    await expect(runPromptedStep([{ text: 'x' }], { ...base, concurrency: 0 })).rejects.toMatchObject({ argument: 'concurrency' });
    await expect(runPromptedStep([{ text: 'x' }], { ...base, n: 1.5 })).rejects.toMatchObject({ argument: 'n' });
    await expect(runPromptedStep([{ text: 'x' }], { ...base, parse: undefined as never })).rejects.toMatchObject({ argument: 'parse' });
    expect(model.calls).toHaveLength(0);
  });
});

describe('runPromptedStep properties (seeded fast-check)', () => {
  it('returns one item per input in order; an item failed exactly when its call threw; progress counts add up', async () => {
    const outcome = fc.oneof(
      fc.record({ kind: fc.constant('reply' as const), text: fc.constantFrom('Supported', 'not supported', 'Refuted.', '', 'Supported or Refuted'), delay: fc.nat(3) }),
      fc.record({ kind: fc.constant('throw' as const), text: fc.constant(''), delay: fc.nat(3) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(outcome, { maxLength: 12 }), fc.integer({ min: 1, max: 5 }), async (outcomes, concurrency) => {
        const model: LanguageModel = {
          id: 'scripted',
          async generate(request) {
            const index = Number(/#(\d+)/.exec(request.prompt ?? '')?.[1]);
            const planned = outcomes[index] as (typeof outcomes)[number];
            await new Promise((resolve) => setTimeout(resolve, planned.delay));
            if (planned.kind === 'throw') throw new Error(`call ${index} failed`);
            return { texts: [planned.text], usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } };
          },
        };
        const progress: { completed: number; failed: number | undefined }[] = [];
        const items = await runPromptedStep(
          outcomes.map((_, index) => index),
          { step: 's', model, template: 'Claim #{{index}}', variables: (index) => ({ index }), parse: (reply) => parseLabel(reply, LABELS), concurrency, onProgress: ({ completed, failed }) => progress.push({ completed, failed }) },
        );
        expect(items.map((item) => item.index)).toEqual(outcomes.map((_, index) => index));
        items.forEach((item, index) => {
          const planned = outcomes[index] as (typeof outcomes)[number];
          if (planned.kind === 'throw') {
            expect(item.status).toBe('failed');
            expect(item.value).toBeUndefined();
            expect(item.raw).toEqual([]);
            expect(item.problems.map((problem) => problem.code)).toEqual(['call-failed']);
            expect(item.problems[0]?.message).toBe(`call ${index} failed`);
          } else {
            expect(item.status).toBe('ok');
            expect(item.raw).toEqual([planned.text]);
            expect(item.value).toBe(parseLabel(planned.text, LABELS).label);
          }
        });
        const failures = outcomes.filter((planned) => planned.kind === 'throw').length;
        expect(progress.map((entry) => entry.completed)).toEqual(outcomes.map((_, index) => index + 1));
        expect(progress.at(-1)?.failed ?? 0).toBe(failures);
      }),
      { numRuns: 60 },
    );
  });
});
