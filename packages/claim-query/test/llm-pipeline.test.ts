// The LLM path end to end against a real local OpenAI-compatible HTTP server (127.0.0.1) with scripted replies:
// JointCQ generator (Tables 21/22) → table retriever → LLM verifier (Tables 23/24), EN and ZH, malformed outputs,
// 429/500/garbage faults, and resume from a file cache with no answered call repeated.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withCache, withRetry } from '@factkit/core';
import { createFileCache } from '@factkit/core/node';
import { createOpenAICompatible } from '@factkit/openai';
import { startScriptedOpenAIServer, type ScriptedOpenAIServer, type ScriptedReply, type ScriptedRequest } from '@factkit/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { createJointCqGenerator, createLlmVerifier, detectHallucinations, evaluateDetections, judgeResponses } from '../src/index.js';
import { createBagOfWordsEmbedder, createTableRetriever } from './support.js';

const GENERATOR_REPLIES: Record<string, string> = {
  'The Acqua Felice aqueduct was completed in 1586, after 27 years of construction.':
    '[Claims]\n1 The Acqua Felice aqueduct was completed in 1586.\n2 The construction of the Acqua Felice aqueduct took 27 years.\n[Queries]\n1 When was the Acqua Felice aqueduct completed?\n2 How long did it take to construct the Acqua Felice aqueduct?\n[End]',
  // Malformed: prose, bold numbering, a missing query, no [End].
  'Rome is the capital of Italy. It has about 2.8 million inhabitants.': 'Sure, here you go:\n**[Claims]**\n**1.** Rome is the capital of Italy.\n**2.** Rome has about 2.8 million inhabitants.\n**[Queries]**\n**1.** capital of Italy',
  '鲁迅出生于1881年。': '[陈述]\n1 鲁迅出生于1881年。\n[查询]\n1 鲁迅出生年份\n[结束]',
  'I love sunny days.': '[Claims]\nNo claims.\n[Queries]\nNo query\n[End]',
};

const VERIFIER_REPLIES: Array<[string, string]> = [
  ['completed in 1586', 'Correct'],
  ['took 27 years', '<think>The reference says about eighteen months.</think>Hallucination'],
  ['capital of Italy', 'Not correct, it is irrelevant or correct'],
  ['鲁迅出生于1881年', '正确'],
];

const lastUser = (request: ScriptedRequest): string => {
  const messages = (request.body as { messages?: { role: string; content: string }[] }).messages ?? [];
  return messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
};

function handler(faults: { rate429Once: Set<string> }) {
  return (request: ScriptedRequest): ScriptedReply => {
    const prompt = lastUser(request);
    if (prompt.includes('[Reference]') || prompt.includes('[参考资料]')) {
      const claim = prompt.split(/\[Claim\]\n|\[陈述\]\n/)[1]?.split('\n')[0] ?? '';
      const reply = VERIFIER_REPLIES.find(([key]) => claim.includes(key))?.[1];
      return reply ? { content: reply } : { status: 500, body: { error: { message: 'no script for this claim' } } };
    }
    const answer = prompt.split(/\[Answer\]\n|\[回答\]\n/)[1] ?? '';
    if (answer === 'FAIL') return { status: 500 };
    if (answer === 'GARBAGE') return { malformed: true };
    if (answer === 'RATE' && faults.rate429Once.has('RATE')) {
      faults.rate429Once.delete('RATE');
      return { status: 429, headers: { 'retry-after': '0' } };
    }
    if (answer === 'RATE') return { content: '[Claims]\n1 Paris is in France.\n[Queries]\n1 Where is Paris?\n[End]' };
    const reply = GENERATOR_REPLIES[answer];
    return reply ? { content: reply } : { status: 500 };
  };
}

const retriever = createTableRetriever({
  'When was the Acqua Felice aqueduct completed?': ['...the aqueduct was completed in 1586...'],
  'How long did it take to construct the Acqua Felice aqueduct?': ['...the construction took approximately eighteen months...'],
  'capital of Italy': ['Rome is the capital city of Italy.'],
  鲁迅出生年份: ['鲁迅（1881年9月25日－1936年10月19日）'],
  'Where is Paris?': ['Paris is the capital of France.'],
});

let server: ScriptedOpenAIServer | undefined;
let directory: string | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  if (directory) rmSync(directory, { recursive: true, force: true });
  directory = undefined;
});

const items = [
  { id: 'acqua', question: 'How long did it take to complete the construction of the Acqua Felice aqueduct?', answer: 'The Acqua Felice aqueduct was completed in 1586, after 27 years of construction.' },
  { id: 'rome', question: 'Tell me about Rome.', answer: 'Rome is the capital of Italy. It has about 2.8 million inhabitants.' },
  { id: 'luxun', question: '鲁迅是哪一年出生的？', answer: '鲁迅出生于1881年。' },
  { id: 'opinion', question: 'Do you like sun?', answer: 'I love sunny days.' },
  { id: 'fail', question: 'q', answer: 'FAIL' },
  { id: 'garbage', question: 'q', answer: 'GARBAGE' },
  { id: 'rate', question: 'q', answer: 'RATE' },
];

function makeModel(url: string, cacheDirectory?: string) {
  const base = withRetry(createOpenAICompatible({ baseURL: url, apiKey: 'sk-local-test-key' }).languageModel('scripted-model'), { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 5 });
  return cacheDirectory ? withCache(base, createFileCache({ directory: cacheDirectory })) : base;
}

describe('LLM path against a scripted local server', () => {
  it('parses, verifies, labels; faults become failed items with reasons, never labels', async () => {
    server = await startScriptedOpenAIServer({ script: handler({ rate429Once: new Set(['RATE']) }) });
    const model = makeModel(server.url);
    const results = await detectHallucinations({
      items,
      generator: createJointCqGenerator({ model }),
      retriever,
      verifier: createLlmVerifier({ model }),
      embedder: createBagOfWordsEmbedder(),
    });
    const byId = new Map(results.map((r) => [r.id, r]));

    const acqua = byId.get('acqua')!;
    expect(acqua.claims.map((c) => [c.query?.text, c.verdict.label])).toEqual([
      ['When was the Acqua Felice aqueduct completed?', 'correct'],
      ['How long did it take to construct the Acqua Felice aqueduct?', 'hallucinated'],
    ]);
    expect(acqua.claims[1]?.verdict.reasoning).toBe('The reference says about eighteen months.');
    // The LLM verifier reads the snippets together: each is listed with its rank, none has a label of its own, all read
    // ones decided, and the why line says what the verifier answered.
    const judged = acqua.claims[1]!.verdict;
    expect(judged.snippets?.map((s) => [s.rank, s.label, s.decisive])).toEqual(acqua.claims[1]!.evidence.map((_, i) => [i + 1, undefined, true]));
    expect(judged.why).toBe(`hallucinated: the LLM verifier read snippet(s) #1–#${acqua.claims[1]!.evidence.length} together and answered hallucinated`);
    expect(acqua.responseLabel).toBe('hallucinated');
    const provenance = acqua.claims[0]!.verdict.provenance!;
    expect(provenance.step).toBe('jointcq.verify');
    expect(provenance.sampling.temperature).toBe(0);
    expect(provenance.prompts[0]).toContain('[Reference]\nQuery: When was the Acqua Felice aqueduct completed?\n1. ...the aqueduct was completed in 1586...');
    const generation = acqua.generation.provenance!;
    expect(generation[0]?.step).toBe('jointcq.generate');

    const rome = byId.get('rome')!;
    expect(rome.claims.map((c) => c.query)).toEqual([{ text: 'capital of Italy', claimId: 'rome:c0' }, undefined]);
    expect(rome.claims[0]?.verdict).toMatchObject({ status: 'ok', label: 'unverifiable', reason: 'unreadable verdict' });
    expect(rome.claims[0]?.verdict.problems.map((p) => p.code)).toContain('ambiguous-label');
    expect(rome.claims[1]?.verdict.reason).toBe('no query');
    expect(rome.problems.map((p) => p.code)).toEqual(expect.arrayContaining(['extra-text', 'missing-end', 'count-mismatch']));
    expect(rome.responseLabel).toBe('unverifiable');

    const luxun = byId.get('luxun')!;
    expect(luxun.language).toBe('zh');
    expect(luxun.claims[0]?.verdict.label).toBe('correct');
    expect(luxun.claims[0]?.verdict.provenance?.prompts[0]).toContain('[参考资料]\n查询: 鲁迅出生年份');

    expect(byId.get('opinion')).toMatchObject({ status: 'ok', noClaims: true, responseLabel: 'unverifiable' });
    expect(byId.get('fail')).toMatchObject({ status: 'failed' });
    expect(byId.get('fail')?.responseLabel).toBeUndefined();
    expect(byId.get('fail')?.problems[0]?.code).toBe('call-failed');
    expect(byId.get('garbage')?.status).toBe('failed');
    expect(byId.get('garbage')?.failedStage).toBe('generation');
    expect(byId.get('rate')?.claims[0]?.verdict).toBeDefined();
    expect(byId.get('rate')?.failedStage).not.toBe('generation');

    const evaluation = evaluateDetections(results, new Map(items.map((item) => [item.id, { response: item.id === 'acqua' }])));
    expect(evaluation.response.nFailed).toBe(3); // fail, garbage, rate (its verifier had no script: failed, never a label)
    for (const result of results) expect(JSON.stringify(result)).not.toContain('sk-local-test-key');
  });

  it('a killed run resumes from the file cache with no answered call repeated', async () => {
    server = await startScriptedOpenAIServer({ script: handler({ rate429Once: new Set() }) });
    directory = mkdtempSync(join(tmpdir(), 'claim-query-resume-'));
    const good = items.slice(0, 4);
    const controller = new AbortController();
    const firstRun = detectHallucinations({
      items: good,
      generator: createJointCqGenerator({ model: makeModel(server.url, directory) }),
      retriever,
      verifier: createLlmVerifier({ model: makeModel(server.url, directory) }),
      concurrency: 1,
      abortSignal: controller.signal,
      onProgress: ({ completed }) => {
        if (completed === 2) controller.abort(new Error('killed'));
      },
    });
    await expect(firstRun).rejects.toThrow('killed');
    const answeredFirst = server.requests.filter((r) => r.path === '/v1/chat/completions').map(lastUser);
    expect(answeredFirst.length).toBeGreaterThan(0);
    const before = server.requests.length;

    const results = await detectHallucinations({
      items: good,
      generator: createJointCqGenerator({ model: makeModel(server.url, directory) }),
      retriever,
      verifier: createLlmVerifier({ model: makeModel(server.url, directory) }),
    });
    const secondRun = server.requests
      .slice(before)
      .filter((r) => r.path === '/v1/chat/completions')
      .map(lastUser);
    for (const prompt of secondRun) expect(answeredFirst).not.toContain(prompt);
    expect(results.every((r) => r.status === 'ok')).toBe(true);
    expect(results[0]?.responseLabel).toBe('hallucinated');
    const cachedFlags = results[0]?.claims.map((c) => (c.verdict.provenance as { cached: boolean }).cached);
    expect(cachedFlags).toEqual([true, true]);
  });
});

describe('response-level LLM judge baseline (Tables 25/26)', () => {
  it('Yes → hallucinated, 否 → not hallucinated, hedges unreadable, failures failed', async () => {
    server = await startScriptedOpenAIServer({
      script: (request) => {
        const prompt = lastUser(request);
        if (prompt.includes('FAIL')) return { status: 500 };
        if (prompt.includes('### 答案')) return { content: '否' };
        return { content: prompt.includes('1600') ? 'Yes' : 'Yes or no' };
      },
    });
    const model = makeModel(server.url);
    const judged = await judgeResponses(
      [
        { question: 'When?', answer: 'In 1600.' },
        { question: '鲁迅哪年出生？', answer: '1881年。' },
        { question: 'When?', answer: 'Maybe.' },
        { question: 'When?', answer: 'FAIL' },
      ],
      { model },
    );
    expect(judged.map((j) => [j.status, j.label])).toEqual([
      ['ok', 'hallucinated'],
      ['ok', 'not-hallucinated'],
      ['ok', undefined],
      ['failed', undefined],
    ]);
    expect(judged[0]?.provenance.prompts[0]).toContain('The response you give should be “Yes” or “No”.');
  });
});
